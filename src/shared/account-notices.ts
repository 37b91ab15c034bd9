/**
 * What the account pages say after a change of the account (and signup-login after the log-out it ends with): a module apart
 * from `notices` (src/shared/notices.ts), which every page's first load carries: only those pages need them.
 */
export const accountNotices = {
  deleteNeedsRecentLogin: 'Please sign in again to delete your account.',
  accountDeleted: 'Your account has been deleted.',
  emailChanged: 'Your e-mail address has been changed. Please log in again.',
  passwordChanged: 'Your password has been changed. Please log in again.',
  passwordReset:
    'Your password has been reset: every device has been logged out and every passkey removed. Please log in again.',
  resetRequested: 'If an account exists for that address, we have sent a link to reset the password.',
} as const;
