import { describe, expect, it } from 'vitest';
import { decodeChange, encodeChange, maxPayloadBytes } from './postgres-changes';

const item = { id: 'a1', uid: 'u1', itemid: '1', name: 'Anky Bridle', priceCents: 30250, details: 'A bridle.' };

describe('PostgreSQL change payloads', () => {
  it('carry a change, with the server it came from, unchanged', () => {
    const changes = [
      { topic: 'cart:u1', event: { type: 'added', item } },
      { topic: 'cart:u1', event: { type: 'removed', id: 'a1' } },
      { topic: 'sessions', event: { type: 'ended', uid: 'u1' } },
    ];
    for (const change of changes) {
      expect(decodeChange(encodeChange('server-a', change))).toEqual({
        o: 'server-a',
        t: change.topic,
        e: change.event,
      });
    }
  });

  it('tell the topic it lost an event when the change would not fit in a NOTIFY', () => {
    const big = { topic: 'cart:u1', event: { type: 'added', item: { ...item, details: 'é'.repeat(maxPayloadBytes) } } };
    const payload = encodeChange('server-a', big);
    expect(Buffer.byteLength(payload)).toBeLessThan(8000);
    expect(decodeChange(payload)).toEqual({ o: 'server-a', t: 'cart:u1', lost: true });
  });

  it('ignore anything that is not one of ours', () => {
    for (const payload of [undefined, '', 'not json', '{}', '{"o":1,"t":"x","e":{}}', '{"o":"a","t":"x"}']) {
      expect(decodeChange(payload)).toBeUndefined();
    }
  });
});
