/**
 * `npm run test:soak`: a bounded load test of the real server (a child process on 127.0.0.1, throwaway
 * database): 60 s of mixed traffic from autocannon (pages, pictures, scripts, session checks, cart reads,
 * adds and deletes) while live cart streams stay open. It fails unless there are zero errors, every stream
 * stays open and follows its cart, and the server's live memory is flat after the warm-up. It reports the
 * server's memory after start and at the end. The figures go into docs/RELIABILITY.md.
 *
 *   npm run test:soak                       # SQLite
 *   SOAK_BACKEND=postgres npm run test:soak # PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1/test)
 *   SOAK_SECONDS=60 SOAK_CONNECTIONS=16 npm run test:soak
 *   SOAK_SECONDS=3600 SOAK_RATE=200 npm run test:soak   # the hour's soak at a stated load (requests a second in all)
 *   SOAK_SHOP=file:/path/shop.db npm run test:soak     # on a copy of a shop `npm run demo-data` made (or postgres://…)
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import autocannon, { type Request } from 'autocannon';
import { startChild } from '../test/support/child-server';
import { Client } from '../test/support/client';
import { EventStream } from '../test/support/event-stream';
import { copyOfShop, createDatabase } from '../test/support/test-database';
import { buildShopIfStale } from './support/build';

/** A big shop made before by `npm run demo-data` (bench/README.md "A big shop"): the soak runs on a copy of it. */
const shop = process.env.SOAK_SHOP;
const backend = (shop ? !shop.startsWith('file:') : process.env.SOAK_BACKEND === 'postgres') ? 'postgres' : 'sqlite';
const seconds = Math.min(Number(process.env.SOAK_SECONDS ?? 60), 3600);
/** Requests a second from all connections together; unset, each connection asks again as soon as it is answered. */
const rate = process.env.SOAK_RATE === undefined ? undefined : Number(process.env.SOAK_RATE);
const warmUpSeconds = 10;
const connections = Math.min(Number(process.env.SOAK_CONNECTIONS ?? 16), 64);
const streamCount = 16;
/**
 * Allowed growth of the server's live memory (JavaScript heap plus buffers right after a full garbage
 * collection, read through the inspector) from the end of the warm-up to the end of the run. RSS is recorded
 * too, but it rises and falls with the collector's mood (it grew by 60 MiB and fell back by 60 in one run),
 * so it cannot tell a leak from a lazy collector.
 */
const maxLiveGrowthMiB = 8;

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

async function main() {
  buildShopIfStale();
  const index = readFileSync('dist/index.html', 'utf8');
  const script = /<script[^>]*\bsrc="([^"]+)"/.exec(index)?.[1];
  if (!script) throw new Error('dist/index.html names no script');

  const database = shop ? await copyOfShop(shop) : await createDatabase(backend);
  const server = await startChild({ database, built: true, inspect: true });
  const load = [loadavg()[0] ?? 0];
  try {
    const users = await Promise.all(
      Array.from({ length: connections }, async () => {
        const client = new Client(server.url);
        await client.signup();
        return client;
      }),
    );
    const streams = await Promise.all(users.slice(0, streamCount).map((u) => EventStream.open(u)));
    for (const stream of streams) await stream.next('snapshot');

    let nextUser = 0;
    type Context = { cookie?: string; id?: string };
    const withCookie = (req: Request, context: object): Request => {
      const own = context as Context;
      own.cookie ??= users[nextUser++ % users.length]?.cookieHeader;
      return { ...req, headers: { ...req.headers, cookie: String(own.cookie) } };
    };
    const json = { 'content-type': 'application/json' };
    // One cycle per connection, again and again: browse, add an item, look at the cart, delete the item.
    const requests: Request[] = [
      { method: 'GET', path: '/home', setupRequest: withCookie },
      { method: 'GET', path: '/api/auth/session', setupRequest: withCookie },
      { method: 'GET', path: script, setupRequest: withCookie },
      { method: 'GET', path: '/api/cart', setupRequest: withCookie },
      {
        method: 'POST',
        path: '/api/cart',
        headers: json,
        body: JSON.stringify({ itemid: '4', size: 'M' }),
        setupRequest: withCookie,
        onResponse: (status, body, context) => {
          if (status === 201) (context as Context).id = JSON.parse(body).item.id;
        },
      },
      { method: 'GET', path: '/pictures/anky-bridle.svg', setupRequest: withCookie },
      { method: 'GET', path: '/api/cart', setupRequest: withCookie },
      {
        method: 'DELETE',
        path: '/api/cart/x',
        setupRequest: (req, context) => ({ ...withCookie(req, context), path: `/api/cart/${(context as Context).id}` }),
      },
      { method: 'GET', path: '/cart', setupRequest: withCookie },
    ];

    const afterStart = await server.liveMemoryMiB();
    const rss: Array<{ s: number; mib: number }> = [];
    const live: Array<{ s: number; mib: number }> = [];
    const started = Date.now();
    const at = () => Math.round((Date.now() - started) / 1000);
    // Live memory at the end of the warm-up and about twenty times after (each sample forces one full collection);
    // RSS twice as often.
    const everyMs = Math.max(15, Math.round(seconds / 20)) * 1000;
    const sampler = setInterval(() => {
      rss.push({ s: at(), mib: round(server.rssMiB()) });
      load.push(loadavg()[0] ?? 0);
    }, everyMs / 2);
    const liveSampler = setInterval(async () => {
      const s = at();
      if (s < warmUpSeconds) return;
      const usage = await server.liveMemoryMiB();
      live.push({ s, mib: round(usage.heapUsed + usage.external) });
    }, everyMs);
    const result = await autocannon({
      url: server.url,
      connections,
      duration: seconds + warmUpSeconds,
      ...(rate === undefined ? {} : { overallRate: rate }),
      requests,
      timeout: 10,
    });
    clearInterval(sampler);
    clearInterval(liveSampler);
    rss.push({ s: at(), mib: round(server.rssMiB()) });
    const end = await server.liveMemoryMiB();
    live.push({ s: at(), mib: round(end.heapUsed + end.external) });

    const events = streams.map((s) => s.events.filter((e) => e.type === 'added' || e.type === 'removed').length);
    const openStreams = streams.filter((s) => !s.closed).length;
    for (const stream of streams) stream.close();
    const afterWarmUp = live[0]?.mib ?? Number.NaN;
    const growth = round(Math.max(...live.map((l) => l.mib)) - afterWarmUp);
    const errors = result.errors + result.timeouts + result.non2xx;
    const report = {
      date: new Date().toISOString(),
      backend,
      shop: shop ? 'a copy of SOAK_SHOP' : 'new',
      machine: `${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}`,
      loadAverage1m: {
        start: round(load[0] ?? 0, 2),
        max: round(Math.max(...load), 2),
        end: round(loadavg()[0] ?? 0, 2),
      },
      seconds: seconds + warmUpSeconds,
      connections,
      overallRate: rate ?? 'as fast as answered',
      requests: result.requests.total,
      requestsPerSecond: round(result.requests.average, 0),
      latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
      errors: { errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx },
      liveStreams: {
        opened: streams.length,
        stillOpen: openStreams,
        eventsPerStream: { min: Math.min(...events), max: Math.max(...events) },
      },
      memoryAfterStartMiB: {
        rss: round(afterStart.rss),
        liveAfterGc: round(afterStart.heapUsed + afterStart.external),
      },
      memoryAtTheEndMiB: { rss: round(end.rss), liveAfterGc: round(end.heapUsed + end.external) },
      rssMiB: rss.map((r) => `${r.s}s:${r.mib}`).join(' '),
      liveMemoryAfterGcMiB: live.map((l) => `${l.s}s:${l.mib}`).join(' '),
      liveGrowthAfterWarmUpMiB: growth,
    };
    console.log(JSON.stringify(report, null, 2));
    const problems = [
      errors > 0 && `${errors} errors (${JSON.stringify(report.errors)})`,
      openStreams < streams.length && `${streams.length - openStreams} live streams closed during the run`,
      Math.min(...events) === 0 && 'a live stream saw no changes of its cart',
      !(growth < maxLiveGrowthMiB) && `live memory grew ${growth} MiB after the warm-up (limit ${maxLiveGrowthMiB})`,
    ].filter(Boolean);
    if (problems.length > 0) {
      console.error(`soak FAILED: ${problems.join('; ')}`);
      process.exitCode = 1;
    } else console.log('soak passed');
  } finally {
    await server.kill('SIGTERM');
    await database.drop();
  }
}

await main();
