import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { testMailbox } from './client';
import { builtServer, scriptArgs } from './command-line';
import { createDatabase, type TestDatabase } from './test-database';

/**
 * The real server as a child process, for the tests and benchmarks that must kill it (SIGKILL, SIGTERM),
 * restart it on the same database, read its memory from /proc, or keep its load out of their own process.
 */

export const authSecret = 'child-server-secret-0123456789abcdef0123';
const heapProbe = join(dirname(fileURLToPath(import.meta.url)), 'heap-probe.mjs');

export interface ChildOptions {
  /** The database to run on; a throwaway one of the backend under test (dropped by `stop`) when absent. */
  database?: TestDatabase;
  /** More environment; LOG_LEVEL must stay `info` or `debug`: the harness learns the URL from the log. */
  env?: Record<string, string>;
  /** Opens the inspector (on 127.0.0.1), for `liveMemoryMiB`. */
  inspect?: boolean;
  /** Keeps every log line in `logs` and `requests`; otherwise the output is only drained. */
  keepLogs?: boolean;
  /**
   * Runs the built server (`dist-server/main.js`, as `npm start` does) even if the sources changed since the build (the
   * benchmarks, which build first). Without it: the built server when the build is fresh, as in `npm test`, otherwise
   * the sources through tsx (`scriptArgs` in ./command-line).
   */
  built?: boolean;
  /** More arguments for node, before the script (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
}

export interface ChildServer {
  url: string;
  pid: number;
  database: TestDatabase;
  process: ChildProcess;
  /** With `keepLogs`: every JSON log line the server has written so far, but the request lines. */
  logs: Array<Record<string, unknown>>;
  /** With `keepLogs`: the request lines, one per request the server answered. */
  requests: Array<{ method: string; path: string; status: number }>;
  /** Resolves when the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resident memory of the server process, in MiB (from /proc). */
  rssMiB(): number;
  /**
   * The server's memory in MiB right after a full garbage collection (needs `inspect`): the JavaScript heap
   * in use plus memory held outside it (buffers), so a leak shows and a lazy collector does not.
   */
  liveMemoryMiB(): Promise<{ heapUsed: number; external: number; rss: number }>;
  /** Sends the signal and waits for the process to end; the database stays. */
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then drops the database if the harness made it. */
  stop(): Promise<void>;
}

/**
 * Starts the server (`node dist-server/main.js` or `node --import tsx src/server/main.ts`, see `built`) and resolves
 * once it logs that it is listening.
 */
export async function startChild(options: ChildOptions = {}): Promise<ChildServer> {
  const ownDatabase = !options.database;
  const database = options.database ?? (await createDatabase());
  // A mailbox of its own unless the test names SMTP_URL, as for startTestServer: riders confirm their address.
  const mailbox = options.env?.SMTP_URL === undefined ? await testMailbox() : undefined;
  // The inspector listens on 127.0.0.1 only, on a port of its own choosing.
  const inspect = options.inspect ? ['--inspect=127.0.0.1:0'] : [];
  const entry = options.built ? ['--enable-source-maps', builtServer] : scriptArgs('main');
  const child = spawn(process.execPath, [...inspect, ...(options.nodeArgs ?? []), ...entry], {
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
      ...(mailbox ? { SMTP_URL: mailbox.url } : {}),
      ...options.env,
    },
  });
  const logs: ChildServer['logs'] = [];
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
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await mailbox?.close();
    if (ownDatabase) await database.drop();
  };
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the server did not start within 30 s: ${stderr}`)), 30_000);
    let listening = false;
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (listening && !options.keepLogs) return;
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
        listening = true;
        clearTimeout(timer);
        done(String(entry.url));
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      fail(new Error(`the server exited (${code ?? signal}) before listening: ${stderr}`));
    });
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  const pid = child.pid ?? 0;
  return {
    url,
    pid,
    database,
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
    stop,
  };
}
