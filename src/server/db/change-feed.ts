import type { CartItem } from '../../shared/api';

/** A change to one user's data, fanned out to that user's open live streams. */
export type ChangeEvent =
  | { uid: string; type: 'added'; item: CartItem }
  | { uid: string; type: 'removed'; id: string }
  /** Some of the user's sessions ended: each stream checks whether its own still holds. */
  | { uid: string; type: 'sessions-changed' };

export type ChangeListener = (event: ChangeEvent) => void;

/** Routes events to the listeners of one user; the transport (in-process or PostgreSQL) feeds `dispatch`. */
export class ListenerRegistry {
  readonly #byUser = new Map<string, Set<ChangeListener>>();

  subscribe(uid: string, listener: ChangeListener): () => void {
    let listeners = this.#byUser.get(uid);
    if (!listeners) {
      listeners = new Set();
      this.#byUser.set(uid, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#byUser.delete(uid);
    };
  }

  dispatch(event: ChangeEvent): void {
    for (const listener of this.#byUser.get(event.uid) ?? []) listener(event);
  }

  get size(): number {
    let total = 0;
    for (const listeners of this.#byUser.values()) total += listeners.size;
    return total;
  }
}
