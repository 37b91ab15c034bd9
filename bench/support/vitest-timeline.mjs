// A Vitest reporter for the suite's time (bench/README.md, "The test suite's time"): for each test file, the instants
// Vitest's main process hears that a worker began it (collection start), began its tests, and ended it, with its
// diagnostic (collection, tests and hooks) and test counts, written to $TIMELINE_OUT at the end of the run. Unlike the
// JSON reporter's startTime/endTime (first test's start to last test's end), a file's span here covers its import and
// its beforeAll/afterAll hooks, so it tells how many files were running at once. Read with bench/vitest-timeline.mjs.
//
//   TIMELINE_OUT=/tmp/timeline.json npx vitest run --reporter=default --reporter=./bench/support/vitest-timeline.mjs
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

export default class TimelineReporter {
  rows = new Map();
  t0 = Date.now();
  root = process.cwd();

  onInit(vitest) {
    this.root = vitest.config.root;
  }

  row(module) {
    const file = relative(this.root, module.moduleId);
    const key = `${module.project.name}:${file}`;
    let row = this.rows.get(key);
    if (!row) {
      row = { key, project: module.project.name, file };
      this.rows.set(key, row);
    }
    return row;
  }

  onTestRunStart() {
    this.t0 = Date.now();
  }

  onTestModuleQueued(module) {
    this.row(module).queued = Date.now();
  }

  onTestModuleCollected(module) {
    this.row(module).collected = Date.now();
  }

  onTestModuleStart(module) {
    this.row(module).start = Date.now();
  }

  onTestModuleEnd(module) {
    const row = this.row(module);
    row.end = Date.now();
    row.state = module.state();
    const d = module.diagnostic();
    row.diag = { collect: d.collectDuration, prepare: d.prepareDuration, duration: d.duration };
    let tests = 0;
    let failed = 0;
    let skipped = 0;
    for (const test of module.children.allTests()) {
      tests++;
      const state = test.result().state;
      if (state === 'failed') failed++;
      if (state === 'skipped') skipped++;
    }
    Object.assign(row, { tests, failed, skipped });
  }

  onTestRunEnd() {
    const out = process.env.TIMELINE_OUT ?? 'vitest-timeline.json';
    writeFileSync(out, JSON.stringify({ t0: this.t0, tEnd: Date.now(), rows: [...this.rows.values()] }, null, 1));
  }
}
