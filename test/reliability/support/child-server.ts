import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { createTestSchema } from '../../support/postgres';
import { type Backend, backend as configuredBackend } from '../../support/server';

/**
 * The reliability tests run the server the way `npm start` does, as a child process, so that they can
 * kill it (SIGKILL, SIGTERM), restart it on the same database and read its memory from /proc.
 */

export const authSecret = 'reliability-secret-0123456789abcdef0123';
const heapProbe = join(dirname(fileURLToPath(import.meta.url)), 'heap-probe.mjs');

/** A throwaway database of the backend under test, readable by the test while a server runs on it. */
export interface TestDatabase {
  backend: Backend;
  /** DATABASE_URL for the server. */
  url: string;
  /** Runs SQL on it; write `$1`, `$2`... for parameters on either backend, and quote camelCase columns. */
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<R[]>;
  /** Every table of the database (ours, Better Auth's, the migrators'). */
  tables(): Promise<string[]>;
  drop(): Promise<void>;
}

export async function createDatabase(backend: Backend = configuredBackend): Promise<TestDatabase> {
  if (backend === 'postgres') {
    const schema = await createTestSchema();
    return {
      backend,
      url: schema.url('reliability'),
      query: async <R>(text: string, values?: unknown[]) => (await schema.query(text, values)).rows as R[],
      async tables() {
        const rows = await schema.query<{ name: string }>(
          'select table_name as name from information_schema.tables where table_schema = $1 order by 1',
          [schema.schema],
        );
        return rows.rows.map((r) => r.name);
      },
      drop: () => schema.drop(),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'piaffe-reliability-'));
  const file = join(dir, 'shop.db');
  const query = async <R>(text: string, values: unknown[] = []): Promise<R[]> => {
    // A connection per query: it sees everything committed so far, and holds no lock in between.
    const db = new SQLite(file, { fileMustExist: true });
    try {
      const statement = db.prepare(text.replace(/\$\d+/g, '?'));
      const params = values.map((v) => (v instanceof Date ? v.toISOString() : v));
      if (statement.reader) return statement.all(...params) as R[];
      statement.run(...params);
      return [];
    } finally {
      db.close();
    }
  };
  return {
    backend,
    url: `file:${file}`,
    query,
    async tables() {
      const rows = await query<{ name: string }>(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by 1",
      );
      return rows.map((r) => r.name);
    },
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ChildServer {
  url: string;
  pid: number;
  process: ChildProcess;
  /** Every JSON log line the server has written so far, but the request lines. */
  logs: Array<Record<string, unknown>>;
  /** The request lines: one per request the server answered. */
  requests: Array<{ method: string; path: string; status: number }>;
  /** Resolves when the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resident memory of the server process, in MiB (from /proc). */
  rssMiB(): number;
  /**
   * The server's memory in MiB right after a full garbage collection (needs `inspect: true`): the JavaScript
   * heap in use plus memory held outside it (buffers), so a leak shows and a lazy collector does not.
   */
  liveMemoryMiB(): Promise<{ heapUsed: number; external: number; rss: number }>;
  /** Sends the signal and waits for the process to end. */
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node --import tsx src/server/main.ts` on `database` and resolves once it logs that it is listening. */
export async function startChild(
  database: TestDatabase,
  env: Record<string, string> = {},
  options: { inspect?: boolean } = {},
): Promise<ChildServer> {
  // The inspector listens on 127.0.0.1 only, on a port of its own choosing.
  const inspect = options.inspect ? ['--inspect=127.0.0.1:0'] : [];
  const child = spawn(process.execPath, [...inspect, '--import', 'tsx', 'src/server/main.ts'], {
    cwd: resolve('.'),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      AUTH_SECRET: authSecret,
      DIST_DIR: resolve('dist'),
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  const logs: Array<Record<string, unknown>> = [];
  const requests: ChildServer['requests'] = [];
  let stderr = '';
  let inspector = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
    inspector ||= /Debugger listening on (ws:\/\/\S+)/.exec(stderr)?.[1] ?? '';
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the server did not start within 30 s: ${stderr}`)), 30_000);
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      if (entry.msg === 'request') {
        requests.push({ method: String(entry.method), path: String(entry.path), status: Number(entry.status) });
      } else logs.push(entry);
      if (entry.msg === 'listening') {
        clearTimeout(timer);
        done(String(entry.url));
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      fail(new Error(`the server exited (${code ?? signal}) before listening: ${stderr}`));
    });
  });
  const pid = child.pid ?? 0;
  return {
    url,
    pid,
    process: child,
    logs,
    requests,
    exited,
    rssMiB() {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) / 1024;
    },
    async liveMemoryMiB() {
      if (!inspector) throw new Error('start the server with inspect: true to measure its live memory');
      const output = await new Promise<string>((done, fail) =>
        execFile(process.execPath, ['--experimental-websocket', heapProbe, inspector], (error, stdout) =>
          error ? fail(error) : done(stdout),
        ),
      );
      const usage = JSON.parse(output) as NodeJS.MemoryUsage;
      const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
      return { heapUsed: mib(usage.heapUsed), external: mib(usage.external), rss: mib(usage.rss) };
    },
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
