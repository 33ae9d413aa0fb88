import {
  answers,
  can,
  entityId,
  escalationPolicyViewSchema,
  isSeniorAdministrator,
  outreachNoticeViewSchema,
  refusalFor,
  stepLabel,
} from '@shiftcover/domain';
import { HttpError } from '@shiftcover/platform';
import { adminsOfResidence } from '@shiftcover/projections';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ReadApiDeps, reader, readModels } from './context';

interface Notice {
  sent_at: Date;
  opening: number;
  step_key: string;
  hours_before_start: number | null;
  audience: 'eligible_staff' | 'all_staff' | 'residence_admins' | 'super_admins';
  mark: 'urgent' | 'emergency' | null;
  user_id: string | null;
  channel: 'in_app' | 'email' | 'mailing_list';
  first_name: string | null;
  last_name: string | null;
}

/** The escalation ladder's reads (docs/product.md §11): the policy, and whom a shift's steps told. */
export const escalationReadRoutes: FastifyPluginAsyncZod<ReadApiDeps> = async (app, deps) => {
  app.get(
    '/api/escalation-policy',
    {
      schema: {
        tags: ['escalation policy'],
        summary: 'The escalation policy',
        description:
          'Super admins and developers read the ladder in force and its version (0 until first set; the default ladder tells eligible staff at posting, all staff 48 hours before the start, marks the shift urgent and tells the residence admins 24 hours before, and marks it emergency and tells the super admins 8 hours before).',
        response: answers(escalationPolicyViewSchema),
      },
    },
    async (request) => {
      const who = await deps.currentUser(request);
      if (!can(who, 'changeEscalationPolicy')) throw new HttpError(403, refusalFor('changeEscalationPolicy'));
      if (!deps.escalation) throw new HttpError(503, 'The escalation policy is not served here');
      return deps.escalation.policy();
    },
  );

  app.get(
    '/api/shifts/:id/outreach',
    {
      schema: {
        tags: ['shifts'],
        summary: "Whom a shift's escalation told",
        description:
          'The admins of the shift’s residence (every admin when none is assigned there), super admins and developers read every notice the escalation ladder gave for a shift: when, in which opening (a shift open again starts the ladder over), at which step, to whom and by which channel (`in_app`, `email`, or `mailing_list` with nobody named). Oldest first. An unknown shift is 404.',
        params: z.object({ id: entityId }),
        response: answers(z.array(outreachNoticeViewSchema)),
      },
    },
    async (request) => {
      const who = await reader(request, deps, readModels.outreach, 'seeShiftIds');
      const { sql } = deps;
      const [shift] = await sql<
        { location: string }[]
      >`select location from rm_shifts where id = ${request.params.id}`;
      if (!shift) throw new HttpError(404, 'Shift not found');
      if (!isSeniorAdministrator(who)) {
        const admins = sql`(select id, assigned_residence_id as residence_id from rm_users where role = 'admin')`;
        const [theirs] =
          await sql`select 1 from (${adminsOfResidence(sql, admins, sql('rm_residences'), shift.location)}) a
          where a.id = ${who.userId}`;
        if (!theirs)
          throw new HttpError(403, 'Only the admins of this residence can see whom its shifts were sent to');
      }
      const notices = await sql<Notice[]>`
        select o.sent_at, o.opening, o.step_key, o.hours_before_start, o.audience, o.mark, o.user_id, o.channel,
          u.first_name, u.last_name
        from rm_shift_outreach o left join rm_users u on u.id = o.user_id
        where o.shift_id = ${request.params.id}
        order by o.sent_at, o.id`;
      return notices.map((n) => ({
        sentAt: n.sent_at,
        opening: n.opening,
        step: n.step_key,
        stepLabel: stepLabel({ hoursBeforeStart: n.hours_before_start }),
        audience: n.audience,
        mark: n.mark,
        userId: n.user_id,
        userName: n.first_name
          ? `${n.first_name} ${n.last_name}`
          : n.channel === 'mailing_list'
            ? null
            : 'Deleted user',
        channel: n.channel,
      }));
    },
  );
};
