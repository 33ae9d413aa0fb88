import { commandTrace, newId, requireCapability, signedIn, written } from '@shiftcover/command-api';
import { HttpError } from '@shiftcover/platform';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEVELOPERS_ONLY, type ProcessRoutesDeps } from './context';

/** A parked message is named `<consumer>:<event id>`. */
const parkedParams = z.object({
  id: z
    .string()
    .max(300, 'Parked message not found')
    .regex(/^[^:]+:.+$/, 'Parked message not found'),
});

interface Parked {
  consumer: string;
  event_id: string;
  event_type: string;
  position: bigint;
  error: string;
  parked_at: Date;
}

/** Messages a process manager gave up on, and replaying them once the cause is fixed. */
export const parkedMessageRoutes: FastifyPluginAsyncZod<ProcessRoutesDeps> = async (app, deps) => {
  const { handler, sql } = deps;

  app.get('/api/parked-messages', { schema: { tags: ['developer tools'] } }, async (request) => {
    const who = await signedIn(request, handler);
    requireCapability(who, 'developerTools', DEVELOPERS_ONLY);
    const rows = await sql<Parked[]>`select * from parked_messages order by parked_at desc limit 500`;
    return rows.map((r) => ({
      id: `${r.consumer}:${r.event_id}`,
      consumer: r.consumer,
      eventId: r.event_id,
      eventType: r.event_type,
      position: r.position.toString(),
      error: r.error,
      parkedAt: r.parked_at,
    }));
  });

  app.post(
    '/api/parked-messages/:id/replay',
    { schema: { tags: ['developer tools'], params: parkedParams } },
    async (request, reply) => {
      const who = await signedIn(request, handler);
      requireCapability(who, 'developerTools', DEVELOPERS_ONLY);
      const split = request.params.id.indexOf(':');
      const consumer = request.params.id.slice(0, split);
      const eventId = request.params.id.slice(split + 1);
      const [parked] = await sql<Parked[]>`
        select * from parked_messages where consumer = ${consumer} and event_id = ${eventId}`;
      if (!parked) throw new HttpError(404, 'Parked message not found');
      const process = deps.handlers.find((h) => h.name === consumer);
      if (!process) throw new HttpError(409, `No process named ${consumer} runs in this server`);
      const [event] = await deps.store.readAll(BigInt(parked.position) - 1n, 1);
      if (event?.id !== eventId) throw new HttpError(409, 'The parked event is no longer in the log');
      try {
        await process.handle(event);
      } catch (error) {
        const message = String((error as Error)?.message ?? error);
        await sql`update parked_messages set error = ${message}, parked_at = now()
          where consumer = ${consumer} and event_id = ${eventId}`;
        throw new HttpError(422, `Replay failed: ${message}`);
      }
      await sql`delete from parked_messages where consumer = ${consumer} and event_id = ${eventId}`;
      const trace = commandTrace(request, who.actor);
      const outcome = await deps.service.operation(
        newId(trace, 'operation'),
        { type: 'RecordParkedMessageReplayed', data: { consumer, eventId } },
        { actor: who.actor, now: deps.clock?.() ?? new Date() },
        trace,
      );
      return written(reply, outcome.position, { message: `Replayed ${parked.event_type} for ${consumer}` });
    },
  );
};
