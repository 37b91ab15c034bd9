import { call } from './api';

/** Ends the server's session. The caller signs out locally whatever happens: a failed call keeps nobody in. */
export async function endServerSession(): Promise<void> {
  await call('logOut').catch(() => {});
}
