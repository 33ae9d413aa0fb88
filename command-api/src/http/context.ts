import { createHash, randomUUID } from 'node:crypto';
import {
  type Actor,
  type Capability,
  type CommandContext,
  can,
  DomainError,
  entityId,
  type Principal,
  type RejectionCode,
  refusalFor,
  type UserState,
  userDecider,
  uuidFromDigest,
} from '@shiftcover/domain';
import { type CommandHandler, type CommandTrace, RetriesExhausted } from '@shiftcover/eventstore';
import { type ErrorMapping, HttpError, type LoginThrottle, type SessionStore } from '@shiftcover/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CommandService } from '../command-service';
import { streams } from '../streams';
import type { Principals } from './principals';

export interface CommandApiDeps {
  service: CommandService;
  handler: CommandHandler;
  principals: Principals;
  sessions: SessionStore;
  throttle: LoginThrottle;
  clock?: () => Date;
}

/** The `{id}` of a route: refused before any lookup unless it could be a stored id. */
export const idParams = z.object({ id: entityId });

/** Who is calling, as permission checks and events name them. */
export interface Caller {
  principal: Principal;
  actor: Actor;
}

export interface SignedIn extends Caller {
  user: UserState;
}

/** The signed-in user as they are now (role changes apply at once), or 401. */
export async function signedIn(request: FastifyRequest, handler: CommandHandler): Promise<SignedIn> {
  const session = request.session;
  if (!session) throw new HttpError(401, 'Unauthorized');
  const { state: user } = await handler.load(streams.user(session.userId), userDecider);
  if (user.status !== 'active') throw new HttpError(401, 'Unauthorized');
  const principal = { userId: user.userId, role: user.role, superAdmin: user.superAdmin };
  return { principal, user, actor: { kind: 'user', ...principal } };
}

/** The same as `signedIn` for a route that needs only who is calling, not their account's details. */
export async function caller(request: FastifyRequest, principals: Principals): Promise<Caller> {
  const session = request.session;
  if (!session) throw new HttpError(401, 'Unauthorized');
  const principal = await principals.of(session.userId);
  if (!principal) throw new HttpError(401, 'Unauthorized');
  return { principal, actor: { kind: 'user', ...principal } };
}

/** SPEC §6 on the server: the same matrix the screens use. */
export function requireCapability(who: Caller, capability: Capability): void {
  if (!can(who.principal, capability)) throw new HttpError(403, refusalFor(capability));
}

export function commandContext(actor: Actor, deps: CommandApiDeps): CommandContext {
  return { actor, now: deps.clock?.() ?? new Date() };
}

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
export const idempotencyKey = (request: FastifyRequest) =>
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
export function commandTrace(request: FastifyRequest, actor: Actor): CommandTrace {
  const key = idempotencyKey(request);
  const who = actor.kind === 'user' ? actor.userId : actor.name;
  const commandId = key
    ? uuidFrom(`${who}\u0000${request.method}\u0000${request.routeOptions.url}\u0000${key}`)
    : randomUUID();
  return { commandId, correlationId: request.id };
}

/** Ids of things a command creates derive from the command, so a retried create names the same thing. */
export function newId(trace: CommandTrace, kind: string): string {
  return uuidFrom(`${trace.commandId}\u0000${kind}`);
}

function uuidFrom(text: string): string {
  return uuidFromDigest(createHash('sha256').update(text).digest('hex'));
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

const STATUS: Partial<Record<RejectionCode, number>> = {
  invalid: 400,
  wrong_password: 400,
  forbidden: 403,
  self_action: 403,
  not_assignee: 403,
  not_recipient: 403,
  not_sender: 403,
  not_found: 404,
  insufficient_notice: 422,
  shift_started: 422,
  invalid_recipient: 422,
  not_an_admin: 422,
  too_early_to_complete: 422,
  not_ended: 422,
};

/** Domain rejections in the forms SPEC §8 reads: `{ message, code }`, conflicts with errorType. */
export const mapDomainError: ErrorMapping = (error) => {
  if (error instanceof RetriesExhausted) {
    return {
      statusCode: 503,
      body: { message: 'The system is busy with other changes to this item. Please try again.' },
    };
  }
  if (!(error instanceof DomainError)) return undefined;
  const body: Record<string, unknown> = { message: error.message, code: error.code };
  if (error.code === 'shift_conflict') body.errorType = 'shift_conflict';
  return { statusCode: STATUS[error.code] ?? 409, body };
};

export type { LoginThrottle, SessionStore };
