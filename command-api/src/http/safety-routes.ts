import {
  acknowledged,
  answers,
  credentialFormSchema,
  credentialTypeSchema,
  defaultWhatIfFrom,
  entityId,
  listedName,
  timeOffFormSchema,
  userDecider,
  whatIfViewSchema,
  workingTimeRulesSchema,
  writtenCredentialTypeViewSchema,
  writtenCredentialViewSchema,
  writtenTimeOffViewSchema,
  writtenWorkingTimeRulesViewSchema,
} from '@shiftcover/domain';
import {
  caller,
  commandContext,
  commandTrace,
  HttpError,
  idParams,
  newId,
  requireCapability,
  written,
} from '@shiftcover/platform';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isExpired, replayUnderRules } from '../safety';
import { streams } from '../streams';
import type { CommandApiDeps } from './context';

const whatIfBody = workingTimeRulesSchema.partial().extend({
  from: z.iso.datetime({ error: 'From must be an ISO 8601 date and time' }).optional(),
  until: z.iso.datetime({ error: 'Until must be an ISO 8601 date and time' }).optional(),
});

/** The safety rules' writes (docs/product.md §10): credentials, time off, the working-time rules. */
export const safetyRoutes: FastifyPluginAsyncZod<CommandApiDeps> = async (app, deps) => {
  const { handler, service, principals } = deps;
  const { safety } = service;
  const now = () => deps.clock?.() ?? new Date();

  async function requireUserExists(userId: string) {
    const { state } = await handler.load(streams.user(userId), userDecider);
    if (state.status !== 'active') throw new HttpError(404, 'User not found');
    return state;
  }

  app.post(
    '/api/users/:id/credentials',
    {
      schema: {
        tags: ['credentials'],
        summary: "Record a person's credential",
        description:
          "Administrators record a credential a person holds, by a name on the organisation's list, with the last day it is valid (`expiresOn`, YYYY-MM-DD) unless it does not expire. Recording a name the person already holds renews it. Answers the credential (201); a name not on the list is refused (400), and so is a renewal that would leave a shift the person holds without it (409, `credential_in_use`).",
        params: idParams,
        body: credentialFormSchema,
        response: answers(writtenCredentialViewSchema, 201),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'manageCredentials');
      await requireUserExists(request.params.id);
      const name = listedName({ types: await safety.typeList() }, request.body.name);
      if (!name)
        throw new HttpError(
          400,
          `${request.body.name} is not on the list of credentials: add it to the list first`,
        );
      const trace = commandTrace(request, who.actor);
      const credentialId = newId(trace, 'credential');
      const expiresOn = request.body.expiresOn ?? null;
      const outcome = await safety.schedule(
        { type: 'RecordCredential', data: { userId: request.params.id, credentialId, name, expiresOn } },
        commandContext(who.actor, deps),
        trace,
      );
      const recorded = outcome.state.credentials.find((c) => c.credentialId === credentialId);
      const view = {
        id: credentialId,
        name,
        expiresOn,
        expired: isExpired(expiresOn, now()),
        recordedAt: recorded?.recordedAt ?? now().toISOString(),
        message: 'Credential recorded',
      };
      return written(reply, outcome.position, view, 201);
    },
  );

  app.delete(
    '/api/users/:id/credentials/:credentialId',
    {
      schema: {
        tags: ['credentials'],
        summary: "Remove a person's credential",
        description:
          "Administrators remove a credential from a person. Answers 'Credential removed'; an unknown credential is 404, and one a shift the person holds still needs is refused (409, `credential_in_use`).",
        params: z.object({ id: entityId, credentialId: entityId }),
        response: answers(acknowledged),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'manageCredentials');
      const { id: userId, credentialId } = request.params;
      const outcome = await safety.schedule(
        { type: 'RemoveCredential', data: { userId, credentialId } },
        commandContext(who.actor, deps),
        commandTrace(request, who.actor),
      );
      return written(reply, outcome.position, { message: 'Credential removed' });
    },
  );

  app.post(
    '/api/credential-types',
    {
      schema: {
        tags: ['credentials'],
        summary: 'Add a credential to the list',
        description:
          "Administrators add a credential name to the organisation's list (for example 'Medication administration', 'CPR', 'Driver'). Answers it (201); a name already on the list, in any case, is refused (409).",
        body: credentialTypeSchema,
        response: answers(writtenCredentialTypeViewSchema, 201),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'manageCredentials');
      const trace = commandTrace(request, who.actor);
      const id = newId(trace, 'credential-type');
      const outcome = await safety.credentialTypes(
        { type: 'AddCredentialType', data: { credentialTypeId: id, name: request.body.name } },
        commandContext(who.actor, deps),
        trace,
      );
      const name = request.body.name.trim();
      return written(reply, outcome.position, { id, name, message: 'Credential added to the list' }, 201);
    },
  );

  app.delete(
    '/api/credential-types/:id',
    {
      schema: {
        tags: ['credentials'],
        summary: 'Remove a credential from the list',
        description:
          "Administrators remove a name from the list: it can no longer be recorded or required. Credentials people hold and shifts that require it are left as they are. Answers 'Credential removed from the list'; an unknown id is 404.",
        params: idParams,
        response: answers(acknowledged),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'manageCredentials');
      const outcome = await safety.credentialTypes(
        { type: 'RemoveCredentialType', data: { credentialTypeId: request.params.id } },
        commandContext(who.actor, deps),
        commandTrace(request, who.actor),
      );
      return written(reply, outcome.position, { message: 'Credential removed from the list' });
    },
  );

  app.put(
    '/api/working-time-rules',
    {
      schema: {
        tags: ['working-time rules'],
        summary: 'Set the working-time rules',
        description:
          'Super admins and developers set the minimum rest between shifts (hours), the maximum hours in a Sunday-to-Saturday week and the maximum consecutive working days. Every change is an event and raises the version. Answers the rules in force.',
        body: workingTimeRulesSchema,
        response: answers(writtenWorkingTimeRulesViewSchema),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'changeWorkingTimeRules');
      const outcome = await safety.setRules(
        { type: 'SetWorkingTimeRules', data: request.body },
        commandContext(who.actor, deps),
        commandTrace(request, who.actor),
      );
      const message = outcome.events.length ? 'Working-time rules saved' : 'Nothing to change';
      return written(reply, outcome.position, { ...outcome.state, message });
    },
  );

  app.post(
    '/api/working-time-rules/what-if',
    {
      schema: {
        tags: ['working-time rules'],
        summary: 'Replay a past period under proposed rules',
        description:
          'Super admins and developers replay the shifts people held in a past period (by default the last 30 days) from the event log under proposed working-time rules; rules left out are the ones in force. Answers who would have broken which rule on which shifts, with counts per rule and per person. Writes nothing.',
        body: whatIfBody,
        response: answers(whatIfViewSchema),
      },
    },
    async (request) => {
      const who = await caller(request, principals);
      requireCapability(who, 'changeWorkingTimeRules');
      const { from, until, ...proposed } = request.body;
      const end = until ? new Date(until) : now();
      const start = from ? new Date(from) : defaultWhatIfFrom(end);
      if (start >= end) throw new HttpError(400, 'From must be before until');
      const rules = { ...(await safety.rules()), ...proposed };
      return replayUnderRules(handler, deps.store, rules, start, end);
    },
  );

  app.post(
    '/api/my-time-off',
    {
      schema: {
        tags: ['time off'],
        summary: 'Record time off',
        description:
          'A signed-in person records days they cannot work, first and last day included, with an optional note. Claims and assignments of shifts in that time are then refused (422, `unavailable`). Answers the time off (201).',
        body: timeOffFormSchema,
        response: answers(writtenTimeOffViewSchema, 201),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      const trace = commandTrace(request, who.actor);
      const timeOffId = newId(trace, 'time-off');
      const { startDate, endDate, note } = request.body;
      const outcome = await safety.schedule(
        {
          type: 'RecordTimeOff',
          data: { userId: who.principal.userId, timeOffId, startDate, endDate, note },
        },
        commandContext(who.actor, deps),
        trace,
      );
      const recordedAt = outcome.state.timeOff.find((t) => t.timeOffId === timeOffId)?.recordedAt;
      return written(
        reply,
        outcome.position,
        {
          id: timeOffId,
          startDate,
          endDate,
          note,
          recordedAt: recordedAt ?? now().toISOString(),
          message: 'Time off recorded',
        },
        201,
      );
    },
  );

  app.delete(
    '/api/my-time-off/:id',
    {
      schema: {
        tags: ['time off'],
        summary: 'Cancel time off',
        description:
          "A person cancels time off they recorded. Answers 'Time off cancelled'; an unknown id is 404.",
        params: idParams,
        response: answers(acknowledged),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      const outcome = await safety.schedule(
        { type: 'CancelTimeOff', data: { userId: who.principal.userId, timeOffId: request.params.id } },
        commandContext(who.actor, deps),
        commandTrace(request, who.actor),
      );
      return written(reply, outcome.position, { message: 'Time off cancelled' });
    },
  );
};
