import { setFlagsFromString } from 'node:v8';
import { ConfigError, loadConfig } from './config';
import { startServer } from './server';

// The heap grows by a fifth of its live size before a full collection, not up to four times it (V8's default on a
// machine with memory to spare): the garbage of a year's CSV export or a month's invoices ZIP at 200,000 orders took
// the server 170 and 94 MiB up, within 64 MiB now, at no cost a rider sees. V8 reads it at each collection
// (docs/decisions/0047-the-heap-s-growth.md).
setFlagsFromString('--heap-growing-percent=20');

/** A setting or the database that makes starting impossible is said in one line, and the exit code is 1. */
function fail(message: string): never {
  process.stderr.write(`piaffe: ${message}\n`);
  process.exit(1);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}

const server = await startServer(config).catch((error: Error) =>
  fail(`could not start: ${error.message || error.name}${error.cause ? ` (${String(error.cause)})` : ''}`),
);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    server.log.info({ signal }, 'shutting down');
    await server.close();
    process.exit(0);
  });
}
