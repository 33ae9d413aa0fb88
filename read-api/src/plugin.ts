import { errorAnswer } from '@shiftcover/domain';
import { HttpError, SESSION_COOKIE, sessionKey } from '@shiftcover/platform';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { alternativesRoutes } from './alternatives-routes';
import { analyticsReadRoutes } from './analytics-routes';
import { calendarReadRoutes } from './calendar-routes';
import type { ReadApiDeps } from './context';
import { escalationReadRoutes } from './escalation-routes';
import { historyRoutes } from './history-routes';
import { peopleReadRoutes } from './people-routes';
import { mailReadRoutes, recordReadRoutes } from './record-routes';
import { safetyReadRoutes } from './safety-routes';
import { shiftReadRoutes } from './shift-routes';

/** Every read route of docs/product.md §7, served from the read models, and the live change notices. */
export async function readApi(app: FastifyInstance, deps: ReadApiDeps): Promise<void> {
  await app.register(shiftReadRoutes, deps);
  await app.register(peopleReadRoutes, deps);
  await app.register(recordReadRoutes, deps);
  await app.register(mailReadRoutes, deps);
  await app.register(historyRoutes, deps);
  await app.register(safetyReadRoutes, deps);
  await app.register(calendarReadRoutes, deps);
  await app.register(alternativesRoutes, deps);
  await app.register(escalationReadRoutes, deps);
  await app.register(analyticsReadRoutes, deps);
  const liveSchema = {
    tags: ['live updates'],
    summary: 'Live change notices',
    description:
      "A signed-in user's stream of server-sent change notices (`event: change`): each is JSON naming the views the changes read together touched (`views`), so the screens read them again, and the shifts whose own events were among them (`shifts`). At most 5 streams per user; one more is refused (429).",
    response: {
      200: {
        description: 'Server-sent change notices',
        content: { 'text/event-stream': { schema: z.string() } },
      },
      '4xx': errorAnswer,
      '5xx': errorAnswer,
    },
  };
  app.get('/api/live', { schema: liveSchema }, async (request, reply) => {
    const who = await deps.currentUser(request);
    const session = sessionKey(request.cookies[SESSION_COOKIE] ?? '');
    let heartbeat: NodeJS.Timeout | undefined;
    const added = deps.live.add({
      principal: who,
      session,
      send: (notice) => reply.raw.write(`event: change\ndata: ${JSON.stringify(notice)}\n\n`),
      close: () => {
        clearInterval(heartbeat);
        reply.raw.end();
      },
    });
    if ('refused' in added) throw new HttpError(429, added.refused);
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    reply.raw.write('retry: 3000\n\n');
    heartbeat = setInterval(() => reply.raw.write(': keep-alive\n\n'), 25_000);
    request.raw.on('close', () => {
      clearInterval(heartbeat);
      added.remove();
    });
  });
}
