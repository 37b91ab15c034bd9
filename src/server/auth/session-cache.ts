import type { SessionUser } from '../../shared/api';
import type { Role } from '../../shared/roles';

/** A session Better Auth has confirmed: its row id, its user and their role, and when it began and ends (epoch ms). */
export interface Session {
  id: string;
  user: SessionUser;
  role: Role;
  createdAt: number;
  expiresAt: number;
}

interface Entry {
  session: Session;
  validUntil: number;
}

/**
 * Sessions recently confirmed by Better Auth, by cookie value, so that a busy page does not pay a full
 * session look-up per request. Entries are dropped the moment a user's sessions end (on every server, through
 * the change feed), and live at most `ttlMs` or until the session expires, whichever is sooner.
 */
export class SessionCache {
  readonly #entries = new Map<string, Entry>();
  readonly #tokensByUser = new Map<string, Set<string>>();
  /** Bumped by every invalidation, so a look-up that raced one is not cached. */
  #epoch = 0;

  constructor(
    private readonly ttlMs = 10_000,
    private readonly maxEntries = 10_000,
  ) {}

  get epoch(): number {
    return this.#epoch;
  }

  get(token: string, now = Date.now()): Session | undefined {
    const entry = this.#entries.get(token);
    if (!entry) return undefined;
    if (entry.validUntil > now) return entry.session;
    this.#delete(token, entry.session.user.uid);
    return undefined;
  }

  /** Caches a session looked up while the cache was at `epoch`, unless something was invalidated since. */
  set(token: string, session: Session, epoch: number, now = Date.now()): void {
    if (epoch !== this.#epoch) return;
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.entries().next().value;
      if (oldest) this.#delete(oldest[0], oldest[1].session.user.uid);
    }
    this.#entries.set(token, { session, validUntil: Math.min(now + this.ttlMs, session.expiresAt) });
    let tokens = this.#tokensByUser.get(session.user.uid);
    if (!tokens) {
      tokens = new Set();
      this.#tokensByUser.set(session.user.uid, tokens);
    }
    tokens.add(token);
  }

  forgetUser(uid: string): void {
    this.#epoch++;
    for (const token of this.#tokensByUser.get(uid) ?? []) this.#entries.delete(token);
    this.#tokensByUser.delete(uid);
  }

  clear(): void {
    this.#epoch++;
    this.#entries.clear();
    this.#tokensByUser.clear();
  }

  #delete(token: string, uid: string): void {
    this.#entries.delete(token);
    const tokens = this.#tokensByUser.get(uid);
    tokens?.delete(token);
    if (tokens?.size === 0) this.#tokensByUser.delete(uid);
  }
}
