import {
  acknowledged,
  answers,
  clearedAnswer,
  completedReportAnswer,
  easternToday,
  formatShiftDate,
} from '@shiftcover/domain';
import {
  commandTrace,
  newId,
  requireCapability,
  type SignedIn,
  signedIn,
  written,
} from '@shiftcover/platform';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reportCompletedShifts, sendAuditReport } from '../timers/reports';
import type { ProcessRoutesDeps } from './context';

const WEEK_MS = 7 * 86_400_000;

/** Reports on demand (docs/product.md §7): the audit report and the completed-shifts report, and Clear All. */
export const reportRoutes: FastifyPluginAsyncZod<ProcessRoutesDeps> = async (app, deps) => {
  const { handler, service, sql } = deps;
  const now = () => deps.clock?.() ?? new Date();
  const timers = { sql, service, clock: deps.clock };

  /** The completed-shift records as they stand after every event so far. */
  const recordsUpToDate = async () =>
    deps.readModelsAt(await deps.store.headPosition(), ['completed_shifts']);

  async function auditReport(request: Parameters<typeof signedIn>[0], who: SignedIn) {
    const trace = commandTrace(request, who.actor);
    const until = now();
    await sendAuditReport(timers, {
      operationId: newId(trace, 'operation'),
      actor: who.actor,
      trace,
      from: new Date(until.getTime() - WEEK_MS),
      until,
    });
    return deps.store.headPosition();
  }

  const auditReportSchema = {
    tags: ['reports'],
    summary: 'Send the audit report',
    description: 'Developers and super admins send the audit report of the last 7 days to every super admin.',
    response: answers(acknowledged),
  };
  app.post('/api/admin/send-manual-report', { schema: auditReportSchema }, async (request, reply) => {
    const who = await signedIn(request, handler);
    requireCapability(who, 'sendReport');
    const position = await auditReport(request, who);
    return written(reply, position, { message: 'Audit report of the last 7 days sent to all super admins' });
  });

  const weeklyAuditSchema = {
    tags: ['developer tools'],
    summary: 'Send the weekly audit report now',
    description:
      'Developers send the weekly audit report of the last 7 days to every super admin now, without waiting for Monday at 07:00.',
    response: answers(acknowledged),
  };
  app.post('/api/test-weekly-audit', { schema: weeklyAuditSchema }, async (request, reply) => {
    const who = await signedIn(request, handler);
    requireCapability(who, 'developerTools');
    const position = await auditReport(request, who);
    return written(reply, position, { message: 'Weekly audit report sent to all super admins' });
  });

  app.post(
    '/api/completed-shifts/manual-report',
    {
      schema: {
        tags: ['completed shifts'],
        summary: 'Send the completed-shifts report',
        description:
          'Developers and super admins send the report of the completed shifts not yet reported to every super admin; those records are then archived and leave the Completed Shifts list. Answers how many were reported.',
        response: answers(completedReportAnswer),
      },
    },
    async (request, reply) => {
      const who = await signedIn(request, handler);
      requireCapability(who, 'sendReport');
      await recordsUpToDate();
      const trace = commandTrace(request, who.actor);
      const { reported } = await reportCompletedShifts(timers, {
        operationId: newId(trace, 'operation'),
        actor: who.actor,
        trace,
        period: `shifts completed up to ${formatShiftDate(easternToday(now()))}`,
      });
      return written(reply, await deps.store.headPosition(), {
        message: `Report of ${reported} completed shift${reported === 1 ? '' : 's'} sent to all super admins; the records are archived`,
        reportedCount: reported,
      });
    },
  );

  app.post(
    '/api/completed-shifts/clear',
    {
      schema: {
        tags: ['completed shifts'],
        summary: 'Clear completed records',
        description:
          'Developers clear every completed-shift record still listed: it leaves the Completed Shifts list. Answers how many were cleared.',
        response: answers(clearedAnswer),
      },
    },
    async (request, reply) => {
      const who = await signedIn(request, handler);
      requireCapability(who, 'clearCompletedRecords');
      await recordsUpToDate();
      const rows = await sql<{ id: string }[]>`select id from rm_completed_shifts where not archived`;
      const trace = commandTrace(request, who.actor);
      const outcome = await service.operation(
        newId(trace, 'operation'),
        { type: 'ClearCompletedShifts', data: { recordIds: rows.map((r) => r.id) } },
        { actor: who.actor, now: now() },
        trace,
      );
      return written(reply, outcome.position, {
        clearedCount: rows.length,
        message: `Cleared ${rows.length} completed shift record${rows.length === 1 ? '' : 's'}`,
      });
    },
  );
};
