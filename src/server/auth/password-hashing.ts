import { availableParallelism } from 'node:os';
import { hashPassword, verifyPassword } from 'better-auth/crypto';

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
 * Better Auth's own scrypt hashing, at most one fewer at a time than there are cores. Scrypt already runs on
 * libuv's thread pool, off the event loop, but four pool threads hashing at once on a two-core machine
 * starve the event loop of CPU: a burst of log-ins then slows every other request (bench/hashing.ts).
 */
export function boundedPasswordHashing(limit = Math.max(1, availableParallelism() - 1)) {
  const run = limitConcurrency(limit);
  return {
    hash: (password: string) => run(() => hashPassword(password)),
    verify: (data: { hash: string; password: string }) => run(() => verifyPassword(data)),
  };
}
