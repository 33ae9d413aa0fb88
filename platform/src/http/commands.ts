import { hash, randomUUID } from 'node:crypto';
import { type Actor, entityId, uuidFromDigest } from '@shiftcover/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from './errors';

/** How a request's command is traced: its id makes it idempotent, the request id correlates its events. */
export interface RequestTrace {
  commandId: string;
  correlationId: string;
}

/** The `{id}` of a route: refused before any lookup unless it could be a stored id. */
export const idParams = z.object({ id: entityId });

const TOKEN = /^[\x21-\x7e]{1,200}$/;

/** A header holding a client's token: at most 200 visible ASCII characters (a UUID, say), else 400. */
function headerToken(request: FastifyRequest, name: string, label: string): string | undefined {
  const header = request.headers[name];
  if (header === undefined) return undefined;
  const token = typeof header === 'string' ? header.trim() : '';
  if (token === '') return undefined;
  if (!TOKEN.test(token))
    throw new HttpError(400, `${label} must be 1 to 200 visible characters without spaces`);
  return token;
}

/** The client's Idempotency-Key, if it sent one. */
const idempotencyKey = (request: FastifyRequest) =>
  headerToken(request, 'idempotency-key', 'Idempotency-Key');

/**
 * The headers whose values the product keeps: the Idempotency-Key (a command's id derives from
 * it) and X-Request-Id (every event's correlation id). Checked as a request arrives, before any
 * route runs.
 */
export function checkRequestHeaders(request: FastifyRequest): void {
  idempotencyKey(request);
  headerToken(request, 'x-request-id', 'X-Request-Id');
}

/**
 * A command's id: from the client's Idempotency-Key when given (scoped to the user, so a retry
 * finds the first result), else fresh.
 */
export function commandTrace(request: FastifyRequest, actor: Actor): RequestTrace {
  const key = idempotencyKey(request);
  const who = actor.kind === 'user' ? actor.userId : actor.name;
  const commandId = key
    ? uuidFrom(`${who}\u0000${request.method}\u0000${request.routeOptions.url}\u0000${key}`)
    : randomUUID();
  return { commandId, correlationId: request.id };
}

/** Ids of things a command creates derive from the command, so a retried create names the same thing. */
export function newId(trace: { commandId: string }, kind: string): string {
  return uuidFrom(`${trace.commandId}\u0000${kind}`);
}

function uuidFrom(text: string): string {
  return uuidFromDigest(hash('sha256', text, 'hex'));
}

/** A successful write: its body plus the global position a client waits for to read its own write. */
export function written(
  reply: FastifyReply,
  position: bigint,
  body: Record<string, unknown> = {},
  status = 200,
) {
  reply.header('x-position', position.toString());
  return reply.status(status).send({ ...body, position: position.toString() });
}
