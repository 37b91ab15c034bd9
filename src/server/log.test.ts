import { describe, expect, it } from 'vitest';
import { createLogger } from './log';

describe('createLogger', () => {
  it('writes JSON lines with an ISO time, the level by name, and no e-mail address in an error', () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (line: string) => void lines.push(line) });
    const before = Date.now();
    log.info({ requestId: 'r1' }, 'hello');
    log.error({ err: new Error('no mailbox ada@example.com') }, 'failed');
    const after = Date.now();
    const [first, second] = lines.map((line) => JSON.parse(line));
    expect(first).toEqual({ level: 'info', time: expect.any(String), requestId: 'r1', msg: 'hello' });
    expect(new Date(first.time).toISOString()).toBe(first.time);
    expect(Date.parse(first.time)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(first.time)).toBeLessThanOrEqual(after);
    expect(second.err.message).toBe('no mailbox [e-mail]');
    expect(second.err.stack).toContain('log.test.ts');
  });
});
