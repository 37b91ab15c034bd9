// `npm run bench:api`: Piaffe's API beside a bare node:http server, in one run, as ratios (bench/README.md).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { startChild } from '../test/support/child-server';
import { buildIfNeeded } from './support/build';
import { table } from './support/stats';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);

interface Result {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function run(name: string, options: autocannon.Options): Promise<Result> {
  // A short warm-up lets the JIT and the database caches settle before the measured run.
  await autocannon({ ...options, connections, duration: 2 });
  const result = await autocannon({ ...options, connections, duration: seconds });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

async function startBare(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // The bare server prints `ready` once listening; ask the OS which port it took.
  await once(child.stdout, 'data');
  const port = await new Promise<number>((resolve, reject) => {
    const lsof = spawn('ss', ['-Hltnp']);
    let out = '';
    lsof.stdout.on('data', (chunk) => (out += chunk));
    lsof.on('close', () => {
      const line = out.split('\n').find((l) => l.includes(`pid=${child.pid},`));
      const port = Number(line?.match(/127\.0\.0\.1:(\d+)/)?.[1]);
      Number.isInteger(port) ? resolve(port) : reject(new Error('bare server port not found'));
    });
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

async function signUp(url: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${Date.now()}@example.com`, password: 'secret1' }),
  });
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

buildIfNeeded('dist');
const bare = await startBare();
const piaffe = await startChild();
try {
  const cookie = await signUp(piaffe.url);
  const json = { cookie, 'content-type': 'application/json' };
  for (let i = 0; i < 10; i++) {
    await fetch(`${piaffe.url}/api/cart`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ itemid: '1', size: 'Full' }),
    });
  }

  const results = [
    await run('(a) bare node:http JSON', { url: bare.url }),
    await run('(b) cart list, 10 items', { url: `${piaffe.url}/api/cart`, headers: { cookie } }),
    await run('(c) cart add + delete', {
      url: piaffe.url,
      requests: [
        {
          method: 'POST',
          path: '/api/cart',
          headers: json,
          body: JSON.stringify({ itemid: '2', size: '17"' }),
          onResponse: (_status, body, context: { id?: string }) => {
            context.id = JSON.parse(body).item.id;
          },
        },
        {
          method: 'DELETE',
          headers: { cookie },
          setupRequest: (request, context: { id?: string }) => ({ ...request, path: `/api/cart/${context.id}` }),
        },
      ],
    }),
    await run('(d) /home HTML', { url: `${piaffe.url}/home`, headers: { 'accept-encoding': 'gzip' } }),
  ];

  const reference = results[0]?.requestsPerSecond ?? 1;
  console.log(
    `\nAPI, ${connections} connections, ${seconds} s each (after 2 s warm-up); ${cpus().length} cores, ` +
      `Node ${process.version}, load average before ${loadavg()[0]?.toFixed(2)}\n`,
  );
  console.log(
    table(
      ['what', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'of (a)'],
      results.map((r) => [
        r.name,
        r.requestsPerSecond.toFixed(0),
        String(r.p50),
        String(r.p99),
        String(r.errors),
        String(r.non2xx),
        `${((r.requestsPerSecond / reference) * 100).toFixed(0)}%`,
      ]),
    ),
  );
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    'bench/results/api.json',
    `${JSON.stringify({ date: new Date().toISOString(), connections, seconds, results }, null, 2)}\n`,
  );
} finally {
  bare.stop();
  await piaffe.stop();
}
