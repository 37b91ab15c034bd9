/** The demo data's chance (docs/decisions/0046-a-big-shop.md): seeded, so that the same seed makes the same shop. */

/** A small, seeded generator (mulberry32) of numbers in [0, 1). */
export function random(start: number): () => number {
  let state = start >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One of `list`, each as likely. */
export function pick<T>(next: () => number, list: readonly T[]): T {
  return list[Math.floor(next() * list.length)] as T;
}

/** A whole number from `low` to `high`, both included. */
export function between(next: () => number, low: number, high: number): number {
  return low + Math.floor(next() * (high - low + 1));
}
