import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from '@playwright/test';

/** What observe-page.js records in the page. */
interface Recorded {
  lcp: { time: number; size: number; element: string }[];
  shifts: { time: number; value: number; hadRecentInput: boolean; sources: string[] }[];
  longTasks: { start: number; duration: number }[];
}

export interface PageMetrics {
  /** Largest Contentful Paint, ms after navigation start. */
  lcp: number;
  lcpElement: string;
  /** First Contentful Paint, ms. */
  fcp: number;
  /** Total Blocking Time, ms: long tasks' time over 50 ms, between FCP and the later of LCP and load. */
  tbt: number;
  /** The same from FCP to the end of the measurement (the page settled), closer to Lighthouse's FCP-to-TTI. */
  tbtToIdle: number;
  /** All long tasks' time from navigation start to the end of the measurement, before FCP included. */
  longTaskMs: number;
  /** Cumulative Layout Shift: the largest session window of shifts without recent input. */
  cls: number;
  shiftSources: string[];
  /** The load event's end, ms. */
  load: number;
  /** JavaScript bytes over the wire (gzipped), from Resource Timing. */
  jsTransferBytes: number;
}

const observer = fileURLToPath(new URL('./observe-page.js', import.meta.url));

/** From now on every page of the context records its own metrics from the first byte (observe-page.js). */
export async function recordMetrics(context: BrowserContext): Promise<void> {
  await context.addInitScript({ path: observer });
}

/** CLS as web-vitals defines it: shifts less than 1 s apart and within 5 s form a window; the largest counts. */
function cumulativeLayoutShift(shifts: Recorded['shifts']): number {
  let largest = 0;
  let current = 0;
  let first = 0;
  let last = 0;
  for (const shift of shifts.filter((entry) => !entry.hadRecentInput)) {
    if (current > 0 && shift.time - last < 1000 && shift.time - first < 5000) current += shift.value;
    else {
      current = shift.value;
      first = shift.time;
    }
    last = shift.time;
    largest = Math.max(largest, current);
  }
  return largest;
}

function totalBlockingTime(tasks: Recorded['longTasks'], from: number, to: number): number {
  let total = 0;
  for (const task of tasks) {
    const start = Math.max(task.start, from);
    const end = Math.min(task.start + task.duration, to);
    if (end - start > 50) total += end - start - 50;
  }
  return total;
}

/** Reads what the page recorded; call once the page is complete and has been still for a while. */
export async function readMetrics(page: Page): Promise<PageMetrics> {
  const raw = await page.evaluate(() => {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
      (entry) => entry.initiatorType === 'script' || entry.name.endsWith('.js'),
    );
    return {
      recorded: (window as unknown as { __piaffeMetrics: Recorded }).__piaffeMetrics,
      now: performance.now(),
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      load: navigation?.loadEventEnd ?? Number.NaN,
      jsTransferBytes: scripts.reduce((sum, entry) => sum + entry.transferSize, 0),
    };
  });
  const last = raw.recorded.lcp.at(-1);
  const lcp = last?.time ?? Number.NaN;
  const shifts = raw.recorded.shifts.filter((shift) => !shift.hadRecentInput && shift.value > 0);
  return {
    lcp,
    lcpElement: last?.element ?? '(none)',
    fcp: raw.fcp,
    tbt: totalBlockingTime(raw.recorded.longTasks, raw.fcp, Math.max(lcp, raw.load)),
    tbtToIdle: totalBlockingTime(raw.recorded.longTasks, raw.fcp, raw.now),
    longTaskMs: raw.recorded.longTasks.reduce((sum, task) => sum + task.duration, 0),
    cls: cumulativeLayoutShift(raw.recorded.shifts),
    shiftSources: [...new Set(shifts.flatMap((shift) => shift.sources))],
    load: raw.load,
    jsTransferBytes: raw.jsTransferBytes,
  };
}
