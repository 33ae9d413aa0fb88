import {
  changeOwnPasswordRequestSchema,
  loginSchema,
  uniqueKey,
  uniquenessDecider,
  userDecider,
} from '@shiftcover/domain';
import { HttpError, hashPassword, verifyPassword } from '@shiftcover/platform';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { streams } from '../streams';
import { type CommandApiDeps, caller, commandContext, commandTrace, signedIn, written } from './context';
import { userView } from './user-view';

const INVALID_LOGIN = 'Invalid username or password';

export const authRoutes: FastifyPluginAsyncZod<CommandApiDeps> = async (app, deps) => {
  const { handler, service, throttle, sessions, principals } = deps;

  /** The account a username belongs to, found through its reservation stream. */
  async function accountOf(username: string) {
    const { state: reservation } = await handler.load(
      streams.unique('username', uniqueKey('username', username)),
      uniquenessDecider,
    );
    if (!reservation.ownerId) return null;
    const { state } = await handler.load(streams.user(reservation.ownerId), userDecider);
    return state.status === 'active' && state.personal ? state : null;
  }

  app.post('/api/auth/login', { schema: { tags: ['auth'], body: loginSchema } }, async (request, reply) => {
    const { username, password } = request.body;
    const wait = await throttle.waitFor(username, request.ip);
    if (wait > 0) {
      const minutes = Math.ceil(wait / 60);
      throw new HttpError(
        429,
        `Too many sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      );
    }
    const account = await accountOf(username);
    const valid = account?.personal ? await verifyPassword(password, account.personal.passwordHash) : false;
    if (!account || !valid) {
      await throttle.recordFailure(username, request.ip);
      throw new HttpError(401, INVALID_LOGIN);
    }
    await throttle.recordSuccess(username);
    await reply.signIn(account.userId);
    const actor = {
      kind: 'user' as const,
      userId: account.userId,
      role: account.role,
      superAdmin: account.superAdmin,
    };
    const outcome = await service.users.handle(
      { type: 'RecordSignIn', data: { userId: account.userId } },
      commandContext(actor, deps),
      commandTrace(request, actor),
    );
    return written(reply, outcome.position, userView(account));
  });

  app.post('/api/auth/logout', { schema: { tags: ['auth'] } }, async (request, reply) => {
    if (request.session) {
      const who = await caller(request, principals).catch(() => null);
      if (who) {
        await service.users.handle(
          { type: 'RecordSignOut', data: { userId: who.principal.userId } },
          commandContext(who.actor, deps),
          commandTrace(request, who.actor),
        );
      }
    }
    await reply.signOut();
    return reply.send({ message: 'Logged out' });
  });

  app.get('/api/auth/user', { schema: { tags: ['auth'] } }, async (request) => {
    const who = await signedIn(request, handler);
    return userView(who.user);
  });

  app.post(
    '/api/auth/change-password',
    { schema: { tags: ['auth'], body: changeOwnPasswordRequestSchema } },
    async (request, reply) => {
      const who = await signedIn(request, handler);
      const { currentPassword, newPassword } = request.body;
      const matches = who.user.personal
        ? await verifyPassword(currentPassword, who.user.personal.passwordHash)
        : false;
      const outcome = await service.users.handle(
        {
          type: 'ChangeOwnPassword',
          data: {
            userId: who.principal.userId,
            currentPasswordMatches: matches,
            newPasswordHash: matches ? await hashPassword(newPassword) : '',
          },
        },
        commandContext(who.actor, deps),
        commandTrace(request, who.actor),
      );
      await sessions.destroyAllFor(who.principal.userId, request.cookies.sid);
      return written(reply, outcome.position, { message: 'Your password has been updated successfully.' });
    },
  );

  app.get('/api/login', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/login'));
};
