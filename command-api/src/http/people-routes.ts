import {
  acknowledged,
  answers,
  assignResidenceSchema,
  checkMayCreateUser,
  checkMayResetPassword,
  createUserSchema,
  editUserSchema,
  emailNotificationModeSchema,
  entityId,
  resetPasswordSchema,
  residenceDecider,
  residenceSchema,
  userDecider,
  writtenEmailModeViewSchema,
  writtenResidenceViewSchema,
  writtenUserViewSchema,
} from '@shiftcover/domain';
import {
  caller,
  commandContext,
  commandTrace,
  HttpError,
  hashPassword,
  idParams,
  newId,
  requireCapability,
  written,
} from '@shiftcover/platform';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { streams } from '../streams';
import type { CommandApiDeps } from './context';
import { userView } from './user-view';

/**
 * Every route aimed at one user checks first that the caller may manage users at all, so that a
 * caller who may not learns nothing from the answer: 403 whether the id exists or not. Permission
 * is settled before a password is hashed.
 */
export const peopleRoutes: FastifyPluginAsyncZod<CommandApiDeps> = async (app, deps) => {
  const { handler, service, sessions, principals } = deps;

  async function userById(userId: string) {
    const { state } = await handler.load(streams.user(userId), userDecider);
    if (state.status !== 'active') throw new HttpError(404, 'User not found');
    return state;
  }

  const newUserSchema = {
    tags: ['users'],
    summary: 'Create a user account',
    description:
      'Administrators create an account; only developers and super admins create admin accounts, and only developers create developer accounts. Answers the user (201); a username or e-mail already taken is refused (409).',
    body: createUserSchema,
    response: answers(writtenUserViewSchema, 201),
  };
  app.post('/api/users', { schema: newUserSchema }, async (request, reply) => {
    const who = await caller(request, principals);
    requireCapability(who, 'manageUsers');
    const form = request.body;
    checkMayCreateUser(who.actor, form);
    const trace = commandTrace(request, who.actor);
    const userId = newId(trace, 'user');
    const outcome = await service.users.register(
      {
        userId,
        role: form.role,
        superAdmin: form.superAdmin,
        emailNotificationsEnabled: form.emailNotificationsEnabled,
        assignedResidenceId: form.assignedResidenceId ?? null,
        personal: {
          username: form.username,
          email: form.email ?? null,
          firstName: form.firstName,
          lastName: form.lastName,
          notificationEmail: form.notificationEmail ?? null,
          passwordHash: await hashPassword(form.password),
        },
      },
      commandContext(who.actor, deps),
      trace,
    );
    return written(reply, outcome.position, userView(await userById(userId)), 201);
  });

  app.put(
    '/api/users/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'Edit a user account',
        description:
          'Administrators edit the accounts they may: a developer anyone, a super admin anyone but developers, a plain admin only staff; only developers and super admins change roles. Answers the user.',
        params: idParams,
        body: editUserSchema,
        response: answers(writtenUserViewSchema),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'manageUsers');
      const target = await userById(request.params.id);
      const {
        username,
        email,
        firstName,
        lastName,
        notificationEmail,
        role,
        superAdmin,
        emailNotificationsEnabled,
      } = request.body;
      const outcome = await service.users.update(
        {
          userId: target.userId,
          role,
          superAdmin,
          emailNotificationsEnabled,
          personal: { username, email, firstName, lastName, notificationEmail: notificationEmail ?? email },
        },
        commandContext(who.actor, deps),
        commandTrace(request, who.actor),
      );
      return written(reply, outcome.position, userView(await userById(target.userId)));
    },
  );

  const deleteUserSchema = {
    tags: ['users'],
    summary: 'Delete a user account',
    description:
      "Administrators delete an account they may, never their own: its sessions end, the shifts it held that have not started are open again, and its personal data becomes unreadable. Answers 'User deleted'.",
    params: idParams,
    response: answers(acknowledged),
  };
  app.delete('/api/users/:id', { schema: deleteUserSchema }, async (request, reply) => {
    const who = await caller(request, principals);
    requireCapability(who, 'manageUsers');
    const target = await userById(request.params.id);
    const outcome = await service.users.delete(
      target.userId,
      commandContext(who.actor, deps),
      commandTrace(request, who.actor),
    );
    await sessions.destroyAllFor(target.userId);
    return written(reply, outcome.position, { message: 'User deleted' });
  });

  app.put(
    '/api/users/:id/password',
    {
      schema: {
        tags: ['users'],
        summary: "Set another user's password",
        description:
          "A developer sets anyone else's password, a super admin that of users who are neither developers nor super admins; the user's sessions end. Answers 'Password updated'.",
        params: idParams,
        body: resetPasswordSchema,
        response: answers(acknowledged),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'manageUsers');
      const target = await userById(request.params.id);
      checkMayResetPassword(who.actor, target);
      const outcome = await service.users.handle(
        {
          type: 'ResetPassword',
          data: { userId: target.userId, newPasswordHash: await hashPassword(request.body.newPassword) },
        },
        commandContext(who.actor, deps),
        commandTrace(request, who.actor),
      );
      await sessions.destroyAllFor(target.userId);
      return written(reply, outcome.position, { message: 'Password updated' });
    },
  );

  app.post(
    '/api/users/:id/assign-residence',
    {
      schema: {
        tags: ['users'],
        summary: 'Assign a residence to an admin',
        description:
          'Developers and super admins assign a residence to an admin account: that admin then sees the pending claims of that residence. Answers the user; an account that is not an admin is refused (422).',
        params: idParams,
        body: assignResidenceSchema,
        response: answers(writtenUserViewSchema),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'manageUsers');
      const target = await userById(request.params.id);
      const { state: residence } = await handler.load(
        streams.residence(request.body.residenceId),
        residenceDecider,
      );
      if (residence.status !== 'active') throw new HttpError(404, 'Residence not found');
      const outcome = await service.users.handle(
        { type: 'AssignResidence', data: { userId: target.userId, residenceId: residence.residenceId } },
        commandContext(who.actor, deps),
        commandTrace(request, who.actor),
      );
      return written(reply, outcome.position, userView(await userById(target.userId)));
    },
  );

  app.post(
    '/api/residences',
    {
      schema: {
        tags: ['residences'],
        summary: 'Add a residence',
        description:
          'Developers and super admins add a residence, with a name no other residence has and an optional description. Answers the residence (201); a name already taken is refused (409).',
        body: residenceSchema,
        response: answers(writtenResidenceViewSchema, 201),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'manageResidences');
      const trace = commandTrace(request, who.actor);
      const residenceId = newId(trace, 'residence');
      const outcome = await service.residences.execute(
        { type: 'CreateResidence', data: { ...request.body, residenceId } },
        commandContext(who.actor, deps),
        trace,
      );
      return written(reply, outcome.position, { id: residenceId, ...request.body, isActive: true }, 201);
    },
  );

  app.put(
    '/api/residences/:id',
    {
      schema: {
        tags: ['residences'],
        summary: 'Edit a residence',
        description:
          "Developers and super admins change a residence's name or description. Answers the residence; a name another residence has is refused (409).",
        params: idParams,
        body: residenceSchema,
        response: answers(writtenResidenceViewSchema),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'manageResidences');
      const outcome = await service.residences.execute(
        { type: 'UpdateResidence', data: { ...request.body, residenceId: request.params.id } },
        commandContext(who.actor, deps),
        commandTrace(request, who.actor),
      );
      return written(reply, outcome.position, { id: request.params.id, ...request.body, isActive: true });
    },
  );

  app.delete(
    '/api/residences/:id',
    {
      schema: {
        tags: ['residences'],
        summary: 'Delete a residence',
        description: "Developers and super admins delete a residence. Answers 'Residence deleted'.",
        params: idParams,
        response: answers(acknowledged),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'manageResidences');
      const outcome = await service.residences.execute(
        { type: 'DeleteResidence', data: { residenceId: request.params.id } },
        commandContext(who.actor, deps),
        commandTrace(request, who.actor),
      );
      return written(reply, outcome.position, { message: 'Residence deleted' });
    },
  );

  app.post(
    '/api/notifications/read',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Mark notifications read',
        description:
          "Any signed-in user marks their own in-app notifications read: those named in `ids`, or all of them. Answers 'Notifications marked as read'.",
        body: z.object({ ids: z.array(entityId).max(500).optional() }).optional(),
        response: answers(acknowledged),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      const outcome = await service.inbox(
        {
          type: 'MarkNotificationsRead',
          data: { userId: who.principal.userId, notificationIds: request.body?.ids ?? 'all' },
        },
        commandContext(who.actor, deps),
        commandTrace(request, who.actor),
      );
      return written(reply, outcome.position, { message: 'Notifications marked as read' });
    },
  );

  app.post(
    '/api/system-config/email-notification-mode',
    {
      schema: {
        tags: ['system configuration'],
        summary: 'Set the e-mail notification mode',
        description:
          "Developers choose where notification e-mails go: `individual`, to each user's notification e-mail when they want mail, or `mailing_list`, to the shared list address. Answers the mode.",
        body: emailNotificationModeSchema,
        response: answers(writtenEmailModeViewSchema),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'changeEmailNotificationMode');
      const outcome = await service.config(
        { type: 'SetEmailNotificationMode', data: request.body },
        commandContext(who.actor, deps),
        commandTrace(request, who.actor),
      );
      return written(reply, outcome.position, { value: request.body.mode });
    },
  );
};
