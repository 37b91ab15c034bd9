/**
 * The exact texts of the page messages (docs/product.md §6), apart from the server's catalogue (errors.ts), so that a
 * page shows them without loading every error message of the API.
 */
export const notices = {
  unexpected: 'Something went wrong. Please try again.',
  unreachable: 'The shop could not be reached. Check your connection and try again.',
  addFailed: 'Error adding document.',
  deleteFailed: 'Error deleting document',
  deleteNeedsRecentLogin: 'Please sign in again to delete your account.',
  accountDeleted: 'Your account has been deleted.',
  emailChanged: 'Your e-mail address has been changed. Please log in again.',
  passwordChanged: 'Your password has been changed. Please log in again.',
  resetRequested: 'If an account exists for that address, we have sent a link to reset the password.',
} as const;
