// `npm run bench:abuse`: the server's live memory (JavaScript heap and buffers, right after a full garbage
// collection) before and after what an abusive rider tried (bench/README.md, "Abuse"): 300 HEAD requests on the
// live stream followed by 100 cart changes, and 60 streams opened from one log-in.
import { type ClientRequest, request } from 'node:http';
import { startChild } from '../test/support/child-server';
import { Client } from '../test/support/client';
import { table } from './support/stats';

const heads = Number(process.env.BENCH_HEADS ?? 300);
const cycles = Number(process.env.BENCH_CYCLES ?? 100);
const streamsTried = Number(process.env.BENCH_STREAMS ?? 60);

/** Opens a stream; resolves with the request once the server has answered (200 or a refusal). */
function openStream(url: string, cookie: string): Promise<{ status: number; req: ClientRequest }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/cart/stream`, { headers: { cookie }, agent: false }, (response) => {
      response.on('data', () => {});
      response.on('error', () => {});
      resolve({ status: response.statusCode ?? 0, req });
    });
    req.on('error', reject);
    req.end();
  });
}

const server = await startChild({ inspect: true });
try {
  const rider = new Client(server.url);
  await rider.signup();
  const rows: string[][] = [];
  const measure = async (phase: string) => {
    const memory = await server.liveMemoryMiB();
    rows.push([phase, memory.heapUsed.toFixed(1), memory.external.toFixed(1), memory.rss.toFixed(1)]);
  };
  for (let i = 0; i < 20; i++) await rider.json('GET', '/api/cart');
  await measure('start');

  for (let i = 0; i < heads; i++) await rider.raw('HEAD', '/api/cart/stream');
  for (let i = 0; i < cycles; i++) {
    const item = await rider.add('2');
    await rider.json('DELETE', `/api/cart/${item.id}`);
  }
  await measure(`after ${heads} HEAD and ${cycles} add + delete`);

  const opened = await Promise.all(
    Array.from({ length: streamsTried }, () => openStream(server.url, rider.cookieHeader)),
  );
  const accepted = opened.filter((stream) => stream.status === 200).length;
  for (let i = 0; i < cycles; i++) {
    const item = await rider.add('2');
    await rider.json('DELETE', `/api/cart/${item.id}`);
  }
  await measure(`${streamsTried} streams tried (${accepted} open), ${cycles} add + delete`);
  for (const stream of opened) stream.req.destroy();
  await new Promise((resolve) => setTimeout(resolve, 500));
  await measure('streams closed');

  console.log('\nLive memory of the server (MiB, after a full garbage collection)');
  console.log(table(['phase', 'heap', 'buffers', 'RSS'], rows));
} finally {
  await server.stop();
}
