/**
 * The change feed: committed changes, by topic, for whoever on this server listens (live streams, the
 * session cache, the owner's live order list). A topic is a name and, for the type checker, the shape of
 * its events: `cartTopic(uid)` carries that rider's cart changes, `sessionsTopic` every user's session ends.
 *
 * Events are published inside a unit of work (database.ts) and delivered only once it has committed: here
 * at once, and on PostgreSQL to every other server through NOTIFY (postgres-changes.ts).
 */
export interface Topic<Event> {
  readonly name: string;
  /** Never set: it only carries the event type. */
  readonly event?: Event;
}

export function topic<Event>(name: string): Topic<Event> {
  return { name };
}

/** Told instead of an event when events of the topic may have been missed: start again from the database. */
export interface Lost {
  type: 'lost';
}
export const lost: Lost = { type: 'lost' };

export type Listener<Event> = (event: Event | Lost) => void;

/** An event on its way: the topic's name and the event, as sent between servers. */
export interface Change {
  topic: string;
  event: unknown;
}

export class ChangeFeed {
  readonly #listeners = new Map<string, Set<Listener<unknown>>>();

  subscribe<Event>(topic: Topic<Event>, listener: Listener<Event>): () => void {
    let listeners = this.#listeners.get(topic.name);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(topic.name, listeners);
    }
    listeners.add(listener as Listener<unknown>);
    return () => {
      listeners.delete(listener as Listener<unknown>);
      if (listeners.size === 0) this.#listeners.delete(topic.name);
    };
  }

  /** Hands committed changes to this server's listeners, in order. */
  deliver(changes: readonly Change[]): void {
    for (const { topic, event } of changes) {
      for (const listener of this.#listeners.get(topic) ?? []) listener(event);
    }
  }

  /** Events of `topicName` may have been missed. */
  lost(topicName: string): void {
    for (const listener of this.#listeners.get(topicName) ?? []) listener(lost);
  }

  /** Events of any topic may have been missed (the PostgreSQL listener reconnected). */
  lostAll(): void {
    for (const name of [...this.#listeners.keys()]) this.lost(name);
  }
}
