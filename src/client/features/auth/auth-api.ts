import type { SessionUser } from '../../../shared/api';
import type { Credentials } from '../../../shared/validation';
import { request } from '../../lib/api';

export type AuthMode = 'signup' | 'login';

export async function authenticate(mode: AuthMode, credentials: Credentials): Promise<SessionUser> {
  const path = mode === 'signup' ? '/api/auth/signup' : '/api/auth/login';
  const { user } = await request<{ user: SessionUser }>('POST', path, credentials);
  return user;
}
