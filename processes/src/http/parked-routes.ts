import {
  acknowledged,
  answers,
  cleanText,
  isCleanText,
  parkedEventViewSchema,
  parkedRetryAnswer,
} from '@shiftcover/domain';
import { commandTrace, HttpError, newId, requireCapability, signedIn, written } from '@shiftcover/platform';
import { listParkedEvents, ParkedEventNotFound, ParkedEventUnavailable } from '@shiftcover/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { retryParked, skipParked } from '../parked-events';
import type { ProcessRoutesDeps } from './context';

/** A parked event is named `<consumer>:<event id>`. */
const parkedParams = z.object({
  id: z
    .string()
    .max(300, 'Parked event not found')
    .regex(/^[^:]+:.+$/, 'Parked event not found')
    .refine((id) => isCleanText(id), 'Parked event not found'),
});

const skipBody = z.object({
  reason: cleanText({ label: 'Reason', max: 500, required: 'Give a reason for skipping the event' }),
});

function split(id: string) {
  const at = id.indexOf(':');
  return { consumer: id.slice(0, at), eventId: id.slice(at + 1) };
}

const refused = (error: unknown): never => {
  if (error instanceof ParkedEventNotFound) throw new HttpError(404, 'Parked event not found');
  if (error instanceof ParkedEventUnavailable) throw new HttpError(409, error.message);
  throw error;
};

/**
 * Events a read model or process could not apply and set aside (docs/operations.md §6), and the
 * developer's decision on each: retry it once the cause is fixed, or skip it for good.
 */
export const parkedEventRoutes: FastifyPluginAsyncZod<ProcessRoutesDeps> = async (app, deps) => {
  const { handler, sql } = deps;

  const parkedListSchema = {
    tags: ['developer tools'],
    summary: 'Parked events',
    description:
      'Developers read the events a read model or process could not apply and set aside, each with its error and the number of attempts.',
    response: answers(z.array(parkedEventViewSchema)),
  };
  app.get('/api/parked-events', { schema: parkedListSchema }, async (request) => {
    const who = await signedIn(request, handler);
    requireCapability(who, 'developerTools');
    return (await listParkedEvents(sql)).map((p) => ({
      id: `${p.consumer}:${p.eventId}`,
      consumer: p.consumer,
      eventId: p.eventId,
      eventType: p.eventType,
      streamId: p.streamId,
      position: p.position.toString(),
      error: p.error,
      attempts: p.attempts,
      parkedAt: p.parkedAt,
    }));
  });

  app.post(
    '/api/parked-events/:id/retry',
    {
      schema: {
        tags: ['developer tools'],
        summary: 'Retry a parked event',
        description:
          'Developers apply a parked event again once its cause is fixed; the decision is kept in the audit log. Answers whether it applied, and the error when it still cannot.',
        params: parkedParams,
        response: answers(parkedRetryAnswer),
      },
    },
    async (request, reply) => {
      const who = await signedIn(request, handler);
      requireCapability(who, 'developerTools');
      const { consumer, eventId } = split(request.params.id);
      const trace = commandTrace(request, who.actor);
      const done = await retryParked(deps, consumer, eventId, {
        operationId: newId(trace, 'operation'),
        context: { actor: who.actor, now: deps.clock?.() ?? new Date() },
        trace,
      }).catch(refused);
      const what = `${done.parked.eventType} for ${consumer}`;
      return written(reply, done.position, {
        applied: done.applied,
        message: done.applied ? `Applied ${what}` : `Still cannot apply ${what}: ${done.error}`,
      });
    },
  );

  app.post(
    '/api/parked-events/:id/skip',
    {
      schema: {
        tags: ['developer tools'],
        summary: 'Skip a parked event',
        description:
          'Developers skip a parked event for good, giving a reason; the decision is kept in the audit log. Answers which event was skipped.',
        params: parkedParams,
        body: skipBody,
        response: answers(acknowledged),
      },
    },
    async (request, reply) => {
      const who = await signedIn(request, handler);
      requireCapability(who, 'developerTools');
      const { consumer, eventId } = split(request.params.id);
      const trace = commandTrace(request, who.actor);
      const done = await skipParked(deps, consumer, eventId, request.body.reason, {
        operationId: newId(trace, 'operation'),
        context: { actor: who.actor, now: deps.clock?.() ?? new Date() },
        trace,
      }).catch(refused);
      return written(reply, done.position, { message: `Skipped ${done.parked.eventType} for ${consumer}` });
    },
  );
};
