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

/** Hears about every user's sessions, e.g. to drop cached sessions the moment they may have ended. */
export interface SessionWatcher {
  /** Some of the user's sessions may have ended. */
  changed(uid: string): void;
  /** Events may have been lost (the PostgreSQL listener reconnected): any session may have ended. */
  lost(): void;
}

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

  readonly #watchers = new Set<SessionWatcher>();

  /** Watchers hear of session changes before any stream does, so a stream's own check sees the change. */
  watchSessions(watcher: SessionWatcher): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  dispatch(event: ChangeEvent): void {
    this.tellWatchers(event);
    for (const listener of this.#byUser.get(event.uid) ?? []) listener(event);
  }

  /** Passes a session change to the watchers only (the server that made it hears it before its answer goes out). */
  tellWatchers(event: ChangeEvent): void {
    if (event.type === 'sessions-changed' || event.type === 'resync') {
      for (const watcher of this.#watchers) watcher.changed(event.uid);
    }
  }

  /** Tells every listener of every user that it may have missed changes. */
  resyncAll(): void {
    for (const watcher of this.#watchers) watcher.lost();
    for (const [uid, listeners] of this.#byUser) {
      for (const listener of [...listeners]) listener({ uid, type: 'resync' });
    }
  }
}
