// `npm run test:container` (not part of `npm test`): the image of the root Dockerfile, built and run here with podman,
// and compose.yaml checked against the README (docs/decisions/0060-a-container-to-run-it.md). Needs podman, runc and
// the base images: `apt-get install -y podman runc debootstrap`, then ../shared/tools/container-base.sh makes local
// stand-ins of node:22-bookworm and node:22-bookworm-slim on a machine that cannot pull them (this test runs it when
// they are missing). Containers run as this machine allows: runc, the host's network, explicit ulimits.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { parse } from 'yaml';
import { Client, openRequest, testMailbox } from '../support/client';

const root = resolve(import.meta.dirname, '../..');
const image = 'localhost/piaffe:container-test';
const runArgs = [
  '--runtime',
  'runc',
  'run',
  '--network',
  'host',
  '--ulimit',
  'nofile=4096:4096',
  '--ulimit',
  'nproc=4096:4096',
];
/** Ports of this test's shops (the host's network: they listen on the machine itself). */
const port = Number(process.env.CONTAINER_TEST_PORT ?? 3400);
const postgresUrl = process.env.CONTAINER_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const suffix = randomBytes(4).toString('hex');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end, its output kept; never throws for its exit code. */
function sh(
  command: string,
  args: readonly string[],
  options: { quiet?: boolean; cwd?: string } = {},
): Promise<Result> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: options.cwd ?? root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => {
      stdout += data;
      if (!options.quiet) process.stderr.write(data);
    });
    child.stderr.on('data', (data: Buffer) => {
      stderr += data;
      if (!options.quiet) process.stderr.write(data);
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

async function ok(command: string, args: readonly string[], options: { quiet?: boolean } = {}): Promise<string> {
  const result = await sh(command, args, options);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${result.code}\n${result.stderr}`);
  return result.stdout.trim();
}

const podman = (...args: string[]) => ok('podman', args, { quiet: true });

/** Waits for the shop at `url` to answer /healthz with 200; the milliseconds it took. */
async function healthy(url: string, since: number, ms = 60_000): Promise<number> {
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) return Date.now() - since;
    } catch {}
    if (Date.now() - since > ms) throw new Error(`${url}/healthz did not answer 200 within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts a container of the image, detached; its name. */
async function startShop(name: string, env: Record<string, string>, volume?: string): Promise<string> {
  const flags = Object.entries(env).flatMap(([key, value]) => ['--env', `${key}=${value}`]);
  await podman(
    ...runArgs,
    '--detach',
    '--name',
    name,
    ...(volume ? ['--volume', `${volume}:/data`] : []),
    ...flags,
    image,
  );
  return name;
}

/** From the container's start to the server's 'listening' line in its log: the shop's own start, in seconds. */
async function serverStart(name: string): Promise<string> {
  // Go's time as podman prints it: 2026-11-28 12:00:37.123456789 +0000 UTC.
  const started = (await podman('inspect', '--format', '{{.State.StartedAt}}', name)).replace(
    /^(\S+) (\d+:\d+:\d+(?:\.\d{1,3})?)\d* \+0000 UTC$/,
    '$1T$2Z',
  );
  const listening = (await podman('logs', name)).split('\n').find((line) => line.includes('"msg":"listening"'));
  const at = JSON.parse(listening ?? '{}').time;
  return `${((Date.parse(at) - Date.parse(started)) / 1000).toFixed(1)} s`;
}

/** Stops a container as `docker stop` does (SIGTERM, SIGKILL after 10 s): its exit code and how long it took. */
async function stopShop(name: string): Promise<{ exitCode: number; ms: number }> {
  const started = Date.now();
  await podman('stop', '--time', '10', name);
  const ms = Date.now() - started;
  const exitCode = Number(await podman('inspect', '--format', '{{.State.ExitCode}}', name));
  return { exitCode, ms };
}

async function removeQuietly(kind: 'container' | 'volume', name: string): Promise<void> {
  // A container's anonymous volume (the image's /data, when no volume is named) goes with it.
  await sh('podman', [kind, 'rm', '--force', ...(kind === 'container' ? ['--volumes'] : []), name], { quiet: true });
}

/** The node:22 base images: pulled where a registry is reached, made locally by the shared tool otherwise. */
async function ensureBaseImages(): Promise<void> {
  const missing = [];
  for (const base of ['docker.io/library/node:22-bookworm', 'docker.io/library/node:22-bookworm-slim']) {
    if ((await sh('podman', ['image', 'exists', base], { quiet: true })).code !== 0) missing.push(base);
  }
  if (missing.length === 0) return;
  const tool = resolve(root, '../shared/tools/container-base.sh');
  if (!existsSync(tool)) throw new Error(`missing ${missing.join(', ')}: pull them, or run container-base.sh`);
  await ok('bash', [tool, '22']);
}

const timings: Record<string, string> = {};

before(async () => {
  if ((await sh('podman', ['--version'], { quiet: true }).catch(() => undefined))?.code !== 0) {
    throw new Error('podman is missing: apt-get install -y podman runc debootstrap');
  }
  await ensureBaseImages();
  const started = Date.now();
  // A proxy that re-signs TLS on this machine (NODE_EXTRA_CA_CERTS): its CA goes to npm in the build as a secret.
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  const secret = ca && existsSync(ca) ? ['--secret', `id=ca,src=${ca}`] : [];
  const build = [
    'build',
    '--pull=never',
    '--format',
    'docker',
    '--isolation',
    'chroot',
    ...secret,
    '--tag',
    image,
    '.',
  ];
  await ok('podman', build);
  timings.build = `${((Date.now() - started) / 1000).toFixed(0)} s`;
});

after(() => {
  process.stderr.write(`\ncontainer test measurements: ${JSON.stringify(timings)}\n`);
});

describe('the image', () => {
  test('runs as a user that is not root, with /data a volume, port 3000 and a health check', async () => {
    const [inspected] = JSON.parse(await podman('image', 'inspect', image));
    const { Config: config, Healthcheck: healthcheck } = inspected;
    assert.equal(config.User, 'node');
    assert.deepEqual(Object.keys(config.Volumes ?? {}), ['/data']);
    assert.deepEqual(Object.keys(config.ExposedPorts ?? {}), ['3000/tcp']);
    assert.deepEqual(healthcheck?.Test, ['CMD', 'node', 'scripts/healthcheck.mjs']);
    assert.equal(config.StopSignal, 'SIGTERM');
    assert.match(config.Env.join('\n'), /^DATABASE_URL=file:\/data\/shop\.db$/m);
    // Production dependencies only: no build tool, no test runner in the image.
    const devTools = ['vite', 'vitest', '@playwright/test', 'typescript', '@biomejs/biome', 'tsx', 'better-sqlite3'];
    const found = await podman(
      ...runArgs,
      '--rm',
      '--entrypoint',
      'sh',
      image,
      '-c',
      `for p in ${devTools.join(' ')}; do [ -e node_modules/$p/package.json ] && echo $p; done; true`,
    );
    assert.deepEqual(found.split('\n'), ['better-sqlite3']);
    const bytes = Number(await podman('image', 'inspect', '--format', '{{.Size}}', image));
    timings.imageSize = `${(bytes / 1e6).toFixed(0)} MB`;
  });
});

describe('the shop on SQLite in a container, on a volume', () => {
  const volume = `piaffe-test-${suffix}`;
  const first = `piaffe-test-a-${suffix}`;
  const second = `piaffe-test-b-${suffix}`;
  const url = `http://127.0.0.1:${port}`;
  let mailbox: Awaited<ReturnType<typeof testMailbox>>;
  const rider = new Client(url);
  const password = 'secret1-in-box';
  let orderNumber = '';

  before(async () => {
    mailbox = await testMailbox();
    await podman('volume', 'create', volume);
  });
  after(async () => {
    await removeQuietly('container', first);
    await removeQuietly('container', second);
    await removeQuietly('volume', volume);
    await mailbox.close();
  });

  const env = () => ({ PORT: String(port), SMTP_URL: mailbox.url, LOG_LEVEL: 'info' });

  test('starts on an empty volume, healthy, as uid 1000, with its files in /data', async () => {
    const since = Date.now();
    await startShop(first, env(), volume);
    const ms = await healthy(url, since);
    timings.firstStart = `${(ms / 1000).toFixed(1)} s`;
    timings.firstStartInside = await serverStart(first);
    assert.equal(await podman('exec', first, 'id', '-u'), '1000');
    const owners = await podman('exec', first, 'stat', '--format', '%u %n', '/data/shop.db', '/data/auth-secret');
    assert.deepEqual(owners.split('\n'), ['1000 /data/shop.db', '1000 /data/auth-secret']);
    // The image's HEALTHCHECK, as Docker runs it.
    assert.equal((await sh('podman', ['healthcheck', 'run', first], { quiet: true })).code, 0);
  });

  test('a rider signs up, confirms the address by e-mail and orders; the owner command and a backup run inside', async () => {
    await rider.signupConfirmed(undefined, password);
    const order = await rider.order('1');
    orderNumber = order.number;
    const added = await podman(
      'exec',
      first,
      'npm',
      'run',
      '--silent',
      'owner',
      '--',
      'add',
      String(rider.user?.email),
    );
    assert.equal(added, `${rider.user?.email} is now an owner of the shop.`);
    const backedUp = await podman('exec', first, 'npm', 'run', '--silent', 'backup', '--', '/data/backups/first.db');
    assert.match(backedUp, /1 orders/);
  });

  test('SIGTERM: the request under way is answered, live streams end, the database closes, exit 0 within 10 s', async () => {
    const stream = await fetch(`${url}/api/cart/stream`, { headers: { cookie: rider.cookieHeader } });
    assert.equal(stream.status, 200);
    const body = JSON.stringify({ email: rider.user?.email, password });
    const half = Math.floor(body.length / 2);
    const { socket, answer } = openRequest(
      url,
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`,
    );
    await new Promise((r) => setTimeout(r, 300));
    const stopping = stopShop(first);
    // The rest of the body arrives after the signal, as a slow rider's would.
    for (let waited = 0; !(await podman('logs', first)).includes('shutting down'); waited += 50) {
      assert.ok(waited < 5000, 'no "shutting down" in the log');
      await new Promise((r) => setTimeout(r, 50));
    }
    // Written, not ended: a half-closed connection is one the server may close before it answers.
    socket.write(body.slice(half));
    const reply = await answer;
    assert.equal(reply.status, 200, `the login under way got ${reply.status}: ${JSON.stringify(reply.body)}`);
    const { exitCode, ms } = await stopping;
    timings.stop = `${(ms / 1000).toFixed(1)} s`;
    assert.equal(exitCode, 0);
    assert.ok(ms < 10_000, `stopped in ${ms} ms`);
    const logs = await podman('logs', first);
    assert.match(logs, /"msg":"closed"/);
  });

  test('a new container on the same volume has the order, the session and the backup', async () => {
    const since = Date.now();
    await startShop(second, env(), volume);
    const ms = await healthy(url, since);
    timings.restart = `${(ms / 1000).toFixed(1)} s`;
    timings.restartInside = await serverStart(second);
    // The old cookie still works: the generated AUTH_SECRET and the sessions are on the volume.
    const orders = await rider.json('GET', '/api/orders');
    assert.equal(orders.status, 200);
    assert.deepEqual(
      orders.body.orders.map((o: { number: string }) => o.number),
      [orderNumber],
    );
    const listed = await podman('exec', second, 'ls', '/data/backups');
    assert.equal(listed, 'first.db');
    const { exitCode, ms: stopMs } = await stopShop(second);
    assert.equal(exitCode, 0);
    assert.ok(stopMs < 10_000);
  });

  test("the README's restore: a container of its own on the stopped shop's volume puts the backup back", async () => {
    const restored = await sh(
      'podman',
      [
        ...runArgs,
        '--rm',
        '--volume',
        `${volume}:/data`,
        image,
        'npm',
        'run',
        '--silent',
        'restore',
        '--',
        '/data/backups/first.db',
        '--force',
      ],
      { quiet: true },
    );
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /^Restored \/data\/backups\/first\.db to \/data\/shop\.db \(.*1 orders/);
  });
});

describe('the shop in a container on PostgreSQL (DATABASE_URL)', () => {
  const database = `piaffe_container_${suffix}`;
  const name = `piaffe-test-pg-${suffix}`;
  const url = `http://127.0.0.1:${port + 1}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  let mailbox: Awaited<ReturnType<typeof testMailbox>>;

  before(async () => {
    mailbox = await testMailbox();
    await admin.connect();
    await admin.query(`create database ${database}`);
  });
  after(async () => {
    await removeQuietly('container', name);
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
    await mailbox.close();
  });

  test('migrates a fresh database at start, takes an order, stops with exit 0, and the order is in PostgreSQL', async () => {
    const databaseUrl = new URL(postgresUrl);
    databaseUrl.pathname = `/${database}`;
    const since = Date.now();
    await startShop(name, {
      PORT: String(port + 1),
      DATABASE_URL: databaseUrl.href,
      AUTH_SECRET: randomBytes(24).toString('hex'),
      SMTP_URL: mailbox.url,
    });
    const ms = await healthy(url, since);
    timings.postgresFirstStart = `${(ms / 1000).toFixed(1)} s`;
    const rider = new Client(url);
    await rider.signupConfirmed();
    const order = await rider.order('2');
    const { exitCode, ms: stopMs } = await stopShop(name);
    assert.equal(exitCode, 0);
    assert.ok(stopMs < 10_000);
    const shop = new pg.Client({ connectionString: databaseUrl.href });
    await shop.connect();
    try {
      const rows = await shop.query('select number, email from shop_order');
      assert.equal(rows.rows.length, 1);
      assert.equal(rows.rows[0].email, rider.user?.email);
      assert.ok(order.number.endsWith(String(rows.rows[0].number)), `${order.number} is ${rows.rows[0].number}`);
    } finally {
      await shop.end();
    }
  });
});

describe('compose.yaml', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const compose = parse(readFileSync(join(root, 'compose.yaml'), 'utf8'));
  const example = readFileSync(join(root, '.env.example'), 'utf8');

  test('is valid for Compose, with the example .env filled in', async () => {
    const compose = await composeCommand();
    const dir = mkdtempSync(join(tmpdir(), 'piaffe-compose-'));
    try {
      const env = example
        .replace(/^AUTH_SECRET=$/m, `AUTH_SECRET=${'a'.repeat(64)}`)
        .replace(/^POSTGRES_PASSWORD=$/m, 'POSTGRES_PASSWORD=letters0and0digits');
      writeFileSync(join(dir, '.env'), env);
      const args = ['--project-directory', root, '--env-file', join(dir, '.env'), '--file', 'compose.yaml', 'config'];
      await ok(compose, [...args, '--quiet']);
      // And it refuses to run without the secrets: a shop never starts with an empty AUTH_SECRET.
      writeFileSync(join(dir, '.env'), example);
      const refused = await sh(compose, args, { quiet: true });
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /set (AUTH_SECRET|POSTGRES_PASSWORD) in \.env/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("its services' settings are the README's", () => {
    const { shop, db } = compose.services;
    assert.deepEqual(Object.keys(compose.services).sort(), ['db', 'shop']);
    assert.equal(shop.depends_on.db.condition, 'service_healthy');
    assert.ok(db.healthcheck.test.includes('pg_isready'));
    // The README's one command, and the services its commands name.
    assert.match(readme, /^docker compose up -d$/m);
    const named = [...readme.matchAll(/docker compose exec (?:-T )?(\w+)/g)].map((m) => m[1]);
    assert.ok(named.length >= 2, 'the README shows the owner command and a backup with docker compose exec');
    for (const service of named) assert.ok(service && service in compose.services, `README names a service ${service}`);
    assert.match(readme, /docker compose exec shop npm run owner -- add/);
    assert.match(readme, /docker compose exec -T db pg_dump/);
    // The same images, port and volumes.
    assert.ok(readme.includes(`\`${db.image}\``), `README names ${db.image}`);
    assert.deepEqual(shop.ports, ['3000:3000']);
    assert.ok(readme.includes('http://localhost:3000'));
    for (const volume of Object.keys(compose.volumes))
      assert.ok(readme.includes(`\`${volume}\``), `README names ${volume}`);
    // Every setting compose takes from .env is in .env.example and in the README.
    const text = readFileSync(join(root, 'compose.yaml'), 'utf8');
    const fromEnv = [...new Set([...text.matchAll(/\$\{([A-Z_]+)/g)].map((m) => m[1]))];
    assert.deepEqual(fromEnv.sort(), [
      'AUTH_SECRET',
      'MAIL_FROM',
      'POSTGRES_PASSWORD',
      'PUBLIC_URL',
      'SMTP_URL',
      'TRUST_PROXY',
    ]);
    for (const name of fromEnv) {
      assert.match(example, new RegExp(`^${name}=`, 'm'), `.env.example sets ${name}`);
      assert.ok(readme.includes(`\`${name}\``), `README names ${name}`);
    }
    // The shop's database is the db service's.
    assert.match(shop.environment.DATABASE_URL, /^postgres:\/\/piaffe:\$\{POSTGRES_PASSWORD[^}]*\}@db:5432\/piaffe$/);
    assert.equal(db.environment.POSTGRES_USER, 'piaffe');
    assert.equal(db.environment.POSTGRES_DB, 'piaffe');
    // The docker run command of the README: the image's port and volume.
    assert.match(readme, /docker run [^\n]*-p 3000:3000 [^\n]*-v piaffe-data:\/data/);
  });
});

/** Compose's own check of the file: `docker compose` where Docker is, else Debian's docker-compose (installed as root). */
async function composeCommand(): Promise<string> {
  const found = await new Promise<boolean>((done) => execFile('docker-compose', ['version'], (error) => done(!error)));
  if (found) return 'docker-compose';
  if (process.getuid?.() === 0) {
    await ok('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'docker-compose']);
    return 'docker-compose';
  }
  throw new Error('docker-compose is missing: apt-get install -y docker-compose');
}
