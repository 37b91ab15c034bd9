import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { housekeepingIntervalMs, startHousekeeping } from './housekeeping';
import { createLogger } from './log';

describe('startHousekeeping', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs every job each round, logs what each changed, and goes on past a job that fails', async () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (line: string) => void lines.push(line) });
    const calls: string[] = [];
    const housekeeping = startHousekeeping(
      {
        failing: async () => {
          calls.push('failing');
          throw new Error('database out of reach');
        },
        pictures: async () => {
          calls.push('pictures');
          return 2;
        },
      },
      log,
    );
    await vi.advanceTimersByTimeAsync(housekeepingIntervalMs - 1);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(['failing', 'pictures']);
    await vi.advanceTimersByTimeAsync(housekeepingIntervalMs);
    expect(calls).toEqual(['failing', 'pictures', 'failing', 'pictures']);
    const logged = lines.map((line) => JSON.parse(line));
    expect(logged.filter((l) => l.msg === 'housekeeping changed rows')).toEqual([
      expect.objectContaining({ level: 'info', job: 'pictures', rows: 2 }),
      expect.objectContaining({ level: 'info', job: 'pictures', rows: 2 }),
    ]);
    expect(logged.filter((l) => l.level === 'warn').map((l) => l.job)).toEqual(['failing', 'failing']);
    await housekeeping.stop();
    await vi.advanceTimersByTimeAsync(housekeepingIntervalMs * 3);
    expect(calls).toHaveLength(4);
  });

  it('never starts a round while the last is still running, and stop waits for it', async () => {
    let finish = () => {};
    let started = 0;
    const housekeeping = startHousekeeping(
      {
        slow: () => {
          started += 1;
          return new Promise<number>((resolve) => {
            finish = () => resolve(0);
          });
        },
      },
      createLogger('silent'),
    );
    await vi.advanceTimersByTimeAsync(housekeepingIntervalMs * 3);
    expect(started).toBe(1);
    let stopped = false;
    const stopping = housekeeping.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(stopped).toBe(true);
  });
});
