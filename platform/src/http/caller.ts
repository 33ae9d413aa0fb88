import {
  type Actor,
  type Capability,
  type CommandContext,
  can,
  type Decider,
  type Principal,
  refusalFor,
  streams,
  type TypedEvent,
  type UserState,
  userDecider,
} from '@shiftcover/domain';
import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors';

/** Who is calling, as permission checks and events name them. */
export interface Caller {
  principal: Principal;
  actor: Actor;
}

export interface SignedIn extends Caller {
  user: UserState;
}

/** What `signedIn` needs of the write side: a stream folded by its decider (the command handler). */
export interface StreamLoader {
  load<C, E extends TypedEvent, S>(streamId: string, decider: Decider<C, E, S>): Promise<{ state: S }>;
}

/** What `caller` needs: a user's principal as it is now, or null for no active user. */
export interface PrincipalLookup {
  of(userId: string): Promise<Principal | null>;
}

/** The signed-in user as they are now (role changes apply at once), or 401. */
export async function signedIn(request: FastifyRequest, loader: StreamLoader): Promise<SignedIn> {
  const session = request.session;
  if (!session) throw new HttpError(401, 'Unauthorized');
  const { state: user } = await loader.load(streams.user(session.userId), userDecider);
  if (user.status !== 'active') throw new HttpError(401, 'Unauthorized');
  const principal = { userId: user.userId, role: user.role, superAdmin: user.superAdmin };
  return { principal, user, actor: { kind: 'user', ...principal } };
}

/** The same as `signedIn` for a route that needs only who is calling, not their account's details. */
export async function caller(request: FastifyRequest, principals: PrincipalLookup): Promise<Caller> {
  const session = request.session;
  if (!session) throw new HttpError(401, 'Unauthorized');
  const principal = await principals.of(session.userId);
  if (!principal) throw new HttpError(401, 'Unauthorized');
  return { principal, actor: { kind: 'user', ...principal } };
}

/** docs/product.md §6 on the server: the same matrix the screens use. */
export function requireCapability(who: Caller, capability: Capability): void {
  if (!can(who.principal, capability)) throw new HttpError(403, refusalFor(capability));
}

/** The actor and the moment a command is decided at: the deps' clock, else now. */
export function commandContext(actor: Actor, deps: { clock?: () => Date }): CommandContext {
  return { actor, now: deps.clock?.() ?? new Date() };
}
