import { ConfigError, loadConfig } from './config';
import { startServer } from './server';

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
