import type { CartItem } from '../../shared/api';

/** A change to one user's data, fanned out to that user's open live streams. */
export type ChangeEvent =
  | { uid: string; type: 'added'; item: CartItem }
  | { uid: string; type: 'removed'; id: string }
  /** Some of the user's sessions ended: each stream checks whether its own still holds. */
  | { uid: string; type: 'sessions-changed' }
  /**
   * Changes may have been missed (the PostgreSQL listener reconnected, or a change was too big to send):
   * each stream sends a fresh snapshot.
   */
  | { uid: string; type: 'resync' };

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

  /** Tells every listener of every user that it may have missed changes. */
  resyncAll(): void {
    for (const [uid, listeners] of this.#byUser) {
      for (const listener of [...listeners]) listener({ uid, type: 'resync' });
    }
  }

  get size(): number {
    let total = 0;
    for (const listeners of this.#byUser.values()) total += listeners.size;
    return total;
  }
}
