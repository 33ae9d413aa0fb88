import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** An error that already knows its HTTP answer. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export type ErrorMapping = (
  error: unknown,
) => { statusCode: number; body: Record<string, unknown>; headers?: Record<string, string> } | undefined;

export const DATABASE_UNAVAILABLE_MESSAGE =
  'The service is temporarily unavailable. Please try again in a moment.';
const RETRY_AFTER_SECONDS = '5';

// The `postgres` client's own codes for a lost or refused connection, and the socket errors it passes on.
const CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
]);

/**
 * A connection to a Unix socket that is not there (a stopped server removes its socket): the
 * socket's ECONNREFUSED, as a connect's ENOENT.
 */
function isSocketGone(error: unknown): boolean {
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown };
  return code === 'ENOENT' && syscall === 'connect';
}

/**
 * The database cannot be reached, or is shutting down or starting up: admin_shutdown,
 * crash_shutdown, cannot_connect_now (57P0x) and the connection exceptions (class 08).
 */
function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 3) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || /^(57P0[123]|08[0-9A-Z]{3})$/.test(code)))
    return true;
  if (isSocketGone(error)) return true;
  return isDatabaseUnavailable(error.cause, depth + 1);
}

/**
 * Every failure leaves as `{ message }`: invalid input as 400 with the schema's own words, known
 * errors with their status, the database out of reach as 503 with Retry-After, anything unexpected
 * as 500 without internals.
 */
export function registerErrorHandler(app: FastifyInstance, mapError: ErrorMapping = () => undefined): void {
  app.setErrorHandler((error: FastifyError, request, reply: FastifyReply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.status(400).send({ message: error.validation[0]?.message ?? 'Invalid request' });
    }
    if (error instanceof HttpError)
      return reply.status(error.statusCode).send({ message: error.message, ...error.body });
    const mapped = mapError(error);
    if (mapped)
      return reply
        .status(mapped.statusCode)
        .headers(mapped.headers ?? {})
        .send(mapped.body);
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', RETRY_AFTER_SECONDS)
        .send({ message: DATABASE_UNAVAILABLE_MESSAGE });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ message: clientMessage(error) });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ message: `No such route: ${request.method} ${request.url.split('?')[0]}` }),
  );
}

function clientMessage(error: FastifyError): string {
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'Unsupported content type: send JSON';
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'The request body is empty';
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return 'The request body is too large';
  if (error.statusCode === 400) return 'The request body is not valid JSON';
  return error.message;
}
