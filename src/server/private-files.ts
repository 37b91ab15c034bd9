// The shop's files hold password hashes, sessions and addresses: only the account the shop runs as may read them.
// They are created private (never loosened and then tightened, which would leave a moment when anyone can read).
import { closeSync, mkdirSync, openSync } from 'node:fs';

/** Makes `folder` and any missing parent readable by the shop's account only; one that exists keeps its mode. */
export function makePrivateFolder(folder: string): string | undefined {
  return mkdirSync(folder, { recursive: true, mode: 0o700 });
}

/**
 * Creates `file` empty, readable and writable by the shop's account only, and fails if anything already has the
 * name, a symbolic link included (even one that leads nowhere): O_CREAT | O_EXCL never follows a link.
 */
export function createPrivateFile(file: string): void {
  closeSync(openSync(file, 'wx', 0o600));
}
