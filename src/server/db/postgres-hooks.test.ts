import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from './change-feed';
import { decodeEvent, encodeEvent, maxPayloadBytes } from './postgres-hooks';

const item = { id: 'a1', uid: 'u1', itemid: '1', name: 'Anky Bridle', priceCents: 30250, details: 'A bridle.' };

describe('PostgreSQL change payloads', () => {
  it('carry an event unchanged', () => {
    const events: ChangeEvent[] = [
      { uid: 'u1', type: 'added', item },
      { uid: 'u1', type: 'removed', id: 'a1' },
      { uid: 'u1', type: 'sessions-changed' },
      { uid: 'u1', type: 'resync' },
    ];
    for (const event of events) expect(decodeEvent(encodeEvent(event))).toEqual(event);
  });

  it('become a resync of the user when the event would not fit in a NOTIFY', () => {
    const big: ChangeEvent = { uid: 'u1', type: 'added', item: { ...item, details: 'é'.repeat(maxPayloadBytes) } };
    const payload = encodeEvent(big);
    expect(Buffer.byteLength(payload)).toBeLessThan(8000);
    expect(decodeEvent(payload)).toEqual({ uid: 'u1', type: 'resync' });
  });

  it('ignore anything that is not one of our events', () => {
    for (const payload of [undefined, '', 'not json', '{}', '{"uid":1,"type":"added"}', '{"uid":"u","type":"drop"}']) {
      expect(decodeEvent(payload)).toBeUndefined();
    }
  });
});
