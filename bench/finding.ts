// `npm run bench:finding`: finding products on a shop of 10,000 products of five sizes each (`npm run demo-data`), on
// SQLite and on PostgreSQL: home's first page, a search and a category's first page, each at 50 connections, against
// the targets of docs/product.md §22 and issue 39 (search p95 ≤ 50 ms, a first page p95 ≤ 30 ms). See bench/README.md, "Finding".
import { execFileSync } from 'node:child_process';
import { authSecret, startChild } from '../test/support/child-server';
import type { Backend } from '../test/support/server';
import { createDatabase } from '../test/support/test-database';
import { buildShopIfStale } from './support/build';
import {
  type FindingWorkload,
  findingConnections,
  findingRate,
  findingTargets,
  findingUrls,
  findingWorkloads,
} from './support/finding-workloads';
import { measureLatencies } from './support/load-client';
import { table } from './support/stats';

const products = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const backends = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',') as Backend[];

buildShopIfStale();
const rows: string[][] = [];
for (const backend of backends) {
  const database = await createDatabase(backend);
  try {
    const made = performance.now();
    // Products alone, as bench/README.md's "Finding" figures were taken on: no trade to change their stock.
    const demoData = ['--products', String(products), '--riders', '0', '--orders', '0'];
    execFileSync(process.execPath, ['dist-server/demo-data-cli.js', ...demoData], {
      env: { ...process.env, DATABASE_URL: database.url, AUTH_SECRET: authSecret, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    console.log(`${backend}: ${products} products made in ${((performance.now() - made) / 1000).toFixed(0)} s`);
    const server = await startChild({ database, built: true });
    try {
      for (const name of Object.keys(findingWorkloads) as FindingWorkload[]) {
        const urls = findingUrls(server.url, name);
        // Warm-up: the JIT, the caches of the database.
        await measureLatencies({ urls, connections: findingConnections, ms: 2000 });
        for (const load of [findingRate, undefined]) {
          const m = await measureLatencies({ urls, connections: findingConnections, ms: seconds * 1000, rate: load });
          rows.push([
            backend,
            name,
            load === undefined ? 'saturated' : `${load}/s`,
            String(Math.round(m.rate)),
            m.p50.toFixed(1),
            m.p95.toFixed(1),
            m.p99.toFixed(1),
            `≤ ${findingTargets[name]}`,
            m.p95 <= findingTargets[name] ? 'yes' : 'NO',
            String(m.failed),
          ]);
        }
      }
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}
console.log(
  `\n${products} products, ${findingConnections} connections, ${seconds} s each\n${table(['database', 'workload', 'load', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'target p95', 'met', 'failed'], rows)}`,
);
