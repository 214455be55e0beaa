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
