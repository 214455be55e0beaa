/** Error types of the public error format (DESIGN §3). */
export type ApiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'insufficient_credits'
  | 'permission_error'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'api_error';

/** A client-facing error. Mapped to HTTP once, by {@link HttpErrorFilter}. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ApiErrorType,
    readonly code: string,
    message: string,
    readonly param?: string,
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static invalid(param: string, message: string, code = 'parameter_invalid'): ApiError {
    return new ApiError(400, 'invalid_request_error', code, message, param);
  }

  static notFound(what: string): ApiError {
    return new ApiError(404, 'not_found', 'resource_missing', `${what} not found`);
  }

  static unauthorized(message: string): ApiError {
    return new ApiError(401, 'authentication_error', 'invalid_api_key', message);
  }
}
