import type { Logger } from './log';

/** How often each server deletes what has expired or is used no more, and ends what has run out of time. */
export const housekeepingIntervalMs = 5 * 60_000;

/**
 * Does what is due at `now` (deletes what expired, reminds or cancels the unpaid orders) and answers how many rows
 * it changed; safe on several servers at once.
 */
export type HousekeepingJob = (now: number) => Promise<number>;

/**
 * Runs the jobs on this server every `intervalMs` until stopped (docs/OPERATIONS.md, "Housekeeping"). Every server
 * runs them: each job's change is one (a delete, a conditional update) that another server's at the same moment only
 * finds made. A job that fails is logged and tried again at the next round; one round at a time, so a slow database
 * never piles rounds up.
 */
export function startHousekeeping(
  jobs: Record<string, HousekeepingJob>,
  log: Logger,
  intervalMs = housekeepingIntervalMs,
) {
  async function round() {
    for (const [job, run] of Object.entries(jobs)) {
      try {
        const rows = await run(Date.now());
        if (rows > 0) log.info({ job, rows }, 'housekeeping changed rows');
      } catch (err) {
        log.warn({ job, err }, 'a housekeeping job failed; trying again at the next round');
      }
    }
  }
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= round().finally(() => {
      running = undefined;
    });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
