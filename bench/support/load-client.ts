// The benches' HTTP client for latency at a number of connections: either each connection asks again as soon as its
// last answer is read (the server's most, "saturated"), or the connections share a stated rate of requests a second
// (latency at a load, measured from when each request was due, so a slow answer is not hidden by the requests it
// delays).
import { percentile } from './stats';

export interface Latencies {
  requests: number;
  /** Requests a second over the measured time. */
  rate: number;
  p50: number;
  p95: number;
  p99: number;
  /** Answers that were not 200. */
  failed: number;
}

export interface LoadOptions {
  /** The addresses asked in turn. */
  urls: readonly string[];
  connections: number;
  ms: number;
  /** Requests a second shared by the connections; without it each connection asks as fast as it is answered. */
  rate?: number;
  headers?: Record<string, string>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureLatencies({ urls, connections, ms, rate, headers }: LoadOptions): Promise<Latencies> {
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const started = performance.now();
  const until = started + ms;
  // At a rate, connection c asks at started + (c + k * connections) / rate seconds, k = 0, 1, ...
  const interval = rate === undefined ? 0 : (1000 * connections) / rate;
  await Promise.all(
    Array.from({ length: connections }, async (_, connection) => {
      for (let k = 0; ; k++) {
        const due = rate === undefined ? performance.now() : started + (connection * 1000) / rate + k * interval;
        if (due >= until) return;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        const response = await fetch(urls[next++ % urls.length] as string, headers ? { headers } : {});
        await response.arrayBuffer();
        latencies.push(performance.now() - due);
        if (response.status !== 200) failed += 1;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rate: latencies.length / ((performance.now() - started) / 1000),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    failed,
  };
}
