/**
 * Every answer wears the envelope: fresh request_id and log_id (log_id is the request's id in the
 * structured log). Errors of every origin (ours, fastify's, multipart's) become envelopes with a
 * status and code from the one table; unexpected ones are logged and answered without internals.
 */
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ContractError } from '../../contract/validate.ts';
import { errorCodes, type ErrorCode } from '../../contract/errors.ts';
import { emptyErrorDetail } from '../../contract/envelope.ts';
import { EffectError } from '../pipeline/effect.ts';
import { ApiError } from '../http/api-error.ts';

declare module 'fastify' {
  interface FastifyReply {
    envelope(body?: Record<string, unknown>): FastifyReply;
    fail(code: ErrorCode, message: string, retryAfterS?: number): FastifyReply;
  }
}

export const newLogId = () => randomUUID().replace(/-/g, '');

/** fastify's own error codes that are the client's fault, mapped to ours. */
function fromFastify(err: FastifyError): ApiError | undefined {
  switch (err.code) {
    case 'FST_REQ_FILE_TOO_LARGE': return new ApiError('FILE_SIZE_EXCEEDS_LIMIT', err.message);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ApiError('ERROR_INVALID_PARAMETER', 'the body must be multipart/form-data with the image in a file part');
    case 'FST_FILES_LIMIT': case 'FST_PARTS_LIMIT': case 'FST_FIELDS_LIMIT':
      return new ApiError('ERROR_INVALID_PARAMETER', `too many form parts: ${err.message}`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE': return new ApiError('FILE_SIZE_EXCEEDS_LIMIT', 'the request body is too large');
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return new ApiError('ERROR_INVALID_PARAMETER', err.message);
  // busboy's own complaints about a malformed multipart body.
  if (/multipart|boundary|Unexpected end of form/i.test(err.message)) return new ApiError('ERROR_INVALID_PARAMETER', `malformed multipart body: ${err.message}`);
  return undefined;
}

export default fp(async (app) => {
  app.decorateRequest('requestId', '');
  app.addHook('onRequest', async (req) => { (req as FastifyRequest & { requestId: string }).requestId = randomUUID(); });

  app.decorateReply('envelope', function (this: FastifyReply, body: Record<string, unknown> = {}) {
    const req = this.request as FastifyRequest & { requestId: string };
    return this.type('application/json').send({ request_id: req.requestId, log_id: req.id, error_detail: emptyErrorDetail(), ...body });
  });

  app.decorateReply('fail', function (this: FastifyReply, code: ErrorCode, message: string, retryAfterS?: number) {
    const req = this.request as FastifyRequest & { requestId: string };
    const { status, summary } = errorCodes[code];
    if (retryAfterS !== undefined) this.header('Retry-After', String(retryAfterS));
    if (status >= 500) req.log.warn({ code, message }, 'request failed');
    else req.log.info({ code, message }, 'request refused');
    return this.code(status).type('application/json')
      .send({ request_id: req.requestId, log_id: req.id, error_detail: { code, code_message: summary, message } });
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ApiError) return reply.fail(err.code, err.message, err.retryAfterS);
    if (err instanceof ContractError || err instanceof EffectError) {
      const retry = err.code === 'EXCEEDING_LIMITS' || err.code === 'ERROR_INSUFFICIENT_RESOURCES' ? 5 : undefined;
      return reply.fail(err.code, err.message, retry);
    }
    const mapped = fromFastify(err);
    if (mapped) return reply.fail(mapped.code, mapped.message);
    req.log.error({ err }, 'unexpected failure');
    return reply.fail('PROCESSING_FAILURE', 'the request could not be processed; see the engine log under this log_id');
  });

  app.setNotFoundHandler((req, reply) =>
    reply.fail('ERROR_AI_NOT_EXISTS', `no endpoint at ${req.method} ${req.url.split('?')[0]}; see /docs for the list`));
});
