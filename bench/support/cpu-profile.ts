/**
 * Where the self time of a V8 CPU profile (`node --cpu-prof`) went, as text: by group (the Hono bridge, Kysely,
 * better-sqlite3, pino, ...) and the top functions. Frames of the built server are mapped back to src/ through
 * its source maps. Runnable alone: `node --import tsx bench/support/cpu-profile.ts FILE.cpuprofile`.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { table } from './stats';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const maps = new Map<string, SourceMap | undefined>();

/** Where a frame of a built file comes from: `src/...:line`, or undefined when it has no source map. */
function original(frame: CallFrame): { file: string; line: number } | undefined {
  if (!frame.url.startsWith('file://') || frame.url.includes('/node_modules/')) return undefined;
  if (!maps.has(frame.url)) {
    try {
      const payload = JSON.parse(readFileSync(`${fileURLToPath(frame.url)}.map`, 'utf8'));
      maps.set(frame.url, new SourceMap(payload));
    } catch {
      maps.set(frame.url, undefined);
    }
  }
  const entry = maps.get(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber) as
    | { originalSource?: string; originalLine?: number }
    | undefined;
  if (!entry?.originalSource) return undefined;
  const source = entry.originalSource.startsWith('file://')
    ? fileURLToPath(entry.originalSource)
    : new URL(entry.originalSource, frame.url).pathname;
  return { file: relative(process.cwd(), source), line: (entry.originalLine ?? 0) + 1 };
}

const groups = {
  bridge: 'Hono node-server bridge (web Request/Response, undici, web streams, AbortSignal)',
  hono: 'Hono router, context, compose',
  middleware: 'our middleware (security headers, no-store, origin check, body limit, request log)',
  session: 'session lookup (cookie, cache, Better Auth on a miss)',
  betterAuth: 'Better Auth',
  kysely: 'Kysely (query building, compiling, execution)',
  sqlite: 'better-sqlite3 (statements, SQLite, fsync waits)',
  ourDb: 'our db layer (unit of work, statement cache, change feed)',
  ours: 'our routes and stores (cart, orders, e-mail rendering)',
  validation: 'request body reading and zod validation',
  pino: 'pino logging',
  json: 'JSON.stringify / JSON.parse',
  asyncHooks: 'async_hooks promise hooks (AsyncLocalStorage, which Better Auth uses)',
  floor: "the floor's own code (with its better-sqlite3 calls' native time)",
  crypto: 'node:crypto (randomUUID, hashes)',
  node: 'Node http/net/streams core',
  nodeOther: 'Node core, other',
  gc: 'garbage collector',
  program: 'V8 (program: compiler, runtime, unattributed native)',
  idle: 'idle',
} as const;

const pinoPackages = [
  'pino',
  'sonic-boom',
  'pino-std-serializers',
  'quick-format-unescaped',
  'fast-redact',
  '@pinojs/redact',
  'safe-stable-stringify',
  'thread-stream',
  'atomic-sleep',
  'on-exit-leak-free',
];
const sqliteNatives = new Set(['all', 'run', 'get', 'prepare', 'exec', 'iterate', 'pragma', 'transaction']);

/** The group of a frame; undefined for a native frame that belongs to its caller's group. */
function groupOf(frame: CallFrame, source: { file: string } | undefined): string | undefined {
  const { functionName: name, url } = frame;
  if (name === '(idle)') return groups.idle;
  if (name === '(garbage collector)') return groups.gc;
  if (name === '(program)') return groups.program;
  if (name === '(root)') return groups.program;
  if (url === '') {
    if (name === 'stringify' || name === 'parse') return groups.json;
    return undefined;
  }
  const packageName = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (packageName) {
    const [, pkg, path = ''] = packageName;
    if (pkg === '@hono/node-server') return groups.bridge;
    if (pkg === 'hono') {
      if (path.includes('body-limit')) return groups.middleware;
      if (path.includes('cookie')) return groups.session;
      return groups.hono;
    }
    // Kysely's SQLite driver calls better-sqlite3's native statement methods, whose time shows as its own.
    if (pkg === 'kysely') return path.includes('sqlite-driver') ? groups.sqlite : groups.kysely;
    if (pkg === 'better-sqlite3') return groups.sqlite;
    if (pinoPackages.includes(pkg as string)) return groups.pino;
    if (pkg === 'zod') return groups.validation;
    if (pkg?.includes('better-auth') || pkg === 'better-call' || pkg === 'jose' || pkg?.startsWith('@noble')) {
      return groups.betterAuth;
    }
    return `dependency ${pkg}`;
  }
  if (url.startsWith('node:')) {
    if (url.includes('crypto')) return groups.crypto;
    if (url.includes('async_hooks')) return groups.asyncHooks;
    // The web-standard objects @hono/node-server makes for each request and response.
    if (/undici|webstreams|abort_controller|js_transferable|event_target|internal\/encoding|internal\/url/.test(url)) {
      return groups.bridge;
    }
    if (
      /_http_|node:http|node:net|stream|internal\/net|timers|node:events|async_hooks|internal\/process\/task_queues/.test(
        url,
      )
    ) {
      return groups.node;
    }
    return groups.nodeOther;
  }
  const file = source?.file ?? url;
  if (file.includes('/bench/')) return groups.floor;
  if (file.includes('src/server/auth/')) return groups.session;
  if (/src\/server\/http\/(security|request-log|errors)\.ts|src\/server\/app\.ts/.test(file)) return groups.middleware;
  if (file.includes('src/server/http/input.ts')) return groups.validation;
  if (file.includes('src/server/log.ts')) return groups.pino;
  // A precompiled read on SQLite calls better-sqlite3 from here (db.precompile); its native time is SQLite's.
  if (name === 'runDirectly') return groups.sqlite;
  if (file.includes('src/server/db/')) return groups.ourDb;
  return groups.ours;
}

function locationOf(frame: CallFrame, source: { file: string; line: number } | undefined): string {
  if (source) return `${source.file}:${source.line}`;
  if (frame.url === '') return '(native)';
  const packagePath = /\/node_modules\/(.*)$/.exec(frame.url)?.[1];
  return `${packagePath ?? frame.url}:${frame.lineNumber + 1}`;
}

/**
 * The self time of every sample within `window` (µs on the monotonic clock, as the profile's timestamps; the whole
 * profile when absent), by group and by function, as text tables.
 */
export function summariseProfile(file: string, window?: [number, number], top = 15): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const sources = new Map<number, ReturnType<typeof original>>();
  const groupCache = new Map<number, string>();
  const sourceOf = (node: ProfileNode) => {
    if (!sources.has(node.id)) sources.set(node.id, original(node.callFrame));
    return sources.get(node.id);
  };
  const group = (id: number): string => {
    const cached = groupCache.get(id);
    if (cached) return cached;
    const node = byId.get(id) as ProfileNode;
    let found = groupOf(node.callFrame, sourceOf(node));
    if (found === undefined) {
      // A native frame: better-sqlite3's statement methods are its own; anything else is its caller's.
      const up = parent.get(id);
      const callerGroup = up === undefined ? groups.program : group(up);
      found =
        sqliteNatives.has(node.callFrame.functionName) &&
        (callerGroup === groups.kysely || callerGroup === groups.ourDb)
          ? groups.sqlite
          : callerGroup;
    }
    groupCache.set(id, found);
    return found;
  };

  const selfByNode = new Map<number, number>();
  let time = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    const next = profile.timeDeltas[i + 1] ?? 0;
    if (window && (time < window[0] || time > window[1])) continue;
    const id = profile.samples[i] as number;
    selfByNode.set(id, (selfByNode.get(id) ?? 0) + next);
    total += next;
  }

  const byGroup = new Map<string, number>();
  const byFunction = new Map<string, { self: number; group: string }>();
  for (const [id, self] of selfByNode) {
    const node = byId.get(id) as ProfileNode;
    const name = group(id);
    byGroup.set(name, (byGroup.get(name) ?? 0) + self);
    const key = `${node.callFrame.functionName || '(anonymous)'}  ${locationOf(node.callFrame, sourceOf(node))}`;
    const entry = byFunction.get(key) ?? { self: 0, group: name };
    entry.self += self;
    byFunction.set(key, entry);
  }
  const idle = byGroup.get(groups.idle) ?? 0;
  const busy = total - idle;
  const pct = (part: number, of: number) => `${((part / of) * 100).toFixed(1)}%`;
  const groupRows = [...byGroup]
    .sort((a, b) => b[1] - a[1])
    .map(([name, self]) => [
      name,
      (self / 1000).toFixed(0),
      pct(self, total),
      name === groups.idle ? '' : pct(self, busy),
    ]);
  const functionRows = [...byFunction]
    .filter(([key]) => !key.startsWith('(idle)'))
    .sort((a, b) => b[1].self - a[1].self)
    .slice(0, top)
    .map(([key, { self, group: name }]) => [
      key,
      name.split(' (')[0] as string,
      (self / 1000).toFixed(0),
      pct(self, busy),
    ]);
  return [
    `${(total / 1e6).toFixed(1)} s of samples, ${pct(busy, total)} busy.`,
    '',
    'Self time by group:',
    table(['group', 'ms', 'of all', 'of busy'], groupRows),
    '',
    `Top ${top} functions by self time (idle left out):`,
    table(['function  where', 'group', 'ms', 'of busy'], functionRows),
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: cpu-profile.ts FILE.cpuprofile');
  console.log(summariseProfile(file));
}
