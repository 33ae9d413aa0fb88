import {
  answers,
  can,
  credentialTypeViewSchema,
  credentialViewSchema,
  easternToday,
  eligibilityViewSchema,
  entityId,
  type Principal,
  refusalFor,
  timeOffViewSchema,
  workingTimeRulesViewSchema,
} from '@shiftcover/domain';
import { HttpError } from '@shiftcover/platform';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { now, type ReadApiDeps, type SafetyReads } from './context';

const userParams = z.object({ id: entityId });

/** The caller themselves, or someone whose records they may see because they manage people. */
function requireSelfOr(who: Principal, userId: string, capability: 'manageCredentials' | 'manageUsers') {
  if (who.userId !== userId && !can(who, capability)) throw new HttpError(403, refusalFor(capability));
}

/**
 * The safety rules' reads (docs/product.md §10), answered from the streams the reservations decide
 * on rather than a read model: what a person is told here is what the next command will find.
 */
export const safetyReadRoutes: FastifyPluginAsyncZod<ReadApiDeps> = async (app, deps) => {
  const safety = (): SafetyReads => {
    if (!deps.safety) throw new HttpError(503, 'The safety rules are not served here');
    return deps.safety;
  };
  const timeOffOf = async (userId: string) =>
    (await safety().record(userId)).timeOff
      .map(({ timeOffId, startDate, endDate, note, recordedAt }) => ({
        id: timeOffId,
        startDate,
        endDate,
        note,
        recordedAt,
      }))
      .sort((a, b) => a.startDate.localeCompare(b.startDate));

  app.get(
    '/api/users/:id/credentials',
    {
      schema: {
        tags: ['credentials'],
        summary: "A person's credentials",
        description:
          'A person reads their own credentials and the last day each is valid; administrators read anyone’s. Sorted by name.',
        params: userParams,
        response: answers(z.array(credentialViewSchema)),
      },
    },
    async (request) => {
      const who = await deps.currentUser(request);
      requireSelfOr(who, request.params.id, 'manageCredentials');
      const today = easternToday(now(deps));
      const { credentials } = await safety().record(request.params.id);
      return credentials
        .map(({ credentialId, name, expiresOn, recordedAt }) => ({
          id: credentialId,
          name,
          expiresOn,
          expired: expiresOn !== null && expiresOn < today,
          recordedAt,
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
    },
  );

  app.get(
    '/api/credential-types',
    {
      schema: {
        tags: ['credentials'],
        summary: 'The list of credentials',
        description:
          "Every signed-in user reads the organisation's list of credential names, which shifts may require and administrators record for people. Sorted by name.",
        response: answers(z.array(credentialTypeViewSchema)),
      },
    },
    async (request) => {
      await deps.currentUser(request);
      const types = await safety().typeList();
      return types
        .map(({ credentialTypeId, name }) => ({ id: credentialTypeId, name }))
        .sort((a, b) => a.name.localeCompare(b.name));
    },
  );

  app.get(
    '/api/working-time-rules',
    {
      schema: {
        tags: ['working-time rules'],
        summary: 'The working-time rules',
        description:
          'Super admins and developers read the rules in force: minimum rest in hours, maximum hours in a Sunday-to-Saturday week, maximum consecutive working days, and the version (0 until first set; the defaults are 8, 60 and 6).',
        response: answers(workingTimeRulesViewSchema),
      },
    },
    async (request) => {
      const who = await deps.currentUser(request);
      if (!can(who, 'changeWorkingTimeRules')) throw new HttpError(403, refusalFor('changeWorkingTimeRules'));
      return safety().rules();
    },
  );

  app.get(
    '/api/my-time-off',
    {
      schema: {
        tags: ['time off'],
        summary: 'My time off',
        description: 'The signed-in person reads the time off they recorded, earliest first.',
        response: answers(z.array(timeOffViewSchema)),
      },
    },
    async (request) => timeOffOf((await deps.currentUser(request)).userId),
  );

  app.get(
    '/api/users/:id/time-off',
    {
      schema: {
        tags: ['time off'],
        summary: "A person's time off",
        description:
          'Administrators read the time off a person recorded, earliest first; a person may read their own.',
        params: userParams,
        response: answers(z.array(timeOffViewSchema)),
      },
    },
    async (request) => {
      const who = await deps.currentUser(request);
      requireSelfOr(who, request.params.id, 'manageUsers');
      return timeOffOf(request.params.id);
    },
  );

  app.get(
    '/api/shifts/:id/eligibility',
    {
      schema: {
        tags: ['shifts'],
        summary: 'Whether a person may take a shift',
        description:
          'For the signed-in person, or for `userId` when an administrator asks: whether they may claim or be assigned the shift now, and every reason not, each with the code and message the command would refuse with (`not_claimable`, `shift_started`, `shift_conflict`, `missing_credential`, `unavailable`, `rest_too_short`, `weekly_hours_exceeded`, `too_many_consecutive_days`). An unknown shift is 404.',
        params: z.object({ id: entityId }),
        querystring: z.object({ userId: entityId.optional() }),
        response: answers(eligibilityViewSchema),
      },
    },
    async (request) => {
      const who = await deps.currentUser(request);
      const userId = request.query.userId ?? who.userId;
      if (userId !== who.userId && !can(who, 'assignShift'))
        throw new HttpError(403, refusalFor('assignShift'));
      const answer = await safety().eligibility(request.params.id, userId, userId === who.userId, now(deps));
      if (!answer) throw new HttpError(404, 'Shift not found');
      return answer;
    },
  );
};
