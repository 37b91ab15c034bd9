// `npm run bench:lighthouse [-- --runs 3 --without-hint --visitor-product --out bench/results/lighthouse.json]`: an
// outside judge, Lighthouse 12's default mobile run (simulated slow 4G, 4x CPU) on /home signed in as a rider, or with
// `--visitor-product` on a product's page as a visitor of a shop open to everyone (rendered on the server,
// docs/product.md §24), on the built server. Method and latest numbers: bench/README.md.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../e2e/chromium';
import { startChild } from '../test/support/child-server';
import { Client } from '../test/support/client';
import { createDatabase } from '../test/support/test-database';
import { buildShopIfStale } from './support/build';
import { chromiumVersion, machine } from './support/machine';
import { median, table } from './support/stats';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    // A rider whose browser has the session cookie but not the stored hint (src/client/lib/session-hint.ts):
    // /home then waits for the server's session answer before it loads its data.
    'without-hint': { type: 'boolean', default: false },
    // A visitor (no cookie) on the first product's page of a shop open to everyone.
    'visitor-product': { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/results/lighthouse.json' },
  },
});
const visitorProduct = args['visitor-product'];
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of at least 1.');
const withHint = !args['without-hint'];

/** Pinned: another version scores differently. Fetched by npx from the registry into its cache on first use. */
const lighthouseVersion = '12.8.2';
/** Each Lighthouse run, Chromium included, is killed after this long. */
const runTimeoutMs = 180_000;
const chromeFlags = [...chromiumLaunchOptions.args, '--headless=new'];

/** Runs a command in a process group of its own, killed whole after `timeoutMs`; resolves with its output. */
function run(command: string, argv: string[], env: NodeJS.ProcessEnv, timeoutMs: number) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn(command, argv, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-8000);
    });
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {}
      fail(new Error(`${command} ${argv.join(' ')} took longer than ${timeoutMs / 1000} s: ${stderr}`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      // Whatever it left behind (a Chromium that outlived it) goes with it.
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {}
      done({ code, stdout, stderr });
    });
  });
}

const lighthouseEnv = { ...process.env, CHROME_PATH: chromiumLaunchOptions.executablePath };
const npxLighthouse = ['--yes', `lighthouse@${lighthouseVersion}`];

/**
 * A Chromium profile of a rider signed in on `origin`: the session cookie as the shop set it and, unless
 * `--without-hint`, the hint the client stores at sign-in. Nothing of the shop's pages is loaded (its cache stays empty).
 */
async function riderProfile(dir: string, origin: string, setCookies: string[], hint: unknown): Promise<void> {
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: chromiumLaunchOptions.executablePath,
    args: chromiumLaunchOptions.args,
    headless: true,
  });
  try {
    const cookies = setCookies.map((line) => {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const equals = pair.indexOf('=');
      const attribute = (name: string) =>
        attributes.find((part) => part.toLowerCase().startsWith(`${name}=`))?.slice(name.length + 1);
      const maxAge = Number(attribute('max-age') ?? 0);
      const sameSite = attribute('samesite')?.toLowerCase();
      return {
        name: pair.slice(0, equals),
        value: pair.slice(equals + 1),
        domain: new URL(origin).hostname,
        path: attribute('path') ?? '/',
        expires: Math.floor(Date.now() / 1000) + maxAge,
        httpOnly: attributes.some((part) => part.toLowerCase() === 'httponly'),
        secure: false,
        sameSite: sameSite === 'strict' ? ('Strict' as const) : ('Lax' as const),
      };
    });
    await context.addCookies(cookies);
    if (hint) {
      // A page of the origin that never reaches the shop, only to write its localStorage.
      const page = await context.newPage();
      await page.route(`${origin}/lighthouse-profile`, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>profile</title>' }),
      );
      await page.goto(`${origin}/lighthouse-profile`, { timeout: 15_000 });
      // The key and value of src/client/lib/session-hint.ts.
      await page.evaluate((user) => localStorage.setItem('user', JSON.stringify(user)), hint);
      await page.close();
    }
  } finally {
    await context.close();
  }
}

interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  speedIndex: number;
}

interface Item {
  [key: string]: unknown;
}
interface Audit {
  id: string;
  title: string;
  score: number | null;
  displayValue?: string;
  numericValue?: number;
  metricSavings?: Record<string, number>;
  details?: { type: string; items?: Item[] };
}
interface Report {
  lighthouseVersion: string;
  finalDisplayedUrl: string;
  runWarnings: string[];
  environment: { hostUserAgent: string; benchmarkIndex: number };
  configSettings: { formFactor: string; throttlingMethod: string; throttling: Record<string, number> };
  categories: Record<string, { score: number; auditRefs: Array<{ id: string; weight: number; group?: string }> }>;
  audits: Record<string, Audit>;
}

interface RunSummary {
  figures: Figures;
  finalUrl: string;
  lcpElement: string;
  lcpPhases: Array<{ phase: string; ms: number; percent: string }>;
  bestPracticesFailures: Array<{ id: string; title: string; weight: number; items: unknown[] }>;
  cspIssues: unknown[];
  opportunities: Array<{ id: string; title: string; displayValue?: string; savings?: Record<string, number> }>;
  warnings: string[];
}

function summariseRun(report: Report, artifacts: { InspectorIssues?: Record<string, unknown[]> }): RunSummary {
  const score = (id: string) => Math.round((report.categories[id]?.score ?? Number.NaN) * 100);
  const value = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
  const lcpDetails = report.audits['largest-contentful-paint-element']?.details?.items ?? [];
  const [elementTable, phaseTable] = lcpDetails as Array<{ items?: Item[] }>;
  const node = elementTable?.items?.[0]?.node as
    | { selector?: string; nodeLabel?: string; snippet?: string }
    | undefined;
  const performanceIds = new Set(report.categories.performance?.auditRefs.map((ref) => ref.id));
  return {
    figures: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      fcp: value('first-contentful-paint'),
      lcp: value('largest-contentful-paint'),
      tbt: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'),
      speedIndex: value('speed-index'),
    },
    finalUrl: report.finalDisplayedUrl,
    lcpElement: node ? `${node.selector} ${node.snippet} "${node.nodeLabel}"` : '(none)',
    lcpPhases: (phaseTable?.items ?? []).map((item) => ({
      phase: String(item.phase),
      ms: Number(item.timing),
      percent: String(item.percent),
    })),
    bestPracticesFailures: (report.categories['best-practices']?.auditRefs ?? [])
      .filter((ref) => {
        const audit = report.audits[ref.id];
        return audit && audit.score !== null && audit.score < 1;
      })
      .map((ref) => {
        const audit = report.audits[ref.id] as Audit;
        return { id: ref.id, title: audit.title, weight: ref.weight, items: audit.details?.items ?? [] };
      }),
    // The report names the kind of issue only; what was blocked, and where, is in the gathered artifacts.
    cspIssues: artifacts.InspectorIssues?.contentSecurityPolicyIssue ?? [],
    opportunities: Object.entries(report.audits)
      .filter(
        ([id, audit]) =>
          performanceIds.has(id) &&
          audit.score !== null &&
          audit.score < 1 &&
          Object.values(audit.metricSavings ?? {}).some((ms) => ms > 0),
      )
      .map(([id, audit]) => ({
        id,
        title: audit.title,
        displayValue: audit.displayValue,
        savings: audit.metricSavings,
      })),
    warnings: report.runWarnings,
  };
}

async function lighthouseOnce(url: string, profile: string, runDir: string): Promise<RunSummary> {
  mkdirSync(runDir, { recursive: true });
  const reportPath = join(runDir, 'report.json');
  const { code, stderr } = await run(
    'npx',
    [
      ...npxLighthouse,
      url,
      '--quiet',
      '--output=json',
      `--output-path=${reportPath}`,
      // Gathers, saves the artifacts, trace and DevTools log beside the report, then audits them.
      `-GA=${join(runDir, 'artifacts')}`,
      // Storage (the cookie, the hint) is the profile's; the profile is a fresh copy, so the cache is empty.
      '--disable-storage-reset',
      '--max-wait-for-load=60000',
      `--chrome-flags=${[...chromeFlags, `--user-data-dir=${profile}`].join(' ')}`,
    ],
    lighthouseEnv,
    runTimeoutMs,
  );
  if (code !== 0) throw new Error(`lighthouse exited with ${code}: ${stderr}`);
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;
  const artifacts = JSON.parse(readFileSync(join(runDir, 'artifacts', 'artifacts.json'), 'utf8'));
  return summariseRun(report, artifacts);
}

const ms = (value: number) => String(Math.round(value));
const figureRow = (name: string, f: Figures) => [
  name,
  String(f.performance),
  String(f.accessibility),
  String(f.bestPractices),
  String(f.seo),
  ms(f.fcp),
  ms(f.lcp),
  ms(f.tbt),
  f.cls.toFixed(3),
  ms(f.speedIndex),
];

async function main() {
  const loadAverageAtStart = loadavg();
  buildShopIfStale();
  // npx fetches Lighthouse on first use: not inside a measured run's time limit.
  const version = await run('npx', [...npxLighthouse, '--version'], lighthouseEnv, 300_000);
  if (version.code !== 0) throw new Error(`npx lighthouse@${lighthouseVersion} failed: ${version.stderr}`);

  const out = resolve(args.out);
  // Beside the summary, named after it: bench/results/lighthouse/ for bench/results/lighthouse.json.
  const rawDir = join(dirname(out), basename(out, '.json'));
  if (rawDir === out) throw new Error('--out names a .json file.');
  rmSync(rawDir, { recursive: true, force: true });
  const temp = mkdtempSync(join(tmpdir(), 'piaffe-lighthouse-'));
  const database = await createDatabase();
  if (visitorProduct) {
    // A new shop (migrated by a first start), then open to everyone: its settings are read at the next start.
    await (await startChild({ database, built: true })).stop();
    const [row] = await database.query<{ document: string }>('select document from shop_settings where id = 1');
    const document = { ...JSON.parse(row?.document ?? '{}'), access: { openTo: 'everyone' } };
    await database.query('update shop_settings set document = $1 where id = 1', [JSON.stringify(document)]);
  }
  const server = await startChild({ database, built: true });
  try {
    const profile = join(temp, 'profile');
    let path = '/home';
    if (visitorProduct) {
      const [first] = await database.query<{ slug: string }>(
        'select slug from product where shown = 1 order by position, itemid limit 1',
      );
      path = `/products/${first?.slug}`;
      // A visitor's browser: nothing stored.
      mkdirSync(profile, { recursive: true });
    } else {
      const rider = new Client(server.url);
      const setCookies: string[] = [];
      // One rider, signed up and confirmed through the API (as the tests do), the shop's cookies kept as it set them.
      const signup = await rider.json('POST', '/api/auth/signup', {
        email: `lighthouse-${Date.now()}@example.com`,
        password: 'Canter-42',
      });
      if (signup.status !== 201) throw new Error(`sign-up failed: ${signup.status} ${JSON.stringify(signup.body)}`);
      setCookies.push(...signup.headers.getSetCookie());
      rider.user = signup.body.user;
      await rider.confirmEmail();
      await riderProfile(profile, server.url, setCookies, withHint ? rider.user : undefined);
    }

    const url = `${server.url}${path}`;
    console.log(
      `Lighthouse ${lighthouseVersion}, ${chromiumVersion()}, ${url} ` +
        `${visitorProduct ? 'as a visitor' : `signed in ${withHint ? 'with' : 'without'} the stored hint`}, ${runs} run(s)\n`,
    );
    const summaries: RunSummary[] = [];
    for (let index = 1; index <= runs; index++) {
      // Each run on a fresh copy of the rider's profile: the same cookie and hint, an empty cache.
      const runProfile = join(temp, `run-${index}`);
      cpSync(profile, runProfile, { recursive: true });
      const summary = await lighthouseOnce(url, runProfile, join(rawDir, `run-${index}`));
      rmSync(runProfile, { recursive: true, force: true });
      if (new URL(summary.finalUrl).pathname !== path) {
        throw new Error(`run ${index} ended on ${summary.finalUrl}, not on ${path}: the page sent the browser away.`);
      }
      summaries.push(summary);
      console.log(`run ${index}/${runs} done`);
    }

    const keys = Object.keys(summaries[0]?.figures ?? {}) as Array<keyof Figures>;
    const medians = Object.fromEntries(
      keys.map((key) => [key, median(summaries.map((summary) => summary.figures[key]))]),
    ) as unknown as Figures;
    const header = ['run', 'Perf', 'A11y', 'BP', 'SEO', 'FCP', 'LCP', 'TBT', 'CLS', 'SI'];
    console.log(`\nScores (0-100) and metrics (ms, CLS unitless), simulated slow 4G, 4x CPU:\n`);
    console.log(
      table(header, [
        ...summaries.map((summary, index) => figureRow(String(index + 1), summary.figures)),
        figureRow('median', medians),
      ]),
    );
    console.log('\nLCP element and its phases (ms):');
    for (const [index, summary] of summaries.entries()) {
      const phases = summary.lcpPhases.map((phase) => `${phase.phase} ${ms(phase.ms)} (${phase.percent})`).join(', ');
      console.log(`  ${index + 1}: ${summary.lcpElement}\n     ${phases}`);
    }
    const failures = new Map<string, RunSummary['bestPracticesFailures'][number] & { runs: number }>();
    for (const summary of summaries) {
      for (const failure of summary.bestPracticesFailures) {
        const seen = failures.get(failure.id);
        failures.set(failure.id, { ...failure, runs: (seen?.runs ?? 0) + 1 });
      }
    }
    console.log(`\nBest Practices audits that failed:${failures.size === 0 ? ' none' : ''}`);
    for (const failure of failures.values()) {
      console.log(`  ${failure.id} (weight ${failure.weight}, ${failure.runs}/${runs} runs): ${failure.title}`);
      console.log(`    ${JSON.stringify(failure.items)}`);
    }
    const cspIssues = [...new Set(summaries.flatMap((summary) => summary.cspIssues.map((i) => JSON.stringify(i))))];
    for (const issue of cspIssues) console.log(`  Content-Security-Policy issue: ${issue}`);
    console.log('\nOpportunities and insights with estimated savings (last run):');
    for (const opportunity of summaries.at(-1)?.opportunities ?? []) {
      console.log(
        `  ${opportunity.id}: ${opportunity.title} ${opportunity.displayValue ?? ''} ${JSON.stringify(opportunity.savings)}`,
      );
    }
    const warnings = [...new Set(summaries.flatMap((summary) => summary.warnings))];
    if (warnings.length > 0) console.log(`\nLighthouse's warnings: ${warnings.join(' | ')}`);

    mkdirSync(dirname(out), { recursive: true });
    const result = {
      date: new Date().toISOString(),
      machine: machine(loadAverageAtStart),
      method: {
        lighthouse: version.stdout.trim(),
        url: path,
        visitor: visitorProduct,
        hint: withHint,
        chromeFlags,
        settings: 'default (mobile, simulated throttling: slow 4G, 4x CPU)',
        runs,
      },
      median: medians,
      runs: summaries,
      raw: rawDir,
    };
    writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`\nWrote ${out} (reports, artifacts and traces under ${rawDir})`);
  } finally {
    await server.stop();
    await database.drop();
    rmSync(temp, { recursive: true, force: true });
  }
}

await main();
