import { loadConfig } from './config';
import { log } from './http/log';
import { startServer } from './server';

const server = await startServer(loadConfig());

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    log('info', 'shutting down', { signal });
    await server.close();
    process.exit(0);
  });
}
