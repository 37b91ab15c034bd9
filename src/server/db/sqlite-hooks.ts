import { ListenerRegistry } from './change-feed';
import type { DialectHooks } from './sql-store';

/**
 * One SQLite file belongs to one server process: changes are delivered in-process, and SQLite's
 * single writer already serialises adds, so no extra lock is needed.
 */
export function sqliteHooks(): DialectHooks {
  const registry = new ListenerRegistry();
  return {
    lockCart: async () => {},
    publish: async () => {},
    afterCommit(events) {
      for (const event of events) registry.dispatch(event);
    },
    subscribe: (uid, listener) => registry.subscribe(uid, listener),
    watchSessions: (watcher) => registry.watchSessions(watcher),
    close: async () => {},
  };
}
