import { randomBytes, scrypt } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { verifyPassword } from 'better-auth/crypto';

/**
 * Scrypt's cost N for passwords when PASSWORD_HASH_COST is not set: Better Auth's own (N 16384, r 16, p 1, 64 bytes),
 * so a hash made at it is Better Auth's `salt:key` and every hash made before the setting existed still verifies.
 */
export const defaultPasswordHashCost = 16_384;
/** The least cost a test may set (docs/decisions/0056-password-hashing-cost-in-tests.md). */
export const leastPasswordHashCost = 1024;
/** The most: memory is 128 × N × r bytes, 256 MiB at this N. */
export const mostPasswordHashCost = 131_072;

const r = 16;
const p = 1;
const keyLength = 64;

function scryptKey(password: string, salt: string, cost: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, { N: cost, r, p, maxmem: 128 * cost * r * 2 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/**
 * A hash at another cost than the default names it after the key (`salt:key:N`); one at the default is Better Auth's
 * `salt:key`. A hash weaker than `leastAccepted` never verifies: a database that tests wrote (at 1024) opened by a
 * server at the default cost lets none of its weak passwords in (ADR 0056).
 */
export async function hashAtCost(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16).toString('hex');
  const key = (await scryptKey(password, salt, cost)).toString('hex');
  return cost === defaultPasswordHashCost ? `${salt}:${key}` : `${salt}:${key}:${cost}`;
}

export async function verifyAtCost(hash: string, password: string, leastAccepted: number): Promise<boolean> {
  const [salt, key, named] = hash.split(':');
  if (named === undefined) {
    if (leastAccepted > defaultPasswordHashCost) return false;
    return verifyPassword({ hash, password });
  }
  const cost = Number(named);
  if (!salt || !key || !Number.isInteger(cost) || cost < leastAccepted || cost > mostPasswordHashCost) return false;
  if (cost & (cost - 1)) return false;
  const derived = await scryptKey(password, salt, cost);
  const stored = Buffer.from(key, 'hex');
  return stored.length === derived.length && derived.equals(stored);
}

/** Runs at most `limit` tasks at once; the rest wait their turn, first come first served. */
function limitConcurrency(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/**
 * Scrypt hashing at `cost` (PASSWORD_HASH_COST, the default unless a test sets less: ADR 0056), at most one fewer at a
 * time than there are cores. Scrypt already runs on libuv's thread pool, off the event loop, but four pool threads
 * hashing at once on a two-core machine starve the event loop of CPU: a burst of log-ins then slows every other
 * request (bench/hashing.ts). A hash verifies at any cost from `min(cost, default)` up.
 */
export function boundedPasswordHashing(
  cost = defaultPasswordHashCost,
  limit = Math.max(1, availableParallelism() - 1),
) {
  const run = limitConcurrency(limit);
  const leastAccepted = Math.min(cost, defaultPasswordHashCost);
  return {
    hash: (password: string) => run(() => hashAtCost(password, cost)),
    verify: (data: { hash: string; password: string }) =>
      run(() => verifyAtCost(data.hash, data.password, leastAccepted)),
  };
}
