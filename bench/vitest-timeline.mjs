// Reads what bench/support/vitest-timeline.mjs wrote: the run's wall time, how long 0, 1, 2… files ran at once, each
// project's span, the longest files and the last to end. `node bench/vitest-timeline.mjs <timeline.json> [top]`.
import { readFileSync } from 'node:fs';

const [path, topArg] = process.argv.slice(2);
if (!path) {
  console.error('Usage: node bench/vitest-timeline.mjs <timeline.json> [top]');
  process.exit(1);
}
const { t0, tEnd, rows: all } = JSON.parse(readFileSync(path, 'utf8'));
const rows = all.filter((row) => row.queued && row.end);
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** How long n intervals overlapped, for each n, between `from` and `to`. */
function atOnce(intervals, from, to) {
  const events = intervals.flatMap(([a, b]) => [
    [a, 1],
    [b, -1],
  ]);
  events.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const time = {};
  let n = 0;
  let last = from;
  for (const [t, step] of events) {
    time[n] = (time[n] ?? 0) + (t - last);
    last = t;
    n += step;
  }
  time[n] = (time[n] ?? 0) + (to - last);
  return Object.entries(time)
    .map(([k, v]) => `${k}: ${s(v)}`)
    .join(', ');
}

const tests = rows.reduce((sum, row) => sum + (row.tests ?? 0), 0);
const failed = rows.reduce((sum, row) => sum + (row.failed ?? 0), 0);
console.log(`wall ${s(tEnd - t0)}; ${rows.length} files, ${tests} tests, ${failed} failed`);
const spans = rows.map((row) => [row.queued, row.end]);
console.log(`files at once (a file from its import to its end): ${atOnce(spans, t0, tEnd)}`);
const fileTime = rows.reduce((sum, row) => sum + row.end - row.queued, 0);
const collect = rows.reduce((sum, row) => sum + (row.diag?.collect ?? 0), 0);
console.log(`sum of the files' spans ${s(fileTime)}, of which imports ${s(collect)}`);

const projects = new Map();
for (const row of rows) {
  const p = projects.get(row.project) ?? { from: Number.POSITIVE_INFINITY, to: 0, files: 0, sum: 0 };
  p.from = Math.min(p.from, row.queued);
  p.to = Math.max(p.to, row.end);
  p.files++;
  p.sum += row.end - row.queued;
  projects.set(row.project, p);
}
for (const [name, p] of [...projects].sort((a, b) => a[1].from - b[1].from)) {
  console.log(
    `${name.padEnd(22)} ${String(p.files).padStart(3)} files ${s(p.from - t0).padStart(9)} → ${s(p.to - t0).padStart(9)}, files' sum ${s(p.sum)}`,
  );
}

const top = Number(topArg ?? 20);
console.log(`\nthe ${top} longest files (import to end; began at):`);
for (const row of [...rows].sort((a, b) => b.end - b.queued - (a.end - a.queued)).slice(0, top)) {
  console.log(
    `${s(row.end - row.queued).padStart(8)}  at ${s(row.queued - t0).padStart(8)}  ${row.key}${row.failed ? ` (${row.failed} failed)` : ''}`,
  );
}
console.log('\nthe last five to end:');
for (const row of [...rows].sort((a, b) => a.end - b.end).slice(-5)) {
  console.log(`  ${s(row.queued - t0)} → ${s(row.end - t0)}  ${row.key}`);
}
