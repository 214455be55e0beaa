import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ExternalIdTakenError,
  InsufficientCreditsError,
  isDatabaseUnavailable,
  NoShowcaseSlotsError,
  ShowcaseFullError,
  ShowcaseGoneError,
} from '@app/persistence';
import { UserError } from '@app/pipeline';
import { ApiError, type ApiErrorType } from './api-error';

const TYPE_BY_STATUS: Record<number, ApiErrorType> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'insufficient_credits',
  403: 'permission_error',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

const DB_RETRY_AFTER_S = 5;

/**
 * The one place errors become HTTP: `{ error: { type, code, message, param?, request_id } }`.
 * 5xx answers carry the request id and no internals; the details go to the log.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    const req = ctx.getRequest<FastifyRequest>();
    const requestId = String(req.id);
    let status = 500;
    let body: { type: ApiErrorType; code: string; message: string; param?: string };

    if (exception instanceof ApiError) {
      status = exception.status;
      for (const [name, value] of Object.entries(exception.headers ?? {})) void reply.header(name, value);
      body = { type: exception.type, code: exception.code, message: exception.message, param: exception.param };
    } else if (exception instanceof InsufficientCreditsError) {
      // Charges are all or nothing: the transaction that refused wrote nothing.
      status = 402;
      body = {
        type: 'insufficient_credits',
        code: 'insufficient_credits',
        message: `this needs ${exception.neededCents / 100} credits; the balance is ${exception.balanceCents / 100}. Nothing was created or charged.`,
      };
    } else if (exception instanceof NoShowcaseSlotsError) {
      status = 403;
      body = {
        type: 'permission_error',
        code: 'no_showcase_slots',
        message: `${exception.message}; ask the operator for more showcase slots`,
      };
    } else if (exception instanceof ExternalIdTakenError) {
      status = 409;
      body = { type: 'conflict', code: 'external_id_taken', message: exception.message, param: exception.param };
    } else if (exception instanceof ShowcaseGoneError) {
      // Deleted while the request was adding to it (a racing DELETE): as if the DELETE had come first.
      status = 404;
      body = { type: 'not_found', code: 'resource_missing', message: `showcase ${exception.showcaseId} not found` };
    } else if (exception instanceof ShowcaseFullError) {
      status = 400;
      body = { type: 'invalid_request_error', code: 'too_many_items', message: exception.message };
    } else if (exception instanceof UserError) {
      status = 400;
      body = { type: 'invalid_request_error', code: exception.code, message: exception.message, param: exception.param };
    } else if (exception instanceof HttpException) {
      status = exception.getStatus();
      const r = exception.getResponse();
      const message = typeof r === 'string' ? r : String((r as { message?: unknown }).message ?? exception.message);
      body = { type: TYPE_BY_STATUS[status] ?? 'api_error', code: status === 404 ? 'route_not_found' : `http_${status}`, message };
    } else if (isFastifyError(exception)) {
      status = exception.statusCode;
      body = {
        type: TYPE_BY_STATUS[status] ?? 'invalid_request_error',
        code: exception.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'body_too_large' : 'invalid_body',
        message: exception.message,
      };
    } else if (isDatabaseUnavailable(exception)) {
      // A dependency outage, not a bug: clients may retry (an Idempotency-Key makes that safe).
      status = 503;
      void reply.header('retry-after', String(DB_RETRY_AFTER_S));
      body = { type: 'api_error', code: 'service_unavailable', message: `the database is unavailable; retry in ${DB_RETRY_AFTER_S} s` };
    } else {
      body = { type: 'api_error', code: 'internal_error', message: 'internal error; quote the request_id when reporting it' };
    }
    if (exception instanceof ApiError && status >= 500) {
      // A refusal the code chose (`busy`: visitor wall builds queued full, `storage_unavailable`): what it is,
      // not a database outage and not a bug, so a stranger's traffic trips neither alert.
      this.logger.warn(`request ${requestId}: ${status} ${exception.code}: ${exception.message}`);
    } else if (status === 503) {
      this.logger.warn(`request ${requestId}: database unavailable: ${exception instanceof Error ? exception.message : String(exception)}`);
    } else if (status >= 500) {
      this.logger.error(`request ${requestId} failed: ${exception instanceof Error ? exception.stack : String(exception)}`);
    }
    if (body.param === undefined) delete body.param;
    void reply
      .status(status)
      .header('content-type', 'application/json; charset=utf-8')
      .send({ error: { ...body, request_id: requestId } });
  }
}

function isFastifyError(e: unknown): e is { statusCode: number; code: string; message: string } {
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof (e as { statusCode?: unknown }).statusCode === 'number' &&
    (e as { statusCode: number }).statusCode >= 400 &&
    (e as { statusCode: number }).statusCode < 500
  );
}
