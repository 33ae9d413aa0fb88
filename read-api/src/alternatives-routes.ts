import {
  answers,
  type CandidateFacts,
  candidateFacts,
  entityId,
  overlapping,
  rankCandidates,
  ruleBreaches,
  shiftAlternativeViewSchema,
} from '@shiftcover/domain';
import { HttpError } from '@shiftcover/platform';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { now, type ReadApiDeps, reader, readModels } from './context';
import { heldTimeOf } from './pending-ranking';
import { hasEnded, type ShiftRow } from './shift-queries';

/** The best placed alternatives an administrator is shown. */
const MOST_ALTERNATIVES = 10;
// Schedules read at once: enough to answer quickly, few enough to leave the pool to others.
const READS_AT_ONCE = 8;

interface StaffRow {
  id: string;
  first_name: string;
  last_name: string;
  username: string | null;
}

/**
 * Who could take a shift instead of the person on it (docs/product.md §2.12): since a second claim
 * on a pending shift is refused, the others who want the slot are the staff free to be assigned it.
 */
export const alternativesRoutes: FastifyPluginAsyncZod<ReadApiDeps> = async (app, deps) => {
  const { sql } = deps;

  app.get(
    '/api/shifts/:id/alternatives',
    {
      schema: {
        tags: ['shifts'],
        summary: 'Alternatives to a claim',
        description: `Administrators read the staff who could be assigned the shift instead of the person who claimed or holds it: everyone an assignment would not refuse (no overlap, every required credential, no time off, within the working-time rules), read from the schedule streams as the eligibility check reads them. Ranked as the pending claims are, with the reasons; at most ${MOST_ALTERNATIVES}. A shift that has ended has none. An unknown shift is 404.`,
        params: z.object({ id: entityId }),
        response: answers(z.array(shiftAlternativeViewSchema)),
      },
    },
    async (request) => {
      await reader(request, deps, readModels.shifts, 'assignShift');
      if (!deps.safety) throw new HttpError(503, 'The safety rules are not served here');
      const safety = deps.safety;
      const [shift] = await sql<ShiftRow[]>`select * from rm_shifts where id = ${request.params.id}`;
      if (!shift) throw new HttpError(404, 'Shift not found');
      if (hasEnded(shift, now(deps))) return [];
      const wanted = heldTimeOf(shift);
      const [staff, rules] = await Promise.all([
        sql<StaffRow[]>`select id, first_name, last_name, username from rm_users
          where role = 'staff' and id is distinct from ${shift.assigned_user_id} order by id`,
        safety.rules(),
      ]);
      const free: CandidateFacts[] = [];
      for (let i = 0; i < staff.length; i += READS_AT_ONCE) {
        const batch = staff.slice(i, i + READS_AT_ONCE);
        const records = await Promise.all(batch.map((person) => safety.record(person.id)));
        records.forEach((record, n) => {
          if (overlapping(wanted, record.reservations)) return;
          if (ruleBreaches(wanted, record, rules, false).length > 0) return;
          free.push(candidateFacts(wanted, batch[n]!.id, record.reservations, record.credentials, null));
        });
      }
      const names = new Map(staff.map((person) => [person.id, person]));
      return rankCandidates(free)
        .slice(0, MOST_ALTERNATIVES)
        .map(({ userId, rank, reasons }) => {
          const person = names.get(userId)!;
          return {
            userId,
            firstName: person.first_name,
            lastName: person.last_name,
            username: person.username,
            rank,
            reasons,
          };
        });
    },
  );
};
