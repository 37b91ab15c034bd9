// `npm run bench:crawlers`: what crawlers read of a shop of 10,000 products of five sizes each (`npm run demo-data`)
// open to everyone (docs/product.md §24), on SQLite and on PostgreSQL: the sitemap and Google's feed (time to the first
// byte and to the last, size as sent plain and gzipped, the server's resident memory while four are read at once),
// and a visitor's product page rendered on the server at 100 req/s and saturated (the same 500 addresses in turn, which
// the server keeps rendered, and addresses asked once each, rendered at each request), beside the same page with its
// head and data but an empty root (the server of a build without its rendering: the page before issue 52's first
// item) and the same page of the same shop members-only (the static shell, no data, no head), in the same run. See
// bench/README.md, "Crawlers".
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { authSecret, type ChildServer, startChild } from '../test/support/child-server';
import type { Backend } from '../test/support/server';
import { createDatabase, type TestDatabase } from '../test/support/test-database';
import { buildShopIfStale } from './support/build';
import { measureLatencies } from './support/load-client';
import { median, table } from './support/stats';

const products = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const backends = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',') as Backend[];
const rounds = 5;

async function setOpenTo(database: TestDatabase, openTo: 'members' | 'everyone'): Promise<void> {
  const [row] = await database.query<{ document: string }>('select document from shop_settings where id = 1');
  const document = JSON.parse(row?.document ?? '{}');
  document.access = { openTo };
  await database.query('update shop_settings set document = $1 where id = 1', [JSON.stringify(document)]);
}

/** One full read: ms to the first byte, ms to the last, bytes as sent (node:http, which never gunzips). */
function download(url: string, gzip: boolean): Promise<{ first: number; total: number; bytes: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = get(url, { headers: { 'accept-encoding': gzip ? 'gzip' : 'identity' } }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode}`));
      let first = 0;
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        if (!first) first = performance.now() - started;
        bytes += chunk.byteLength;
      });
      response.on('end', () => resolve({ first, total: performance.now() - started, bytes }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** The server's highest resident memory while `work` runs, sampled every 10 ms, and its memory before. */
async function peakRss(server: ChildServer, work: () => Promise<unknown>): Promise<{ before: number; peak: number }> {
  const before = server.rssMiB();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, server.rssMiB());
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return { before, peak: Math.max(peak, server.rssMiB()) };
}

/** The CPU time the process `pid` has used so far, in ms (user and system, from /proc: robust to a loaded machine). */
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
function cpuMs(pid: number): number {
  // After "pid (name) ", utime and stime are the 12th and 13th fields (proc(5)'s 14th and 15th).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

buildShopIfStale();
// The same build without its rendering (dist/.ssr): the server then sends the public pages with an empty root.
const unrendered = mkdtempSync(join(tmpdir(), 'piaffe-bench-unrendered-'));
cpSync(resolve('dist'), unrendered, { recursive: true, filter: (path) => !path.includes(`${sep}.ssr`) });
const shops = [
  { name: 'open: rendered on the server', openTo: 'everyone', env: {} },
  { name: 'open: head and data, empty root', openTo: 'everyone', env: { DIST_DIR: unrendered } },
  { name: 'members only: the shell', openTo: 'members', env: {} },
] as const;
const documents: string[][] = [];
const pagesRows: string[][] = [];
for (const backend of backends) {
  const database = await createDatabase(backend);
  try {
    const made = performance.now();
    const demoData = ['--products', String(products), '--riders', '0', '--orders', '0'];
    execFileSync(process.execPath, ['dist-server/demo-data-cli.js', ...demoData], {
      env: { ...process.env, DATABASE_URL: database.url, AUTH_SECRET: authSecret, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    console.log(`${backend}: ${products} products made in ${((performance.now() - made) / 1000).toFixed(0)} s`);
    const slugs = (await database.query<{ slug: string }>('select slug from product where shown = 1')).map(
      (row) => row.slug,
    );
    for (const shop of shops) {
      await setOpenTo(database, shop.openTo);
      const server = await startChild({ database, built: true, env: shop.env });
      try {
        if (shop === shops[0]) {
          for (const path of ['/sitemap.xml', '/feeds/google.xml']) {
            const url = `${server.url}${path}`;
            await download(url, true); // warm-up
            for (const gzip of [false, true]) {
              const runs = [];
              for (let i = 0; i < rounds; i++) runs.push(await download(url, gzip));
              documents.push([
                backend,
                path,
                gzip ? 'gzip' : 'plain',
                (runs[0]?.bytes ?? 0).toLocaleString('en'),
                median(runs.map((r) => r.first)).toFixed(1),
                median(runs.map((r) => r.total)).toFixed(0),
                '',
              ]);
            }
            const memory = await peakRss(server, () =>
              Promise.all(Array.from({ length: 4 }, () => download(url, false))),
            );
            documents.push([
              backend,
              path,
              '4 at once, plain',
              '',
              '',
              '',
              `${memory.before.toFixed(0)} → ${memory.peak.toFixed(0)}`,
            ]);
          }
        }
        const urlsOf = (some: string[]) => some.map((slug) => `${server.url}/products/${slug}`);
        const urls = urlsOf(slugs.slice(0, 500));
        // Each of them once, 10 at a time: the server warm, and those 500 pages rendered and kept.
        for (let i = 0; i < urls.length; i += 10) {
          await Promise.all(urls.slice(i, i + 10).map(async (url) => (await fetch(url)).arrayBuffer()));
        }
        const runs = [
          { addresses: '500 in turn', rate: 100, urls },
          { addresses: '500 in turn', rate: undefined, urls },
          // Addresses no run has asked before: each rendered at its request (the saturated run wraps round after 8,500).
          ...(shop === shops[0]
            ? [
                { addresses: 'each once', rate: 100, urls: urlsOf(slugs.slice(500, 1500)) },
                { addresses: 'each once', rate: undefined, urls: urlsOf(slugs.slice(1500)) },
              ]
            : []),
        ];
        for (const run of runs) {
          const cpuBefore = cpuMs(server.pid);
          const m = await measureLatencies({ urls: run.urls, connections: 10, ms: seconds * 1000, rate: run.rate });
          const cpuPerPage = (cpuMs(server.pid) - cpuBefore) / m.requests;
          pagesRows.push([
            backend,
            shop.name,
            run.addresses,
            run.rate === undefined ? 'saturated' : `${run.rate}/s`,
            String(Math.round(m.rate)),
            m.p50.toFixed(1),
            m.p95.toFixed(1),
            m.p99.toFixed(1),
            String(m.failed),
            cpuPerPage.toFixed(2),
          ]);
        }
      } finally {
        await server.stop();
      }
    }
  } finally {
    await database.drop();
  }
}
rmSync(unrendered, { recursive: true, force: true });
console.log(
  `\n${products} products: the sitemap and the feed (median of ${rounds} reads, one at a time)\n${table(['database', 'document', 'encoding', 'bytes as sent', 'first byte ms', 'last byte ms', 'server RSS MiB'], documents)}`,
);
console.log(
  `\nA visitor's product page, 10 connections, ${seconds} s each\n${table(['database', 'shop', 'addresses', 'load', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'failed', 'server CPU ms a page'], pagesRows)}\n(load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`,
);
