/**
 * The exact texts of the page messages (docs/product.md §6), apart from the server's catalogue (errors.ts), so that a
 * page shows them without loading every error message of the API.
 */
export const notices = {
  unexpected: 'Something went wrong. Please try again.',
  unreachable: 'The shop could not be reached. Check your connection and try again.',
  addFailed: 'Error adding document.',
  deleteFailed: 'Error deleting document',
  /** Signup-login, to a visitor who chose 'Checkout' in a shop open to everyone (docs/product.md §23). */
  checkOutSignedIn: 'Sign up or log in to check out. Your cart is kept.',
} as const;
