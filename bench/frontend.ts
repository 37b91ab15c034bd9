import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Browser, chromium, expect, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../e2e/chromium';
import { formatTable, kb, routeSizes } from '../scripts/check-budget';
import { riderWithItems, type StorageState } from '../scripts/first-load';
import { startChild } from '../test/support/child-server';
import { buildIfNeeded } from './support/build';
import { machine } from './support/machine';
import { type PageMetrics, readMetrics, recordMetrics } from './support/page-metrics';
import { median, table, worst } from './support/stats';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    dist: { type: 'string', default: 'dist' },
    // Another build (e.g. of the previous commit, built with --manifest) measured in the same run, interleaved.
    baseline: { type: 'string' },
    'baseline-name': { type: 'string', default: 'baseline' },
    out: { type: 'string', default: 'bench/results/frontend.json' },
  },
});
const runs = Number(args.runs);
const distDir = resolve(args.dist);
const cpuSlowdown = 4;
/** Time left after a page looks complete, for late long tasks and shifts to be recorded. */
const settleMs = 1000;

/** The floor: a static page with one heading and one paragraph, no script, same browser and throttling. */
async function startFloorPage(): Promise<{ url: string; close(): Promise<void> }> {
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Floor</title>' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
    '<body><h1>Our collection</h1><p>A static page: no script, no style sheet, no pictures.</p></body></html>';
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    response.end(html);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('The floor page has no port.');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

interface Scenario {
  name: string;
  /** Which build: '' for the one under test, 'baseline' for --baseline. */
  build: string;
  url: string;
  /** The signed-in rider's cookies and session hint; none for a visitor. */
  state?: StorageState;
  /** Resolves once the page shows what a person came for. */
  ready(page: Page): Promise<void>;
}

async function measureOnce(browser: Browser, scenario: Scenario) {
  // A new context has an empty HTTP cache: every run is a first visit (with the session, when signed in).
  const context = await browser.newContext(scenario.state ? { storageState: scenario.state } : {});
  try {
    await recordMetrics(context);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    await page.goto(scenario.url, { waitUntil: 'load' });
    await scenario.ready(page);
    await page.waitForTimeout(settleMs);
    if (new URL(page.url()).pathname !== new URL(scenario.url).pathname) {
      throw new Error(`${scenario.name} ended on ${page.url()}, not on its own page.`);
    }
    return await readMetrics(page);
  } finally {
    await context.close();
  }
}

interface Summary {
  name: string;
  runs: PageMetrics[];
  median: Pick<PageMetrics, 'lcp' | 'fcp' | 'tbt' | 'tbtToIdle' | 'longTaskMs' | 'cls' | 'load' | 'jsTransferBytes'>;
  worst: Pick<PageMetrics, 'lcp' | 'fcp' | 'tbt' | 'tbtToIdle' | 'longTaskMs' | 'cls' | 'load' | 'jsTransferBytes'>;
  lcpElements: string[];
  shiftSources: string[];
}

function summarise(name: string, measured: PageMetrics[]): Summary {
  const keys = ['lcp', 'fcp', 'tbt', 'tbtToIdle', 'longTaskMs', 'cls', 'load', 'jsTransferBytes'] as const;
  const pick = (statistic: (values: number[]) => number) =>
    Object.fromEntries(keys.map((key) => [key, statistic(measured.map((run) => run[key]))])) as Summary['median'];
  return {
    name,
    runs: measured,
    median: pick(median),
    worst: pick(worst),
    lcpElements: [...new Set(measured.map((run) => run.lcpElement))],
    shiftSources: [...new Set(measured.flatMap((run) => run.shiftSources))],
  };
}

/** The routes of one build, on its own server with its own rider. */
async function buildScenarios(browser: Browser, build: string, baseUrl: string): Promise<Scenario[]> {
  const state = await riderWithItems(browser, baseUrl, ['Anky Bridle', 'Fellmore Bridle']);
  const prefix = build ? `${build} ` : '';
  return [
    {
      name: `${prefix}/signup-login`,
      build,
      url: `${baseUrl}/signup-login`,
      ready: (page) => expect(page.getByRole('form', { name: 'Sign up' })).toBeVisible(),
    },
    {
      name: `${prefix}/home`,
      build,
      url: `${baseUrl}/home`,
      state,
      ready: async (page) => {
        await expect(page.getByRole('heading', { level: 1, name: 'Our collection' })).toBeVisible();
        await page.waitForFunction(() => [...document.images].every((image) => image.complete));
      },
    },
    {
      name: `${prefix}/cart`,
      build,
      url: `${baseUrl}/cart`,
      state,
      ready: (page) =>
        expect(page.getByRole('table', { name: 'Your cart' }).getByRole('button', { name: /^Delete / })).toHaveCount(2),
    },
  ];
}

async function main() {
  const loadAverageAtStart = loadavg();
  buildIfNeeded(distDir);
  const baselineDir = args.baseline ? resolve(args.baseline) : undefined;
  if (baselineDir) buildIfNeeded(baselineDir);
  const builds = [
    { build: '', dir: distDir },
    ...(baselineDir ? [{ build: args['baseline-name'], dir: baselineDir }] : []),
  ];
  const sizes = builds.map(({ build, dir }) => ({ build, dir, routes: routeSizes(dir) }));
  for (const { dir, routes } of sizes) {
    console.log(`What each route's modules import statically, by the build manifest, gzip (${dir}):\n`);
    console.log(`${formatTable(routes)}\n`);
  }

  const servers = await Promise.all(builds.map(({ dir }) => startChild({ env: { DIST_DIR: dir } })));
  const floor = await startFloorPage();
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const scenarios: Scenario[] = [{ name: 'floor (static page)', build: '', url: floor.url, ready: async () => {} }];
    for (const [index, { build }] of builds.entries()) {
      scenarios.push(...(await buildScenarios(browser, build, servers[index]?.url ?? '')));
    }
    const measured = new Map<string, PageMetrics[]>(scenarios.map((scenario) => [scenario.name, []]));
    // Round-robin, so that a busy moment on the machine spreads over every route instead of one.
    for (let run = 1; run <= runs; run++) {
      for (const scenario of scenarios) {
        const metrics = await measureOnce(browser, scenario);
        measured.get(scenario.name)?.push(metrics);
      }
      console.log(`run ${run}/${runs} done`);
    }
    console.log();

    const summaries = scenarios.map((scenario) => summarise(scenario.name, measured.get(scenario.name) ?? []));
    const ms = (value: number) => String(Math.round(value));
    console.log(
      `Page metrics, CPU slowed ${cpuSlowdown}x, cold cache, ${runs} runs (median / worst), ms except CLS:\n`,
    );
    console.log(
      table(
        [
          'page',
          'LCP',
          'LCP worst',
          'FCP',
          'TBT',
          'TBT worst',
          'TBT to idle',
          'long tasks',
          'CLS',
          'CLS worst',
          'load',
          'JS KB wire',
          'LCP element',
        ],
        summaries.map((summary) => [
          summary.name,
          ms(summary.median.lcp),
          ms(summary.worst.lcp),
          ms(summary.median.fcp),
          ms(summary.median.tbt),
          ms(summary.worst.tbt),
          ms(summary.median.tbtToIdle),
          ms(summary.median.longTaskMs),
          summary.median.cls.toFixed(3),
          summary.worst.cls.toFixed(3),
          ms(summary.median.load),
          kb(summary.median.jsTransferBytes),
          summary.lcpElements.join(' | '),
        ]),
      ),
    );
    for (const summary of summaries.filter((entry) => entry.shiftSources.length > 0)) {
      console.log(`\nLayout shifts on ${summary.name}: ${summary.shiftSources.join(', ')}`);
    }

    const out = resolve(args.out);
    mkdirSync(dirname(out), { recursive: true });
    const result = {
      date: new Date().toISOString(),
      machine: machine(loadAverageAtStart),
      method: { cpuSlowdown, runs, settleMs, viewport: '1280x720', network: 'loopback, unthrottled' },
      sizes,
      pages: summaries,
    };
    writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`\nWrote ${out}`);
  } finally {
    await browser.close();
    await floor.close();
    await Promise.all(servers.map((server) => server.stop()));
  }
}

await main();
