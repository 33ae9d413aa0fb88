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
) => { statusCode: number; body: Record<string, unknown> } | undefined;

/**
 * Every failure leaves as `{ message }`: invalid input as 400 with the schema's own words, known
 * errors with their status, anything unexpected as 500 without internals.
 */
export function registerErrorHandler(app: FastifyInstance, mapError: ErrorMapping = () => undefined): void {
  app.setErrorHandler((error: FastifyError, request, reply: FastifyReply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.status(400).send({ message: error.validation[0]?.message ?? 'Invalid request' });
    }
    if (error instanceof HttpError)
      return reply.status(error.statusCode).send({ message: error.message, ...error.body });
    const mapped = mapError(error);
    if (mapped) return reply.status(mapped.statusCode).send(mapped.body);
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
