import { request } from '../../lib/api';

export function changeEmail(email: string): Promise<void> {
  return request('PUT', '/api/account/email', { email });
}

export function changePassword(password: string): Promise<void> {
  return request('PUT', '/api/account/password', { password });
}

export function deleteAccount(): Promise<void> {
  return request('DELETE', '/api/account');
}
