// `npm run bench:floors`: each hot request of Piaffe beside its floor, a hand-written node:http server doing the
// same work with the same durability, in one run (bench/README.md). `-- --profile cart-list [--floor]` profiles instead.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { startChild } from '../test/support/child-server';
import { address, Client, orderKey } from '../test/support/client';
import { copyOfShop, postgresDatabase, stockUp, type TestDatabase } from '../test/support/test-database';
import { totalOf } from './floor-order';
import { buildShopIfStale } from './support/build';
import { summariseProfile } from './support/cpu-profile';
import { benchStock } from './support/floor-kit';
import { table } from './support/stats';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const warmUpSeconds = 2;
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
/** Which workloads to run, comma-separated (catalogue, cart-list, cart-add, order); all by default. */
const only = process.env.BENCH_WORKLOADS?.split(',');
/** Piaffe's limit of orders per rider and hour (src/shared/limits.ts). */
const ordersPerRider = 20;
/**
 * The order workload signs up riders for this many orders a second: well above both servers' rate on this machine
 * (the floor's 114 on 2 cores, bench/README.md), so a run that reaches it ends early and says so.
 */
const ordersPerSecondCeiling = Number(process.env.BENCH_ORDERS_CEILING ?? 300);
/**
 * BENCH_SHOP: a big shop made before by `npm run demo-data`, on SQLite (`file:/path`) or PostgreSQL (`postgres://…`):
 * Piaffe and each floor then run on a copy of it (with the bench's deep stock), so the ratios are those at its size;
 * unset, on new shops.
 */
const shop = process.env.BENCH_SHOP;
/**
 * What Piaffe and the floors run on: SQLite by default; PostgreSQL with BENCH_DATABASE=postgres or a BENCH_SHOP there,
 * where only the cart list and the order have floors (issue 39 §2 asks for those two on both databases).
 */
const database = ((): TestDatabase['backend'] => {
  const named = process.env.BENCH_DATABASE ?? (shop?.startsWith('postgres') ? 'postgres' : 'sqlite');
  if (named !== 'sqlite' && named !== 'postgres') throw new Error(`BENCH_DATABASE is sqlite or postgres, not ${named}`);
  if (shop && shop.startsWith('file:') !== (named === 'sqlite'))
    throw new Error(`BENCH_SHOP ${shop} is not on ${named}`);
  return named;
})();

type Target = 'floor' | 'piaffe';
type WorkloadName = 'catalogue' | 'cart-list' | 'cart-add' | 'order';

/** The latencies (ms) of one kind of request, timed from the moment autocannon writes it to its last byte. */
class Timings {
  readonly values: number[] = [];
  readonly starts: number[] = [];
  readonly since = performance.now();
  statuses = new Map<number, number>();
  /** `started` is undefined for a connection's first request, timed from before it connected: only counted. */
  record(started: number | undefined, status: number): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (started === undefined) return;
    this.values.push(performance.now() - started);
    this.starts.push(started);
  }
  /** The slowest requests: when they started (s into the run) and how long they took (ms). */
  slowest(n = 5): { at: number; ms: number }[] {
    return this.values
      .map((ms, i) => ({ at: Math.round(((this.starts[i] as number) - this.since) / 10) / 100, ms: Math.round(ms) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, n);
  }
  count(status: number): number {
    return this.statuses.get(status) ?? 0;
  }
  percentile(p: number): number {
    const sorted = Float64Array.from(this.values).sort();
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
  }
}

interface Measured {
  workload: WorkloadName;
  target: Target;
  round: number;
  /** The workload's unit per second: requests (cart list), adds (add + delete) or orders placed. */
  rate: number;
  unit: string;
  /** Every request autocannon sent, per second (for add + delete and order, two per unit). */
  requestsPerSecond: number;
  /** Of the workload's own request (the list, the add, the place). */
  p50: number;
  p99: number;
  /** The slowest of the workload's own requests, and of the other one. */
  slowest: { at: number; ms: number }[];
  otherSlowest?: { at: number; ms: number }[];
  /** The other request of the pair (delete, or the add before a place), when there is one. */
  otherP50?: number;
  otherP99?: number;
  errors: number;
  non2xx: number;
  /** How many answers of each status, by request: `{ add: { 201: n }, place: { 201: n } }`. */
  statuses: Record<string, Record<string, number>>;
  seconds: number;
  /** The measured run on the monotonic clock, µs: where a CPU profile of the server is read. */
  window: [number, number];
  loadBefore: number;
  loadAfter: number;
  note?: string;
}

interface Server {
  url: string;
  stop(): Promise<void>;
}

/**
 * The shop every server of the run starts on a copy of, so that all start equal: BENCH_SHOP; on PostgreSQL without
 * it, a new shop made for the run (a new database, migrated by Piaffe's first start on it), since a PostgreSQL floor
 * runs on Piaffe's own tables; on SQLite without it none (Piaffe and each floor make a new database of their own).
 */
async function shopToCopy(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  if (shop) return { url: shop, drop: async () => {} };
  if (database === 'sqlite') return undefined;
  const made = await postgresDatabase();
  const piaffe = await startChild({ built: true, database: made });
  await piaffe.stop();
  return made;
}

/**
 * Starts a floor (`node --import tsx bench/floor-*.ts 0 [database file or URL]`), which prints `listening <url>`: on a
 * new database of its own, or on a copy of the run's shop with the bench's deep stock.
 */
async function startFloor(file: string, basis: string | undefined, nodeArgs: string[] = []): Promise<Server> {
  const copy = basis ? await copyOfShop(basis) : undefined;
  if (copy) await stockUp(copy, benchStock);
  const where = copy ? [copy.url.replace(/^file:/, '')] : [];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', file, '0', ...where], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (line.startsWith('listening ')) done(line.slice('listening '.length));
    });
    child.once('exit', (code) => fail(new Error(`${file} exited (${code}) before listening`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      await copy?.drop();
    },
  };
}

/**
 * `count` riders signed up through the API, each from a loopback address of its own (the sign-up limit is per address);
 * `confirmed`: each also opens the link the shop e-mailed (Piaffe takes orders only from a confirmed address,
 * docs/product.md §15; the floors send no e-mail and ask for none).
 */
async function signUpMany(url: string, count: number, { confirmed = false } = {}): Promise<Client[]> {
  const riders: Client[] = [];
  for (let i = 0; i < count; i += 8) {
    const batch = Array.from({ length: Math.min(8, count - i) }, async () => {
      const rider = new Client(url);
      await (confirmed ? rider.signupConfirmed() : rider.signup());
      return rider;
    });
    riders.push(...(await Promise.all(batch)));
  }
  return riders;
}

const json = 'application/json';

/** The autocannon run under way, so that a workload can end it early. */
let running: autocannon.Instance | undefined;

/**
 * When a request is sent. autocannon prepares each connection's first request while it builds its clients, before
 * they connect (and before `running` is set): those get no time, so connecting is not counted as answering.
 */
function now(): number | undefined {
  return running ? performance.now() : undefined;
}

/**
 * One autocannon run, timed here. autocannon notices the end of a run (its duration, its amount, `stop()`) only at
 * its sampling ticks, so they come every 100 ms: the time is then right within 0.1 s.
 */
async function measure(
  run: (duration: { duration: number } | { amount: number }) => autocannon.Options,
  options: { duration: number } | { amount: number },
): Promise<{ result: autocannon.Result; seconds: number; window: [number, number] }> {
  const started = performance.now();
  const from = monotonicMicroseconds();
  const result = await new Promise<autocannon.Result>((done, fail) => {
    running = autocannon({ ...run(options), sampleInt: 100 }, (error, result) => (error ? fail(error) : done(result)));
  });
  running = undefined;
  return { result, seconds: (performance.now() - started) / 1000, window: [from, monotonicMicroseconds()] };
}

/** The monotonic clock in µs, the clock of V8's CPU profiles (a profile's startTime and its samples). */
function monotonicMicroseconds(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

function statusesOf(timings: Record<string, Timings>): Record<string, Record<string, number>> {
  return Object.fromEntries(
    Object.entries(timings).map(([name, t]) => [name, Object.fromEntries([...t.statuses].map(([s, n]) => [s, n]))]),
  );
}

/** A workload on one server: prepares its data, warms up, then measures; returns the measured run. */
type Workload = (url: string, target: Target, round: number) => Promise<Omit<Measured, 'loadBefore' | 'loadAfter'>>;

/**
 * A workload of one GET on every connection, over and over, with the headers `prepare` gives (after making what the
 * request needs on the server).
 */
function repeatedGet(
  workload: WorkloadName,
  path: string,
  unit: string,
  prepare: (url: string) => Promise<Record<string, string>>,
): Workload {
  return async (url, target, round) => {
    const headers = await prepare(url);
    let list = new Timings();
    const options = (duration: { duration: number } | { amount: number }): autocannon.Options => ({
      url: `${url}${path}`,
      connections,
      ...duration,
      requests: [
        {
          method: 'GET',
          path,
          headers,
          setupRequest: (request, context: { started?: number }) => {
            context.started = now();
            return request;
          },
          onResponse: (status, _body, context: { started?: number }) => list.record(context.started, status),
        },
      ],
    });
    await measure(options, { duration: warmUpSeconds });
    list = new Timings();
    const { result, seconds: took, window } = await measure(options, { duration: seconds });
    return {
      workload,
      target,
      round,
      rate: list.count(200) / took,
      unit,
      requestsPerSecond: result.requests.total / took,
      p50: list.percentile(50),
      p99: list.percentile(99),
      slowest: list.slowest(),
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      statuses: statusesOf({ list }),
      seconds: took,
      window,
    };
  };
}

/** (0) GET /api/catalogue, the home page's first data (open to everyone), on every connection. */
const catalogue = repeatedGet('catalogue', '/api/catalogue', 'requests/s', async () => ({}));

/** (1) GET /api/cart of one rider with 10 items, on every connection (as bench/api.ts (b)). */
const cartList = repeatedGet('cart-list', '/api/cart', 'lists/s', async (url) => {
  const rider = new Client(url);
  await rider.signup();
  for (let i = 0; i < 10; i++) await rider.add('1');
  return { cookie: rider.cookieHeader };
});

/** (2) POST /api/cart then DELETE of that row, by one rider on every connection (as bench/api.ts (c)). */
const cartAdd: Workload = async (url, target, round) => {
  const rider = new Client(url);
  await rider.signup();
  const cookie = rider.cookieHeader;
  let add = new Timings();
  let remove = new Timings();
  type Context = { started?: number; id?: string };
  const options = (duration: { duration: number } | { amount: number }): autocannon.Options => ({
    url,
    connections,
    ...duration,
    requests: [
      {
        method: 'POST',
        path: '/api/cart',
        headers: { cookie, 'content-type': json },
        body: JSON.stringify({ itemid: '2', size: '17"' }),
        setupRequest: (request, context: Context) => {
          context.started = now();
          return request;
        },
        onResponse: (status, body, context: Context) => {
          add.record(context.started, status);
          context.id = status === 201 ? JSON.parse(body).item.id : 'none';
        },
      },
      {
        method: 'DELETE',
        headers: { cookie },
        setupRequest: (request, context: Context) => {
          context.started = now();
          return { ...request, path: `/api/cart/${context.id}` };
        },
        onResponse: (status, _body, context: Context) => remove.record(context.started, status),
      },
    ],
  });
  await measure(options, { duration: warmUpSeconds });
  add = new Timings();
  remove = new Timings();
  const { result, seconds: took, window } = await measure(options, { duration: seconds });
  return {
    workload: 'cart-add',
    target,
    round,
    rate: add.count(201) / took,
    unit: 'adds/s',
    requestsPerSecond: result.requests.total / took,
    p50: add.percentile(50),
    p99: add.percentile(99),
    otherP50: remove.percentile(50),
    otherP99: remove.percentile(99),
    slowest: add.slowest(),
    otherSlowest: remove.slowest(),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statuses: statusesOf({ add, delete: remove }),
    seconds: took,
    window,
  };
};

/**
 * (3) Each connection, over and over: take a rider with an empty cart, add one item, place the order of it. A rider
 * is on one connection at a time and places at most 20 orders (Piaffe's hourly limit), so the riders are signed up
 * first, through the API, all before the warm-up: enough for `ordersPerSecondCeiling` over the warm-up and twice
 * BENCH_SECONDS. (Riders signed up after the warm-up would wait for their confirmation e-mails behind the warm-up's
 * order e-mails in Piaffe's outbox.) Should the riders' orders left run low all the same, the run ends early (and
 * says so) rather than see them run out.
 */
const order: Workload = async (url, target, round) => {
  interface Rider {
    cookie: string;
    orders: number;
  }
  const free: Rider[] = [];
  /** Orders the riders not retired may still place. */
  let capacity = 0;
  // Up to one rider per connection is in flight: while more riders than that have orders left, one is free. The
  // rest of the reserve covers the orders placed before autocannon notices a stop (0.1 s).
  const reserve = (connections + 11) * ordersPerRider;
  let stoppedEarly = false;
  let dry = 0;
  const enlist = async (count: number) => {
    for (const client of await signUpMany(url, count, { confirmed: target === 'piaffe' }))
      free.push({ cookie: client.cookieHeader, orders: 0 });
    capacity += count * ordersPerRider;
  };
  let add = new Timings();
  let place = new Timings();
  type Context = { started?: number; rider?: Rider; id?: string; total?: number };
  const spare: Rider = { cookie: '', orders: ordersPerRider };
  const options = (duration: { duration: number } | { amount: number }): autocannon.Options => ({
    url,
    connections,
    ...duration,
    requests: [
      {
        method: 'POST',
        path: '/api/cart',
        headers: { 'content-type': json },
        body: JSON.stringify({ itemid: '3', size: '8' }),
        setupRequest: (request, context: Context) => {
          if (capacity < reserve && running && !stoppedEarly) {
            stoppedEarly = true;
            running.stop();
          }
          const rider = free.shift();
          if (!rider) dry++;
          context.rider = rider ?? spare;
          context.started = now();
          return { ...request, headers: { ...request.headers, cookie: context.rider.cookie } };
        },
        onResponse: (status, body, context: Context) => {
          add.record(context.started, status);
          const item = status === 201 ? JSON.parse(body).item : undefined;
          context.id = item?.id;
          context.total = item && totalOf([item]);
        },
      },
      {
        method: 'POST',
        path: '/api/orders',
        setupRequest: (request, context: Context) => {
          context.started = now();
          const body = JSON.stringify({
            address,
            paymentMethod: 'bank-transfer',
            idempotencyKey: orderKey(),
            cartItemIds: context.id ? [context.id] : [],
            totalCents: context.total ?? 0,
          });
          return { ...request, headers: { cookie: context.rider?.cookie ?? '', 'content-type': json }, body };
        },
        onResponse: (status, _body, context: Context) => {
          place.record(context.started, status);
          const rider = context.rider;
          if (!rider || rider === spare) return;
          rider.orders++;
          capacity--;
          if (status === 201 && rider.orders < ordersPerRider) free.push(rider);
          // A failed place may leave the item in the cart: that rider is not used again.
          else capacity -= ordersPerRider - rider.orders;
        },
      },
    ],
  });
  await enlist(Math.ceil(((warmUpSeconds + 2 * seconds) * ordersPerSecondCeiling + reserve) / ordersPerRider));
  await measure(options, { duration: warmUpSeconds });
  add = new Timings();
  place = new Timings();
  dry = 0;
  stoppedEarly = false;
  const { result, seconds: took, window } = await measure(options, { duration: seconds });
  const notes = [
    ...(stoppedEarly ? [`the riders' orders ran low: measured ${took.toFixed(1)} s instead of ${seconds}`] : []),
    ...(dry > 0 ? [`no rider was free ${dry} times (a bug: there should always be one)`] : []),
  ];
  return {
    workload: 'order',
    target,
    round,
    rate: place.count(201) / took,
    unit: 'orders/s',
    requestsPerSecond: result.requests.total / took,
    p50: place.percentile(50),
    p99: place.percentile(99),
    otherP50: add.percentile(50),
    otherP99: add.percentile(99),
    slowest: place.slowest(),
    otherSlowest: add.slowest(),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statuses: statusesOf({ add, place }),
    seconds: took,
    window,
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
  };
};

/** Each workload, its floor on each database that has one, and what it measures. */
const workloads: Record<WorkloadName, { floor: { sqlite: string; postgres?: string }; run: Workload; title: string }> =
  {
    catalogue: { floor: { sqlite: 'bench/floor-catalogue.ts' }, run: catalogue, title: 'catalogue (home page)' },
    'cart-list': {
      floor: { sqlite: 'bench/floor-cart-list.ts', postgres: 'bench/floor-cart-list-pg.ts' },
      run: cartList,
      title: 'cart list, 10 items',
    },
    'cart-add': { floor: { sqlite: 'bench/floor-cart-add.ts' }, run: cartAdd, title: 'cart add (+ delete)' },
    order: {
      floor: { sqlite: 'bench/floor-order.ts', postgres: 'bench/floor-order-pg.ts' },
      run: order,
      title: 'order: add 1 + place',
    },
  };

/** The workload's floor on this run's database; a workload asked for without one there is an error. */
function floorOf(name: WorkloadName): string {
  const file = workloads[name]?.floor[database];
  if (file) return file;
  const there = (Object.keys(workloads) as WorkloadName[]).filter((n) => workloads[n].floor[database]);
  throw new Error(`no floor of ${name} on ${database}: there are ${there.join(' and ')} (BENCH_WORKLOADS)`);
}

/** The workloads of the run and their floors: those of BENCH_WORKLOADS, else every one with a floor on its database. */
const floorFiles = new Map(
  (Object.keys(workloads) as WorkloadName[])
    .filter((name) => (only ? only.includes(name) : workloads[name].floor[database] !== undefined))
    .map((name) => [name, floorOf(name)]),
);

const load = () => Number(loadavg()[0]?.toFixed(2));

/**
 * Drops the e-mails an earlier run left in Piaffe's outbox: a run measured while the server still sends the last
 * one's order e-mails (some 5,000 after an order run; the outbox sends about 10 a second to the bench's SMTP sink)
 * would measure both, and the order workload's riders would wait for their confirmations behind them. The e-mails
 * are not what is measured; the floors send none.
 */
async function outboxEmptied(piaffe: Awaited<ReturnType<typeof startPiaffe>>): Promise<void> {
  await piaffe.database.query("delete from outbox where state = 'waiting'");
}

/** Piaffe as built, on a fresh database (or a copy of the run's shop) with the floors' deep stock. */
async function startPiaffe(basis: string | undefined, nodeArgs: string[] = []) {
  const copy = basis ? await copyOfShop(basis) : undefined;
  const piaffe = await startChild({ built: true, nodeArgs, ...(copy ? { database: copy } : {}) });
  await stockUp(piaffe.database, benchStock);
  return {
    ...piaffe,
    async stop() {
      await piaffe.stop();
      await copy?.drop();
    },
  };
}

/** How the commits of the run reach the disk, as its database is set. */
async function durabilityOf(piaffe: TestDatabase): Promise<string> {
  if (database === 'sqlite') return 'SQLite synchronous=FULL';
  const [row] = await piaffe.query<{ synchronous_commit: string }>('show synchronous_commit');
  return `PostgreSQL synchronous_commit=${row?.synchronous_commit}`;
}

/** Every workload of the run on Piaffe and on its floor, each on a copy of `basis` (the run's shop) when there is one. */
async function benchmark(basis: string | undefined): Promise<void> {
  const piaffe = await startPiaffe(basis);
  const durability = await durabilityOf(piaffe.database);
  const floors = new Map<WorkloadName, Server>();
  const results: Measured[] = [];
  try {
    for (const [name, file] of floorFiles) floors.set(name, await startFloor(file, basis));
    for (let round = 1; round <= rounds; round++) {
      for (const name of floorFiles.keys()) {
        const workload = workloads[name];
        // Every other round Piaffe goes first, so a drift in the machine's load falls on both alike.
        const order: Target[] = round % 2 === 1 ? ['floor', 'piaffe'] : ['piaffe', 'floor'];
        for (const target of order) {
          const url = target === 'piaffe' ? piaffe.url : (floors.get(name) as Server).url;
          if (target === 'piaffe') await outboxEmptied(piaffe);
          const loadBefore = load();
          const measured = await workload.run(url, target, round);
          results.push({ ...measured, loadBefore, loadAfter: load() });
          process.stderr.write(
            `${name} ${target} round ${round}: ${measured.rate.toFixed(0)} ${measured.unit}, ` +
              `p50 ${measured.p50.toFixed(1)} ms, p99 ${measured.p99.toFixed(1)} ms (load ${loadBefore})\n`,
          );
        }
      }
    }
  } finally {
    for (const floor of floors.values()) await floor.stop();
    await piaffe.stop();
  }

  const f = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '' : n.toFixed(digits));
  console.log(
    `\nFloors: ${connections} connections, ${seconds} s measured after a warm-up; ${cpus().length} cores, ` +
      `Node ${process.version}; Piaffe built (dist-server/main.js), LOG_LEVEL=info, ${durability}\n`,
  );
  const rows: string[][] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const name of Object.keys(workloads) as WorkloadName[]) {
      const floor = results.find((r) => r.workload === name && r.target === 'floor' && r.round === round);
      const real = results.find((r) => r.workload === name && r.target === 'piaffe' && r.round === round);
      if (!floor || !real) continue;
      rows.push([
        `${workloads[name].title}${rounds > 1 ? ` #${round}` : ''}`,
        floor.unit,
        f(floor.rate, 0),
        f(real.rate, 0),
        `${((real.rate / floor.rate) * 100).toFixed(0)}%`,
        `${(floor.rate / real.rate).toFixed(1)}x`,
        f(floor.p50),
        f(floor.p99),
        f(real.p50),
        f(real.p99),
        String(floor.errors + floor.non2xx + real.errors + real.non2xx),
        `${floor.loadBefore}/${real.loadBefore}`,
      ]);
    }
  }
  console.log(
    table(
      [
        'workload',
        'unit',
        'floor',
        'Piaffe',
        'of floor',
        'floor/P',
        'floor p50',
        'floor p99',
        'P p50',
        'P p99',
        'bad',
        'load',
      ],
      rows,
    ),
  );
  console.log(
    "\nRates are per second; latencies in ms of the workload's own request (the list, the add, the place), " +
      "from autocannon's write to the answer's last byte. bad: errors, timeouts and non-2xx answers. " +
      "load: 1-minute load average before the floor's / Piaffe's run.",
  );
  for (const r of results) if (r.note) console.log(`note: ${r.workload} ${r.target} round ${r.round}: ${r.note}`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    'bench/results/floors.json',
    `${JSON.stringify({ date: new Date().toISOString(), database, durability, connections, seconds, cores: cpus().length, node: process.version, results }, null, 2)}\n`,
  );
}

/** Runs one workload on Piaffe (or its floor) under `--cpu-prof` and prints where its self time went. */
async function profile(name: WorkloadName, target: Target, basis: string | undefined): Promise<void> {
  const workload = workloads[name];
  if (!workload) throw new Error(`--profile takes one of ${Object.keys(workloads).join(', ')}`);
  const dir = resolve('bench/results/profiles', `${name}-${target}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const nodeArgs = ['--cpu-prof', '--cpu-prof-dir', dir];
  const server =
    target === 'piaffe' ? await startPiaffe(basis, nodeArgs) : await startFloor(floorOf(name), basis, nodeArgs);
  const loadBefore = load();
  let measured: Awaited<ReturnType<Workload>>;
  try {
    measured = await workload.run(server.url, target, 1);
  } finally {
    await server.stop();
  }
  const file = readdirSync(dir).find((entry) => entry.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile was written to ${dir}`);
  const summary = summariseProfile(join(dir, file), measured.window);
  const head =
    `Profile of ${target === 'piaffe' ? 'Piaffe' : 'its floor'} under ${workload.title}: ${measured.rate.toFixed(0)} ${measured.unit} with the profiler on, ` +
    `p50 ${measured.p50.toFixed(1)} ms, p99 ${measured.p99.toFixed(1)} ms; load average ${loadBefore} before, ${load()} after.\n`;
  console.log(`\n${head}\n${summary}`);
  writeFileSync(join('bench/results', `profile-${name}-${target}.txt`), `${head}\n${summary}\n`);
}

const at = process.argv.indexOf('--profile');
buildShopIfStale();
const basis = await shopToCopy();
try {
  const target = process.argv.includes('--floor') ? 'floor' : 'piaffe';
  if (at >= 0) await profile(process.argv[at + 1] as WorkloadName, target, basis?.url);
  else await benchmark(basis?.url);
} finally {
  await basis?.drop();
}
