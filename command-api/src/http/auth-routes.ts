import { randomUUID } from 'node:crypto';
import {
  acknowledged,
  answers,
  changeOwnPasswordRequestSchema,
  loginSchema,
  uniqueKey,
  uniquenessDecider,
  userDecider,
  userViewSchema,
  writtenUserViewSchema,
} from '@shiftcover/domain';
import {
  caller,
  commandContext,
  commandTrace,
  HttpError,
  hashPassword,
  needsRehash,
  type Refused,
  signedIn,
  verifyPassword,
  written,
} from '@shiftcover/platform';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { streams } from '../streams';
import type { CommandApiDeps } from './context';
import { userView } from './user-view';

const INVALID_LOGIN = 'Invalid username or password';

/** 429 with the wait both in words and in `Retry-After`. */
function tooManyAttempts(reply: FastifyReply, refused: Refused) {
  const minutes = Math.max(1, Math.ceil(refused.retryAfter / 60));
  return reply
    .status(429)
    .header('retry-after', String(refused.retryAfter))
    .send({
      message: `Too many sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    });
}

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

  const signInSchema = {
    tags: ['auth'],
    summary: 'Sign in',
    description:
      "Signs in with a username and password and starts a session, kept in a cookie. Answers the user; a wrong username or password is refused (401, 'Invalid username or password'), and too many failed attempts are refused until the window ends (429, with Retry-After).",
    body: loginSchema,
    response: answers(writtenUserViewSchema),
  };
  app.post('/api/auth/login', { schema: signInSchema }, async (request, reply) => {
    const { username, password } = request.body;
    const admission = await throttle.admit(username, request.ip);
    if (!admission.admitted) return tooManyAttempts(reply, admission);
    const account = await accountOf(username);
    // An unknown username is checked against a stand-in hash: it answers no faster than a known one.
    const stored = account?.personal?.passwordHash;
    const valid = await verifyPassword(password, stored);
    if (!account || !stored || !valid) throw new HttpError(401, INVALID_LOGIN);
    await throttle.succeeded(admission);
    await reply.signIn(account.userId);
    const actor = {
      kind: 'user' as const,
      userId: account.userId,
      role: account.role,
      superAdmin: account.superAdmin,
    };
    if (needsRehash(stored)) {
      await service.users.handle(
        {
          type: 'UpgradePasswordHash',
          data: { userId: account.userId, newPasswordHash: await hashPassword(password) },
        },
        commandContext(actor, deps),
        // Its own command id: an Idempotency-Key on the sign-in names the sign-in's record.
        { commandId: randomUUID(), correlationId: request.id },
      );
    }
    const outcome = await service.users.handle(
      { type: 'RecordSignIn', data: { userId: account.userId } },
      commandContext(actor, deps),
      commandTrace(request, actor),
    );
    return written(reply, outcome.position, userView(account));
  });

  const signOutSchema = {
    tags: ['auth'],
    summary: 'Sign out',
    description: "Ends the caller's session, if there is one. Answers 'Logged out'.",
    response: answers(z.object({ message: z.string() })),
  };
  app.post('/api/auth/logout', { schema: signOutSchema }, async (request, reply) => {
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

  const currentUserSchema = {
    tags: ['auth'],
    summary: 'The signed-in user',
    description: 'Answers the signed-in user, or 401 when nobody is signed in.',
    response: answers(userViewSchema),
  };
  app.get('/api/auth/user', { schema: currentUserSchema }, async (request) => {
    const who = await signedIn(request, handler);
    return userView(who.user);
  });

  app.post(
    '/api/auth/change-password',
    {
      schema: {
        tags: ['auth'],
        summary: "Change one's own password",
        description:
          "A signed-in user changes their password, giving the current one; their other sessions end. Answers 'Your password has been updated successfully.'; a wrong current password is refused (400) and counts as a failed sign-in.",
        body: changeOwnPasswordRequestSchema,
        response: answers(acknowledged),
      },
    },
    async (request, reply) => {
      const who = await signedIn(request, handler);
      const { currentPassword, newPassword } = request.body;
      // A wrong current password counts as a failed sign-in of the account.
      const admission = await throttle.admit(who.user.personal?.username ?? who.user.userId, request.ip);
      if (!admission.admitted) return tooManyAttempts(reply, admission);
      const matches = await verifyPassword(currentPassword, who.user.personal?.passwordHash);
      if (matches) await throttle.succeeded(admission);
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
