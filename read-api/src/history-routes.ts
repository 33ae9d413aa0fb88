import { answers, can, entityId, refusalFor, shiftHistoryEntryViewSchema } from '@shiftcover/domain';
import { HttpError } from '@shiftcover/platform';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ReadApiDeps, reader, readModels } from './context';

/**
 * A shift's history, replayed from its stream (not from a read model): administrators read every
 * event, who did it and when, with the fields it changed; staff read what they did themselves, so
 * a refused claim's rule and figures stay theirs to see (docs/product.md §10).
 */
export const historyRoutes: FastifyPluginAsyncZod<ReadApiDeps> = async (app, deps) => {
  app.get(
    '/api/shifts/:id/history',
    {
      schema: {
        tags: ['shifts'],
        summary: "A shift's history",
        description:
          'Administrators read every event of a shift, replayed from its stream: what happened, who did it, when, and the fields it changed. Staff read the events they did themselves (their claims, refusals with the rule and figures, drops, transfers); a shift they had no part in is 403. An unknown shift is 404.',
        params: z.object({ id: entityId }),
        response: answers(z.array(shiftHistoryEntryViewSchema)),
      },
    },
    async (request) => {
      const who = await reader(request, deps, readModels.users);
      const all = deps.shiftHistory ? await deps.shiftHistory(request.params.id) : [];
      if (all.length === 0) throw new HttpError(404, 'Shift not found');
      const entries = can(who, 'seeShiftIds') ? all : all.filter((entry) => entry.actorId === who.userId);
      if (entries.length === 0) throw new HttpError(403, refusalFor('seeShiftIds'));
      const ids = [...new Set(entries.map((e) => e.actorId))];
      const people = await deps.sql<{ id: string; first_name: string; last_name: string }[]>`
        select id, first_name, last_name from rm_users where id = any(${ids})`;
      const names = new Map(people.map((p) => [p.id, `${p.first_name} ${p.last_name}`]));
      return entries.map((entry) => ({
        ...entry,
        actorName: names.get(entry.actorId) ?? (entry.actorRole === 'system' ? 'System' : 'Deleted user'),
      }));
    },
  );
};
