import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface RunningServer {
  url: string;
  /** The server process, for reading its memory. */
  pid: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const address = probe.address();
  await new Promise((done) => probe.close(done));
  if (typeof address !== 'object' || address === null) throw new Error('No free port.');
  return address.port;
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode} before it was ready.`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {}
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`The server did not answer ${url}/healthz within ${timeoutMs} ms.`);
}

/** The real server (src/server/main.ts) on a free port and a throwaway SQLite file, as `npm start` runs it. */
export async function startServer(options: { distDir?: string; env?: Record<string, string> } = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'piaffe-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `file:${join(dataDir, 'shop.db')}`,
      DIST_DIR: resolve(options.distDir ?? 'dist'),
      LOG_LEVEL: 'silent',
      ...options.env,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(url, child, 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: child.pid as number, stop } satisfies RunningServer;
}
