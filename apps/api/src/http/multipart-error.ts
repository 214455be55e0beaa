import { ApiError } from './api-error';

/** The caps a multipart route reads files under (AppConfig['showcases']). */
export interface MultipartLimits {
  maxFileBytes: number;
  maxFilesPerRequest: number;
}

/**
 * @fastify/multipart's and busboy's errors as the API's: a limit -> 413 naming the documented cap, a body that
 * cannot be read -> 400 `invalid_multipart`; anything else (a storage failure) is returned as it is, a 5xx.
 * One mapping for every multipart route (showcase items, catalogue imports).
 */
export function multipartError(e: unknown, limits: MultipartLimits): unknown {
  const code = (e as { code?: string }).code;
  if (code === 'FST_INVALID_JSON_FIELD_ERROR') {
    return new ApiError(
      400,
      'invalid_request_error',
      'parameter_invalid',
      'a form field declared application/json is not valid JSON (items: a JSON array, one entry per file part)',
      'items',
    );
  }
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return new ApiError(
      413,
      'payload_too_large',
      'file_too_large',
      `files: each file may be at most ${limits.maxFileBytes} bytes`,
      'files',
    );
  }
  if (code === 'FST_FILES_LIMIT') {
    return new ApiError(
      413,
      'payload_too_large',
      'too_many_files',
      `files: at most ${limits.maxFilesPerRequest} files per request`,
      'files',
    );
  }
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new ApiError(413, 'payload_too_large', 'too_many_parts', 'too many form parts', 'files');
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_PROTO_VIOLATION') {
    return new ApiError(
      400,
      'invalid_request_error',
      'invalid_multipart',
      'the multipart body could not be read; nothing was stored or charged',
    );
  }
  // Busboy's parse errors have no code, only these messages; anything else (a storage failure) stays a 5xx.
  const message = e instanceof Error ? e.message : '';
  if (code === 'FST_MP_PREMATURE_CLOSE' || /unexpected end of multipart data/i.test(message)) {
    return new ApiError(
      400,
      'invalid_request_error',
      'invalid_multipart',
      'the multipart body ended before its closing boundary (a truncated upload?); nothing was stored or charged',
    );
  }
  if (/boundary not found/i.test(message)) {
    return new ApiError(
      400,
      'invalid_request_error',
      'invalid_multipart',
      'the multipart/form-data Content-Type has no boundary parameter',
    );
  }
  return e;
}
