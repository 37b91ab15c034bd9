// `npm run bench:hashing`: the cart list's p99 while idle and during a burst of log-ins, in one run. Password
// hashing (scrypt) runs on libuv's thread pool, so it should not stall the event loop (bench/README.md).
import autocannon from 'autocannon';
import { startChild } from '../test/support/child-server';
import { Client } from '../test/support/client';
import { table } from './support/stats';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const loginConcurrency = Number(process.env.BENCH_LOGIN_CONCURRENCY ?? 8);

const server = await startChild();
try {
  // One rider lists the cart; another logs in over and over, from their own address.
  const lister = new Client(server.url);
  await lister.signup();
  for (let i = 0; i < 10; i++) await lister.add('4');
  const cookie = lister.cookieHeader;
  const { email } = await new Client(server.url).signup();
  const loginClient = new Client(server.url);
  const cartList = () =>
    autocannon({ url: `${server.url}/api/cart`, headers: { cookie }, connections, duration: seconds });
  await autocannon({ url: `${server.url}/api/cart`, headers: { cookie }, connections, duration: 2 });
  const idle = await cartList();

  // Successful log-ins (a wrong password would soon be throttled): each one hashes the password once.
  let logins = 0;
  let burst = true;
  const loginLoop = async () => {
    while (burst) {
      const response = await loginClient.login(email, 'secret1');
      if (response.status === 200) logins++;
    }
  };
  const loops = Array.from({ length: loginConcurrency }, loginLoop);
  const busy = await cartList();
  burst = false;
  await Promise.all(loops);

  console.log(
    `\nCart list (${connections} connections, ${seconds} s) idle and during ${loginConcurrency} parallel log-in loops`,
  );
  console.log(
    table(
      ['phase', 'req/s', 'p50 ms', 'p99 ms', 'log-ins/s'],
      [
        ['idle', idle.requests.average.toFixed(0), String(idle.latency.p50), String(idle.latency.p99), '0'],
        [
          'log-in burst',
          busy.requests.average.toFixed(0),
          String(busy.latency.p50),
          String(busy.latency.p99),
          (logins / seconds).toFixed(0),
        ],
      ],
    ),
  );
  console.log(`p99 ratio burst/idle: ${(busy.latency.p99 / Math.max(idle.latency.p99, 1)).toFixed(2)} (target <= 2)`);
} finally {
  await server.stop();
}
