/** The database errors the app answers for itself, recognised on both SQLite and PostgreSQL. */
const codes = {
  unique: ['SQLITE_CONSTRAINT_UNIQUE', '23505'],
  foreignKey: ['SQLITE_CONSTRAINT_FOREIGNKEY', '23503'],
} as const;

export function isConstraintViolation(error: unknown, kind: keyof typeof codes): boolean {
  const code = (error as { code?: unknown })?.code;
  return (codes[kind] as readonly unknown[]).includes(code);
}
