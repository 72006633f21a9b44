/**
 * The constraint a unique violation (SQLSTATE 23505) broke, or undefined for any other error.
 * drizzle wraps driver errors in `cause`; node-postgres reports `code` and `constraint`.
 */
export function uniqueViolation(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (candidate.code === '23505') return typeof candidate.constraint === 'string' ? candidate.constraint : '';
    current = candidate.cause;
  }
  return undefined;
}
