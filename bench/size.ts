// `npm run bench:size`: the shop at 100 times its size (issue 39 §2), on SQLite and on PostgreSQL. Makes the big shop
// with the demo-data command (10,000 products, 50,000 riders, 200,000 orders; BENCH_PRODUCTS, BENCH_RIDERS,
// BENCH_ORDERS to shrink it), starts the built server on it and measures: its start-up, its memory after start (and
// the catalogue's share of the heap, against a new shop's), the back office's order list, and the CSV export of the
// longest range an export takes and a month's invoices ZIP while riders' requests run. BENCH_SHOP names a big shop made
// before (a DATABASE_URL filled by `npm run demo-data`; measured as it is, neither made nor dropped, and it keeps the
// owner and riders the bench signs up): a copy of one file measures a change without the fill's minutes. See
// bench/README.md, "The shop at 100 times its size".
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { firstOrderNumber } from '../src/server/db/migrations/0003-orders';
import { maxExportDays } from '../src/shared/admin';
import type { ProductPage } from '../src/shared/finding';
import { formatOrderNumber, parseOrderNumber } from '../src/shared/orders';
import { authSecret, type ChildServer, startChild } from '../test/support/child-server';
import { Client } from '../test/support/client';
import type { Backend } from '../test/support/server';
import { createDatabase, type TestDatabase } from '../test/support/test-database';
import { buildShopIfStale } from './support/build';
import {
  type FindingWorkload,
  findingConnections,
  findingLabels,
  findingRate,
  findingTargets,
  findingUrls,
  findingWorkloads,
} from './support/finding-workloads';
import { measureLatencies } from './support/load-client';
import { percentile, table } from './support/stats';

const products = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const riders = Number(process.env.BENCH_RIDERS ?? 50_000);
const orders = Number(process.env.BENCH_ORDERS ?? 200_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
/** Owners reading the order list at once; riders browsing while an export runs. */
const ownerConnections = Number(process.env.BENCH_OWNER_CONNECTIONS ?? 5);
const riderConnections = Number(process.env.BENCH_RIDER_CONNECTIONS ?? 10);
const shopUrl = process.env.BENCH_SHOP;
const backends = shopUrl
  ? [shopUrl.startsWith('postgres') ? 'postgres' : ('sqlite' as Backend)]
  : ((process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',') as Backend[]);

/** The targets of issue 39 §2, and the catalogue's budget (docs/decisions/0042-the-shop-at-size.md). */
const targets = { startMs: 5_000, listP95: 100, growthMiB: 64, othersP99: 100, catalogueMiB: 64 };

interface Measured {
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  failed: number;
}

/**
 * Each client asks its next path as soon as its last answer is read, until `done` resolves (or `ms` have passed):
 * the latencies of every request.
 */
async function measure(
  clients: readonly Client[],
  paths: readonly string[],
  done: Promise<unknown>,
): Promise<Measured> {
  const latencies: number[] = [];
  let failed = 0;
  let over = false;
  void done.then(() => {
    over = true;
  });
  let next = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (!over) {
        const path = paths[next++ % paths.length] as string;
        const started = performance.now();
        const status = await client.raw('GET', path).then(
          (reply) => reply.status,
          () => 0,
        );
        latencies.push(performance.now() - started);
        if (status !== 200) failed += 1;
      }
    }),
  );
  return {
    requests: latencies.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    failed,
  };
}

const forMs = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The child's resident memory in MiB, read every 20 ms until `done` resolves: the highest seen. */
async function peakRss(server: ChildServer, done: Promise<unknown>): Promise<number> {
  let peak = server.rssMiB();
  let over = false;
  void done.finally(() => {
    over = true;
  });
  while (!over) {
    peak = Math.max(peak, server.rssMiB());
    await forMs(20);
  }
  return Math.max(peak, server.rssMiB());
}

/** Reads a download to its end as it arrives (never whole in this process): its bytes and lines; status 0 if cut. */
async function download(client: Client, path: string): Promise<{ status: number; bytes: number; lines: number }> {
  let bytes = 0;
  let lines = 0;
  try {
    const response = await fetch(client.baseUrl + path, { headers: { cookie: client.cookieHeader } });
    const reader = response.body?.getReader();
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
      bytes += chunk.value.length;
      for (const byte of chunk.value) if (byte === 10) lines += 1;
    }
    return { status: response.status, bytes, lines };
  } catch {
    return { status: 0, bytes, lines };
  }
}

/** The built server on `database`, and the milliseconds from its spawn to its first answer of /healthz. */
async function startTimed(database: TestDatabase): Promise<{ server: ChildServer; ms: number }> {
  const started = performance.now();
  const server = await startChild({ database, built: true, inspect: true });
  for (;;) {
    const reply = await fetch(`${server.url}/healthz`).catch(() => undefined);
    if (reply?.status === 200) break;
    await forMs(5);
  }
  return { server, ms: performance.now() - started };
}

/** The memory in use after start and after a first look at home and a search, which load the catalogue. */
async function heapAfterStart(server: ChildServer): Promise<{ heapUsed: number; rss: number }> {
  for (const query of ['', '?q=bridle']) {
    const reply = await fetch(`${server.url}/api/products${query}`);
    if (reply.status !== 200) throw new Error(`/api/products${query} answered ${reply.status}`);
    await reply.arrayBuffer();
  }
  return server.liveMemoryMiB();
}

/** A rider with a cart of three rows, signed up on `server`: sizes in stock (the demo's trade sold some out). */
async function rider(server: ChildServer): Promise<Client> {
  const client = new Client(server.url);
  await client.signupConfirmed();
  const reply = await fetch(`${server.url}/api/products?instock=1`);
  const { products } = (await reply.json()) as ProductPage;
  for (const product of products.slice(0, 3)) {
    const size = product.sizes.find((s) => s.stock > 0);
    if (size) await client.add(product.itemid, size.size);
  }
  return client;
}

/** A shop made before, at `url`: the server is started on it as it is, and it is never dropped. */
function madeBefore(backend: Backend, url: string): TestDatabase {
  const notHere = () => Promise.reject(new Error('a shop made before is only served, never queried by the bench'));
  return { backend, url, query: notHere, tables: notHere, drop: async () => {} };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const mib = (value: number) => value.toFixed(1);
const ms = (value: number) => value.toFixed(1);
const met = (ok: boolean) => (ok ? 'yes' : 'NO');

buildShopIfStale();
const load = loadavg();
const rows: string[][] = [];
for (const backend of backends) {
  // A new shop's heap: what the catalogue of the big one is measured against.
  const empty = await createDatabase(backend);
  let emptyHeap: number;
  try {
    const { server } = await startTimed(empty);
    emptyHeap = (await heapAfterStart(server)).heapUsed;
    await server.stop();
  } finally {
    await empty.drop();
  }

  const database = shopUrl ? madeBefore(backend, shopUrl) : await createDatabase(backend);
  try {
    if (!shopUrl) {
      const made = performance.now();
      const size = ['--products', products, '--riders', riders, '--orders', orders].map(String);
      execFileSync(process.execPath, ['dist-server/demo-data-cli.js', ...size], {
        env: { ...process.env, DATABASE_URL: database.url, AUTH_SECRET: authSecret, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      console.log(`${backend}: the big shop made in ${((performance.now() - made) / 1000).toFixed(0)} s`);
    }

    const { server, ms: startMs } = await startTimed(database);
    try {
      const afterStart = await heapAfterStart(server);
      const catalogueMiB = afterStart.heapUsed - emptyHeap;
      rows.push([
        backend,
        'start-up (to /healthz)',
        `${ms(startMs)} ms`,
        `≤ ${targets.startMs} ms`,
        met(startMs <= targets.startMs),
      ]);
      rows.push([
        backend,
        'memory after start',
        `RSS ${mib(afterStart.rss)}, heap ${mib(afterStart.heapUsed)} MiB`,
        '(written down)',
        '',
      ]);
      rows.push([
        backend,
        `catalogue of ${products} products (heap − new shop's)`,
        `${mib(catalogueMiB)} MiB`,
        `≤ ${targets.catalogueMiB} MiB`,
        met(catalogueMiB <= targets.catalogueMiB),
      ]);

      const owners = Array.from({ length: ownerConnections }, () => new Client(server.url));
      const [owner] = owners as [Client];
      const { email } = await owner.signupConfirmed();
      execFileSync(process.execPath, ['dist-server/owner-cli.js', 'add', email], {
        env: { ...process.env, DATABASE_URL: database.url, AUTH_SECRET: authSecret, LOG_LEVEL: 'warn' },
      });
      for (const other of owners.slice(1)) other.cookies = new Map(owner.cookies);
      // A page in the middle of the list: its key halfway between the first order number and the newest.
      const first = await owner.json('GET', '/api/admin/orders');
      const newest = parseOrderNumber(first.body.orders[0]?.number ?? '') ?? firstOrderNumber;
      const middle = Math.round((firstOrderNumber + newest) / 2);
      const lists = {
        'order list, first page': ['/api/admin/orders'],
        [`order list, the page before ${formatOrderNumber(middle)} of ${formatOrderNumber(newest)}`]: [
          `/api/admin/orders?before=${middle}`,
        ],
        'order list by status': ['placed', 'paid', 'shipped', 'cancelled'].map((s) => `/api/admin/orders?status=${s}`),
      };
      for (const [name, paths] of Object.entries(lists)) {
        await measure(owners, paths, forMs(2000)); // warm-up: the JIT, the database's caches
        const m = await measure(owners, paths, forMs(seconds * 1000));
        rows.push([
          backend,
          `${name} (${ownerConnections} conns)`,
          `p50 ${ms(m.p50)}, p95 ${ms(m.p95)} ms, ${Math.round(m.requests / seconds)}/s, ${m.failed} failed`,
          `p95 ≤ ${targets.listP95} ms`,
          met(m.p95 <= targets.listP95 && m.failed === 0),
        ]);
      }

      // Finding products in the big shop, as bench:finding measures it in a shop of products alone.
      for (const name of Object.keys(findingWorkloads) as FindingWorkload[]) {
        const urls = findingUrls(server.url, name);
        await measureLatencies({ urls, connections: findingConnections, ms: 2000 }); // warm-up
        const m = await measureLatencies({
          urls,
          connections: findingConnections,
          ms: seconds * 1000,
          rate: findingRate,
        });
        rows.push([
          backend,
          `${findingLabels[name]} at ${findingRate}/s (${findingConnections} conns)`,
          `p50 ${ms(m.p50)}, p95 ${ms(m.p95)} ms, ${m.failed} failed`,
          `p95 ≤ ${findingTargets[name]} ms`,
          met(m.p95 <= findingTargets[name] && m.failed === 0),
        ]);
      }

      // What a signed-in rider's browser gets first: home's HTML with its data (the first page, the catalogue's version).
      const reader = await rider(server);
      const home = {
        urls: [`${server.url}/home`],
        connections: findingConnections,
        headers: { cookie: reader.cookieHeader },
      };
      await measureLatencies({ ...home, ms: 2000 }); // warm-up
      const page = await measureLatencies({ ...home, ms: seconds * 1000, rate: findingRate });
      rows.push([
        backend,
        `a rider's /home page, signed in, at ${findingRate}/s (${findingConnections} conns)`,
        `p50 ${ms(page.p50)}, p95 ${ms(page.p95)} ms, ${page.failed} failed`,
        `p95 ≤ ${findingTargets.home} ms`,
        met(page.p95 <= findingTargets.home && page.failed === 0),
      ]);

      // Riders' requests beside each download: the cart list and home's first page.
      const browsing = await Promise.all(Array.from({ length: riderConnections }, () => rider(server)));
      const riderPaths = ['/api/cart', '/api/products'];
      const alone = await measure(browsing, riderPaths, forMs(seconds * 1000));
      rows.push([
        backend,
        `riders alone (${riderConnections} conns)`,
        `p50 ${ms(alone.p50)}, p99 ${ms(alone.p99)} ms`,
        '(for scale)',
        '',
      ]);
      const months: string[] = (await owner.json('GET', '/api/admin/invoices')).body.months;
      const month = months[1] ?? months[0] ?? day(0).slice(0, 7);
      const downloads = {
        [`CSV export, ${maxExportDays} days`]: `/api/admin/orders.csv?from=${day(1 - maxExportDays)}&to=${day(0)}`,
        [`invoices ZIP of ${month}`]: `/api/admin/invoices.zip?month=${month}`,
      };
      for (const [name, path] of Object.entries(downloads)) {
        await forMs(1000);
        const before = server.rssMiB();
        const started = performance.now();
        const file = download(owner, path);
        const [peak, others, got] = await Promise.all([
          peakRss(server, file),
          measure(browsing, riderPaths, file),
          file,
        ]);
        const took = (performance.now() - started) / 1000;
        const growth = peak - before;
        rows.push([
          backend,
          `${name}: ${(got.bytes / 1024 / 1024).toFixed(1)} MiB, ${got.lines} lines in ${took.toFixed(1)} s`,
          `RSS +${mib(growth)} MiB; riders' p99 ${ms(others.p99)} ms (${others.requests} requests)`,
          `≤ ${targets.growthMiB} MiB; p99 ≤ ${targets.othersP99} ms`,
          met(got.status === 200 && growth <= targets.growthMiB && others.p99 <= targets.othersP99),
        ]);
      }
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}
const loadAverage = (values: number[]) => values.map((value) => value.toFixed(1)).join(' ');
console.log(
  `\n${products} products, ${riders} riders, ${orders} orders; ${seconds} s a list; load average ${loadAverage(load)} at start, ${loadAverage(loadavg())} at the end\n${table(['database', 'what', 'measured', 'target', 'met'], rows)}`,
);
