import { randomUUID } from 'node:crypto';
import { acknowledged, answers, calendarFeedViewSchema } from '@shiftcover/domain';
import {
  caller,
  commandContext,
  commandTrace,
  feedTokenHash,
  newFeedToken,
  written,
} from '@shiftcover/platform';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CommandApiDeps } from './context';

/** Making and revoking a person's private calendar feed (docs/product.md §2.11.1). */
export const calendarRoutes: FastifyPluginAsyncZod<CommandApiDeps> = async (app, deps) => {
  const { service, principals } = deps;
  const origin = (request: FastifyRequest) =>
    (deps.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');

  app.post(
    '/api/calendar-feed',
    {
      schema: {
        tags: ['calendar'],
        summary: 'Make a calendar feed',
        description:
          "Any signed-in user makes the private address of their calendar feed (`GET /api/calendar/{token}.ics`) and gets it in `url`, this once: only its digest is kept. Making one again replaces the address, and the old one answers 404. Answers 'Calendar feed created' (201).",
        response: answers(calendarFeedViewSchema, 201),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      const token = newFeedToken();
      // Never an Idempotency-Key's command id: a retry found as done could not give back the
      // address, as only its digest is kept; a fresh address replacing the first is the same result.
      const trace = { ...commandTrace(request, who.actor), commandId: randomUUID() };
      const outcome = await service.calendarFeed(
        {
          type: 'CreateCalendarFeed',
          data: { userId: who.principal.userId, tokenHash: feedTokenHash(token)! },
        },
        commandContext(who.actor, deps),
        trace,
      );
      const url = `${origin(request)}/api/calendar/${token}.ics`;
      return written(reply, outcome.position, { url, message: 'Calendar feed created' }, 201);
    },
  );

  app.delete(
    '/api/calendar-feed',
    {
      schema: {
        tags: ['calendar'],
        summary: 'Revoke the calendar feed',
        description:
          "Any signed-in user ends their calendar feed: its address answers 404 from then on. Answers 'Calendar feed revoked'; 404 when there is none.",
        response: answers(acknowledged),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      const outcome = await service.calendarFeed(
        { type: 'RevokeCalendarFeed', data: { userId: who.principal.userId } },
        commandContext(who.actor, deps),
        commandTrace(request, who.actor),
      );
      return written(reply, outcome.position, { message: 'Calendar feed revoked' });
    },
  );
};
