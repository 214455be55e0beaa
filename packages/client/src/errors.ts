/** The service's error object: `{ error: { type, code, message, param?, request_id } }`. */
export interface ApiErrorBody {
  type: string;
  code: string;
  message: string;
  param?: string;
  request_id: string;
}

/** An error answer of the API (4xx/5xx), or a network failure (status 0, code "network_error"). */
export class ImageArError extends Error {
  override readonly name: string = 'ImageArError';
  /** HTTP status; 0 when no answer came (network failure). */
  readonly status: number;
  /** Error type, e.g. invalid_request_error, authentication_error, not_found, rate_limited. */
  readonly type: string;
  /** Stable machine-readable code, e.g. parameter_invalid, invalid_api_key, resource_missing. */
  readonly code: string;
  /** The request field at fault, when there is one. */
  readonly param?: string;
  /** Quote it when reporting a problem. */
  readonly requestId?: string;
  /** Seconds from Retry-After (429, 503), when given. */
  readonly retryAfterS?: number;

  constructor(init: {
    status: number;
    type: string;
    code: string;
    message: string;
    param?: string;
    requestId?: string;
    retryAfterS?: number;
    cause?: unknown;
  }) {
    super(init.message, init.cause !== undefined ? { cause: init.cause } : undefined);
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.param = init.param;
    this.requestId = init.requestId;
    this.retryAfterS = init.retryAfterS;
  }

  /** Worth retrying the same request later (rate limited, service unavailable, network failure, 5xx). */
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }

  /** From an answer and its (parsed) body; bodies that are not the error object still give a typed error. */
  static fromResponse(response: Response, body: unknown): ImageArError {
    const e = (body as { error?: Partial<ApiErrorBody> } | undefined)?.error;
    const retry = Number(response.headers.get('retry-after'));
    return new ImageArError({
      status: response.status,
      type: typeof e?.type === 'string' ? e.type : response.status >= 500 ? 'api_error' : 'invalid_request_error',
      code: typeof e?.code === 'string' ? e.code : `http_${response.status}`,
      message: typeof e?.message === 'string' ? e.message : `HTTP ${response.status} ${response.statusText}`.trim(),
      param: typeof e?.param === 'string' ? e.param : undefined,
      requestId: typeof e?.request_id === 'string' ? e.request_id : undefined,
      retryAfterS: Number.isFinite(retry) && response.headers.has('retry-after') ? retry : undefined,
    });
  }
}

/** waitForJob: the job ended with status failed (its error code and message, e.g. "cancelled"). */
export class JobFailedError extends Error {
  override readonly name: string = 'JobFailedError';
  constructor(
    readonly jobId: string,
    readonly code: string,
    message: string,
    /** The final job as the API showed it. */
    readonly job: unknown,
  ) {
    super(`job ${jobId} failed: ${code}: ${message}`);
  }
}

/** waitForJob: the job did not end within timeoutMs. */
export class JobTimeoutError extends Error {
  override readonly name: string = 'JobTimeoutError';
  constructor(
    readonly jobId: string,
    readonly timeoutMs: number,
    /** The last state seen. */
    readonly lastJob: unknown,
  ) {
    super(`job ${jobId} did not finish within ${timeoutMs} ms`);
  }
}

/** verifyWebhook: the signature, timestamp or headers do not check out. */
export class WebhookVerificationError extends Error {
  override readonly name: string = 'WebhookVerificationError';
}
