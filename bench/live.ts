// `npm run bench:live`: live cart latency with 1,000 open streams over 100 users, and the memory of
// 10,000 idle streams in one server process (bench/README.md).
import { readFileSync } from 'node:fs';
import { type ClientRequest, request } from 'node:http';
import { startChild } from '../test/support/child-server';
import { Client } from '../test/support/client';
import { percentile, table } from './support/stats';

const users = Number(process.env.BENCH_USERS ?? 100);
const streamsPerUser = Number(process.env.BENCH_STREAMS_PER_USER ?? 10);
const adds = Number(process.env.BENCH_ADDS ?? 300);
const idleStreams = Number(process.env.BENCH_IDLE_STREAMS ?? 10_000);

/** The session cookies of `count` new riders, each from a client address of its own; `sessions` log-ins each. */
async function signUpMany(url: string, count: number, sessions = 1): Promise<string[]> {
  const cookies: string[] = [];
  for (let i = 0; i < count; i += 8) {
    const batch = Array.from({ length: Math.min(8, count - i) }, async () => {
      const rider = new Client(url);
      const { email } = await rider.signup();
      const all = [rider.cookieHeader];
      for (let s = 1; s < sessions; s++) {
        const device = new Client(url);
        await device.login(email, 'secret1');
        all.push(device.cookieHeader);
      }
      return all;
    });
    cookies.push(...(await Promise.all(batch)).flat());
  }
  return cookies;
}

/** Opens a stream and calls `onAdded` with the arrival time of each `added` event; resolves once the snapshot is in. */
function openStream(url: string, cookie: string, onAdded: (at: number) => void): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/cart/stream`, { headers: { cookie }, agent: false }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`stream answered ${response.statusCode}`));
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith('event: snapshot')) resolve(req);
          else if (block.startsWith('event: added')) onAdded(at);
          end = buffer.indexOf('\n\n');
        }
      });
      response.on('error', () => {});
    });
    req.on('error', reject);
    req.end();
  });
}

function rssKiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return Number(line?.[1]);
}

async function latency() {
  const server = await startChild();
  try {
    const cookies = await signUpMany(server.url, users);
    const arrivals = cookies.map(() => [] as number[]);
    const streams: ClientRequest[] = [];
    for (let u = 0; u < users; u++) {
      const opening = Array.from({ length: streamsPerUser }, () =>
        openStream(server.url, cookies[u] as string, (at) => arrivals[u]?.push(at)),
      );
      streams.push(...(await Promise.all(opening)));
    }
    const delays: number[] = [];
    for (let i = 0; i < adds; i++) {
      const u = i % users;
      const cookie = cookies[u] as string;
      arrivals[u] = [];
      const response = await fetch(`${server.url}/api/cart`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ itemid: '1', size: 'Full' }),
      });
      await response.text();
      const answered = performance.now();
      const deadline = answered + 2000;
      while ((arrivals[u]?.length ?? 0) < streamsPerUser && performance.now() < deadline) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      for (const at of arrivals[u] ?? []) delays.push(Math.max(0, at - answered));
      const missing = streamsPerUser - (arrivals[u]?.length ?? 0);
      for (let m = 0; m < missing; m++) delays.push(Number.POSITIVE_INFINITY);
    }
    for (const stream of streams) stream.destroy();
    return { streams: users * streamsPerUser, events: delays.length, delays };
  } finally {
    await server.stop();
  }
}

async function capacity() {
  const server = await startChild();
  try {
    // A log-in keeps at most 10 streams open: 100 riders with as many sessions as it takes.
    const cookies = await signUpMany(server.url, 100, Math.ceil(idleStreams / 100 / 10));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = rssKiB(server.pid);
    const streams: ClientRequest[] = [];
    for (let i = 0; i < idleStreams; i += 200) {
      const opening = Array.from({ length: Math.min(200, idleStreams - i) }, (_, j) =>
        openStream(server.url, cookies[(i + j) % cookies.length] as string, () => {}),
      );
      streams.push(...(await Promise.all(opening)));
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const after = rssKiB(server.pid);
    const health = await fetch(`${server.url}/healthz`);
    for (const stream of streams) stream.destroy();
    return { before, after, perStreamKiB: (after - before) / idleStreams, healthy: health.ok };
  } finally {
    await server.stop();
  }
}

const live = await latency();
const finite = live.delays.filter(Number.isFinite);
console.log(`\nLive updates: ${live.streams} streams over ${users} users, ${adds} adds, ${live.events} deliveries`);
console.log(
  table(
    ['p50 ms', 'p99 ms', 'max ms', 'missed'],
    [
      [
        percentile(finite, 50).toFixed(2),
        percentile(live.delays, 99).toFixed(2),
        Math.max(...finite).toFixed(2),
        String(live.delays.length - finite.length),
      ],
    ],
  ),
);
const idle = await capacity();
console.log(`\nCapacity: ${idleStreams} idle streams in one server process`);
console.log(
  table(
    ['RSS before MiB', 'RSS after MiB', 'KiB per stream', 'healthz'],
    [
      [
        (idle.before / 1024).toFixed(1),
        (idle.after / 1024).toFixed(1),
        idle.perStreamKiB.toFixed(1),
        idle.healthy ? 'ok' : 'FAILED',
      ],
    ],
  ),
);
