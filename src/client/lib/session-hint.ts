import type { SessionUser } from '../../shared/api';

/** The `user` key is only a hint for the first paint; the server's session cookie is the truth. */
const key = 'user';

export function readHint(): SessionUser | null {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(key) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { uid, email, emailConfirmed } = value as Partial<SessionUser>;
    if (typeof uid !== 'string' || typeof email !== 'string') return null;
    // A hint stored before addresses were confirmed shows no banner; the server's answer follows at once.
    return { uid, email, emailConfirmed: emailConfirmed !== false };
  } catch {
    return null;
  }
}

// Storage can be unavailable (private modes, quotas); the app still works from the server session.
export function writeHint(user: SessionUser): void {
  try {
    localStorage.setItem(key, JSON.stringify(user));
  } catch {}
}

export function clearHint(): void {
  try {
    localStorage.removeItem(key);
  } catch {}
}
