/**
 * Every answer wears the envelope: fresh request_id and log_id (log_id is the request's id in the
 * structured log). Errors of every origin (ours, fastify's, multipart's, node's HTTP parser's) become
 * envelopes with a status and code from the one table; unexpected ones are logged and answered without
 * internals. `httpLayerOptions` are the server options for the answers given before any route runs.
 */
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyHttpOptions, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CodedError, errorCodes, type ErrorCode } from '../../contract/errors.ts';
import { emptyErrorDetail } from '../../contract/envelope.ts';
import { drainBody } from '../http/drain.ts';

declare module 'fastify' {
  interface FastifyReply {
    envelope(body?: Record<string, unknown>): FastifyReply;
    fail(code: ErrorCode, message: string, opts?: FailOptions): FastifyReply;
  }
}

export interface FailOptions {
  /** Sent as Retry-After. */
  retryAfterS?: number;
  /** Where HTTP has a closer status than the code's own (408 for an upload cut off). */
  status?: number;
  /** Members of the answer between log_id and error_detail (a failed task's task_id and task_status). */
  members?: Record<string, unknown>;
}

export const newLogId = () => randomUUID().replace(/-/g, '');

/**
 * Replies whose answer has begun (fail or envelope called). fastify's own `reply.sent` turns true only once
 * the answer is written, and ours waits in onSend for an unread body to arrive: meanwhile fastify would run
 * the next hooks and the route itself (and a route that takes a waiting place and then sees its client
 * gone would never give it back). A hook that answers stops the request here, whatever happens next.
 */
const answering = new WeakSet<FastifyReply>();
/** Requests whose upload was cut off (see markCutOff): their answer does not wait for the rest of the body. */
const cutOff = new WeakSet<FastifyRequest>();
export const markCutOff = (req: FastifyRequest) => { cutOff.add(req); };
export const isAnswering = (reply: FastifyReply) => answering.has(reply) || reply.sent;

type WithRequestId = FastifyRequest & { requestId: string };
/** The request's request_id, made on first use (answers given before the onRequest hooks have none yet). */
const requestIdOf = (req: FastifyRequest) => ((req as WithRequestId).requestId ||= randomUUID());

/**
 * On every answer: no content sniffing, and a CSP that allows nothing (the engine serves JSON and result
 * images, never a page: a result opened in a browser gets no scripts, forms or framing). /docs sets its own.
 */
export const securityHeaders = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
} as const;

function failure(code: ErrorCode, message: string, logId: string, requestId: string, members: Record<string, unknown> = {}) {
  return { request_id: requestId, log_id: logId, ...members, error_detail: { code, code_message: errorCodes[code].summary, message } };
}

/**
 * Node's HTTP parser refused the bytes (malformed request line or headers, headers over the size limit,
 * Content-Length with Transfer-Encoding, a request that took too long): no request exists, so the answer
 * is written on the socket, which then closes, as node's own handler does. Status as HTTP has it (431
 * and 408 have no row of their own in the table; the code is the client's-fault one).
 */
function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let message = `the request could not be parsed as HTTP/1.1 (${err.code ?? err.message})`;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    message = 'the request line and headers are larger than the 16 KB the engine reads';
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    message = 'the request was not received in time';
  } else if (err.code === 'HPE_INVALID_METHOD' || err.code === 'HPE_INVALID_URL' || err.code === 'HPE_INVALID_VERSION' || err.code === 'HPE_INVALID_CONSTANT') {
    message = `malformed request line (${err.code})`;
  } else if (err.code === 'HPE_INVALID_HEADER_TOKEN' || err.code === 'HPE_LF_EXPECTED' || err.code === 'HPE_CR_EXPECTED') {
    message = `malformed header (${err.code})`;
  } else if (err.code === 'HPE_UNEXPECTED_CONTENT_LENGTH' || err.code === 'HPE_INVALID_CONTENT_LENGTH' || err.code === 'HPE_INVALID_TRANSFER_ENCODING') {
    message = `invalid Content-Length or Transfer-Encoding (${err.code})`;
  }
  const logId = newLogId();
  this.log.info({ log_id: logId, err_code: err.code, status }, 'malformed request refused');
  // Like node: answer only when no response on this socket has begun.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify(failure('ERROR_INVALID_PARAMETER', message, logId, randomUUID()));
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n`
      + Object.entries(securityHeaders).map(([k, v]) => `${k}: ${v}\r\n`).join('')
      + `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

/**
 * fastify's router refused the URL before routing (a bad percent-escape, a path parameter over its
 * length limit): the reply here is a bare one, without our decorators or hooks, so it is written whole.
 */
function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const [code, message]: [ErrorCode, string] = err.code === 'FST_ERR_MAX_PARAM_LENGTH'
    ? ['ERROR_AI_NOT_EXISTS', 'no endpoint or result at this path (a path segment is over 100 characters)']
    : ['ERROR_INVALID_PARAMETER', `the path is not a valid URL path (${err.message})`];
  req.log.info({ code, message }, 'request refused');
  reply.code(errorCodes[code].status).headers(securityHeaders).type('application/json; charset=utf-8')
    .send(JSON.stringify(failure(code, message, req.id, requestIdOf(req))));
}

/** Server options for answers given outside any route; spread into Fastify({...}). */
export const httpLayerOptions: Pick<FastifyHttpOptions<Server>, 'clientErrorHandler' | 'frameworkErrors' | 'http'> = {
  clientErrorHandler,
  frameworkErrors: frameworkErrors as FastifyHttpOptions<Server>['frameworkErrors'],
  // node would answer a Host-less HTTP/1.1 request with an empty 400 itself; the hook below answers it.
  http: { requireHostHeader: false },
};

/** fastify's own error codes that are the client's fault, mapped to ours. */
function fromFastify(err: FastifyError): CodedError | undefined {
  switch (err.code) {
    case 'FST_REQ_FILE_TOO_LARGE': return new CodedError('FILE_SIZE_EXCEEDS_LIMIT', err.message);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new CodedError('ERROR_INVALID_PARAMETER', 'the body must be multipart/form-data with the image in a file part');
    case 'FST_FILES_LIMIT': case 'FST_PARTS_LIMIT': case 'FST_FIELDS_LIMIT':
      return new CodedError('ERROR_INVALID_PARAMETER', `too many form parts: ${err.message}`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE': return new CodedError('FILE_SIZE_EXCEEDS_LIMIT', 'the request body is too large');
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return new CodedError('ERROR_INVALID_PARAMETER', err.message);
  // busboy's own complaints about a malformed multipart body.
  if (/multipart|boundary|Unexpected end of form/i.test(err.message)) return new CodedError('ERROR_INVALID_PARAMETER', `malformed multipart body: ${err.message}`);
  return undefined;
}

export default fp(async (app) => {
  app.decorateRequest('requestId', '');
  // Registered first, so it runs before every other preParsing hook and the route: a request answered by
  // an onRequest hook (no key, no Host, shutting down) goes no further. Not calling done ends the chain,
  // as fastify does itself for a reply already sent.
  app.addHook('preParsing', (_req, reply, payload, done) => {
    if (!isAnswering(reply)) done(null, payload);
  });
  app.addHook('onRequest', async (req, reply) => {
    requestIdOf(req);
    if (req.raw.httpVersion === '1.1' && req.headers.host === undefined) {
      return reply.fail('ERROR_INVALID_PARAMETER', 'an HTTP/1.1 request needs a Host header');
    }
  });

  app.addHook('onSend', async (req, reply) => {
    reply.header('X-Content-Type-Options', securityHeaders['X-Content-Type-Options']);
    if (!reply.hasHeader('Content-Security-Policy')) reply.header('Content-Security-Policy', securityHeaders['Content-Security-Policy']);
    // An answer before the upload was read waits for the rest of it, so it reaches the client whole;
    // unless the upload itself was cut off (stalled): that answer closes the connection without waiting.
    if (!req.raw.complete && cutOff.has(req)) {
      reply.header('Connection', 'close');
      reply.raw.once('finish', () => req.raw.socket?.destroy());
    } else if (!req.raw.complete && !(await drainBody(req.raw))) {
      req.log.info('stopped discarding an unread request body at its bound; closing the connection');
      reply.header('Connection', 'close');
    }
  });

  app.decorateReply('envelope', function (this: FastifyReply, body: Record<string, unknown> = {}) {
    if (isAnswering(this)) return this;
    answering.add(this);
    const req = this.request;
    return this.type('application/json').send({ request_id: requestIdOf(req), log_id: req.id, error_detail: emptyErrorDetail(), ...body });
  });

  app.decorateReply('fail', function (this: FastifyReply, code: ErrorCode, message: string, opts: FailOptions = {}) {
    if (isAnswering(this)) return this;
    answering.add(this);
    const req = this.request;
    const status = opts.status ?? errorCodes[code].status;
    if (opts.retryAfterS !== undefined) this.header('Retry-After', String(opts.retryAfterS));
    if (status >= 500) req.log.warn({ code, message }, 'request failed');
    else req.log.info({ code, message }, 'request refused');
    return this.code(status).type('application/json').send(failure(code, message, req.id, requestIdOf(req), opts.members));
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof CodedError) {
      // Too busy and shutting down are worth retrying soon, wherever they were found (a worker, the pool).
      const busy = err.code === 'EXCEEDING_LIMITS' || err.code === 'ERROR_INSUFFICIENT_RESOURCES';
      return reply.fail(err.code, err.message, { retryAfterS: err.retryAfterS ?? (busy ? 5 : undefined), status: err.status });
    }
    const mapped = fromFastify(err);
    if (mapped) return reply.fail(mapped.code, mapped.message);
    req.log.error({ err }, 'unexpected failure');
    return reply.fail('PROCESSING_FAILURE', 'the request could not be processed; see the engine log under this log_id');
  });

  app.setNotFoundHandler((req, reply) =>
    reply.fail('ERROR_AI_NOT_EXISTS', `no endpoint at ${req.method} ${req.url.split('?')[0]}; see /docs for the list`));
});
