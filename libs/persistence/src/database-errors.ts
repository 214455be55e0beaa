/** Node socket errors that mean "the database server cannot be reached". */
const NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

// SQLSTATE: class 08 connection exceptions; 57P01-03 server shutting down / starting; 53300 too many
// connections; 57014 a statement cancelled by statement_timeout (the server is overloaded or stuck).
const SQLSTATE = /^(08...|57P0[123]|53300|57014)$/;

// pg / TypeORM messages that carry no code.
const MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|not queryable|Connection is not established|Cannot use a pool after calling end|the database system is (starting up|shutting down)/i;

/**
 * True when an error means the database is unreachable or stuck, rather than that the query or the
 * data is wrong. The API answers these with 503 + Retry-After; workers wait for the database instead
 * of spending a job attempt.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (NET_CODES.has(e.code) || SQLSTATE.test(e.code))) return true;
  if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(e.driverError, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1);
}

/** A foreign key refused the row (Postgres 23503): what it points at is gone. */
export function isForeignKeyViolation(e: unknown): boolean {
  const err = e as { code?: string; driverError?: { code?: string } };
  return (err.code ?? err.driverError?.code) === '23503';
}

/** A unique index refused the row (Postgres 23505), naming the index when the driver says which. */
export function isUniqueViolation(e: unknown, index: string): boolean {
  const err = e as { code?: string; constraint?: string; message?: string; driverError?: { code?: string; constraint?: string } };
  const code = err.code ?? err.driverError?.code;
  const constraint = err.constraint ?? err.driverError?.constraint ?? '';
  return code === '23505' && (constraint === index || String(err.message ?? '').includes(index));
}
