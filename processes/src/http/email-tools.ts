import {
  acknowledged,
  answers,
  bulkTestAnswer,
  bulkTestSchema,
  clearedAnswer,
  easternToday,
  emailDiagnosticAnswer,
  emailDiagnosticSchema,
  nextDate,
  remindersAnswer,
  resendNotificationSchema,
  shiftDecider,
  streams,
  testEmailSchema,
} from '@shiftcover/domain';
import { addressSubject } from '@shiftcover/eventstore';
import {
  commandTrace,
  HttpError,
  idParams,
  newId,
  requireCapability,
  signedIn,
  written,
} from '@shiftcover/platform';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { remindHolders } from '../timers/reminders';
import type { ProcessRoutesDeps } from './context';

/** How far ahead the test reminders look: the next 24 hours, twice the usual lead. */
const TEST_REMINDER_WINDOW_HOURS = 24;

/** The e-mail tools of docs/product.md §7: test and diagnostic mails, test reminders, the bulk test, the queue. */
export const emailToolRoutes: FastifyPluginAsyncZod<ProcessRoutesDeps> = async (app, deps) => {
  const { handler, service, sql } = deps;
  const now = () => deps.clock?.() ?? new Date();

  async function developer(request: Parameters<typeof signedIn>[0]) {
    const who = await signedIn(request, handler);
    requireCapability(who, 'developerTools');
    return who;
  }

  const whereMailGoes = () =>
    deps.smtp ? 'queued for the SMTP server' : 'kept in the outbox (no SMTP server is configured)';

  app.post(
    '/api/test-email',
    {
      schema: {
        tags: ['developer tools'],
        summary: 'Send a test e-mail',
        description:
          'Developers send a test e-mail with the subject and message they write to any address: it is queued for the SMTP server, or kept in the outbox when none is configured. Answers where it went.',
        body: testEmailSchema,
        response: answers(acknowledged),
      },
    },
    async (request, reply) => {
      const who = await developer(request);
      const trace = commandTrace(request, who.actor);
      const outcome = await service.operation(
        newId(trace, 'operation'),
        {
          type: 'SendTestEmail',
          data: { personalSubject: addressSubject(request.body.email), personal: request.body },
        },
        { actor: who.actor, now: now() },
        trace,
      );
      return written(reply, outcome.position, {
        message: `Test e-mail to ${request.body.email} ${whereMailGoes()}`,
      });
    },
  );

  app.post(
    '/api/email-diagnostic',
    {
      schema: {
        tags: ['developer tools'],
        summary: 'Run an e-mail diagnostic',
        description:
          'Developers check the connection to the SMTP server and send a diagnostic e-mail to an address. Answers what the server said, or that it could not be reached.',
        body: emailDiagnosticSchema,
        response: answers(emailDiagnosticAnswer),
      },
    },
    async (request, reply) => {
      const who = await developer(request);
      const result = deps.smtp
        ? await deps.smtp.verify()
        : { ok: true, answer: 'No SMTP server is configured: e-mails are kept in the outbox' };
      const trace = commandTrace(request, who.actor);
      const { email } = request.body;
      const data = { email, smtpConfigured: Boolean(deps.smtp), ...result };
      const { smtpConfigured, ok, answer } = data;
      const outcome = await service.operation(
        newId(trace, 'operation'),
        {
          type: 'RecordEmailDiagnostic',
          data: { personalSubject: addressSubject(email), personal: { email }, smtpConfigured, ok, answer },
        },
        { actor: who.actor, now: now() },
        trace,
      );
      const message = result.ok
        ? `${result.answer}. A diagnostic e-mail to ${request.body.email} is ${whereMailGoes()}.`
        : `The SMTP server could not be reached: ${result.answer}`;
      return written(reply, outcome.position, { message, ...data });
    },
  );

  const testRemindersSchema = {
    tags: ['developer tools'],
    summary: 'Send test reminders',
    description:
      'Developers send the shift reminders now to the holders of approved shifts starting in the next 24 hours, twice the usual lead. Answers how many were sent.',
    response: answers(remindersAnswer),
  };
  app.post('/api/test-reminders', { schema: testRemindersSchema }, async (request, reply) => {
    const who = await developer(request);
    const reminded = await remindHolders(
      { sql, service, clock: deps.clock },
      { withinHours: TEST_REMINDER_WINDOW_HOURS, actor: who.actor },
    );
    const trace = commandTrace(request, who.actor);
    const outcome = await service.operation(
      newId(trace, 'operation'),
      { type: 'RecordTestReminders', data: { reminded: reminded.length } },
      { actor: who.actor, now: now() },
      trace,
    );
    return written(reply, outcome.position, {
      message: `Sent ${reminded.length} shift reminder${reminded.length === 1 ? '' : 's'} for approved shifts starting in the next ${TEST_REMINDER_WINDOW_HOURS} hours`,
      reminded: reminded.length,
    });
  });

  app.post(
    '/api/bulk-test-emails',
    {
      schema: {
        tags: ['developer tools'],
        summary: 'Run the e-mail bulk test',
        description:
          'Developers post 1 to 50 test shifts (20 by default), each announced to the developer alone and then deleted, so staff never see them. Answers how many shifts were created and e-mails queued.',
        body: bulkTestSchema.optional(),
        response: answers(bulkTestAnswer),
      },
    },
    async (request, reply) => {
      const who = await developer(request);
      const count = request.body?.count ?? 20;
      const trace = commandTrace(request, who.actor);
      const context = { actor: who.actor, now: now() };
      const date = nextDate(easternToday(context.now));
      const shiftIds = Array.from({ length: count }, (_, i) => newId(trace, `test-shift-${i}`));
      // Each test shift is announced to the developer alone, then deleted: its mail is planned from
      // the log, so the shift need not outlive the request, and staff never see it.
      for (const [i, shiftId] of shiftIds.entries()) {
        const details = {
          shiftId,
          location: 'E-mail bulk test',
          date,
          startTime: '08:00',
          endTime: '16:00',
          type: 'AM' as const,
          status: 'open' as const,
          requirements: null,
          notes: `Test shift ${i + 1} of ${count}`,
          testData: true,
        };
        await service.shift({ type: 'PostShift', data: details }, context, {
          ...trace,
          commandId: newId(trace, `post-${shiftId}`),
        });
      }
      for (const shiftId of shiftIds) {
        await service.shift({ type: 'DeleteShift', data: { shiftId } }, context, {
          ...trace,
          commandId: newId(trace, `delete-${shiftId}`),
        });
      }
      const address = who.user.personal?.notificationEmail ?? who.user.personal?.email;
      const emailsQueued = address ? count : 0;
      const outcome = await service.operation(
        newId(trace, 'operation'),
        { type: 'RecordBulkEmailTest', data: { shiftIds, emailsQueued } },
        context,
        trace,
      );
      return written(reply, outcome.position, {
        shiftsCreated: count,
        emailsQueued,
        message: address
          ? `${count} test shifts created and cleaned up; ${emailsQueued} e-mails to ${address} ${whereMailGoes()}`
          : `${count} test shifts created and cleaned up; your account has no e-mail address, so no mail was queued`,
      });
    },
  );

  const clearQueueSchema = {
    tags: ['developer tools'],
    summary: 'Clear the e-mail queue',
    description:
      'Developers clear the e-mails still queued or failed: they are marked cleared and never sent. Answers how many.',
    response: answers(clearedAnswer),
  };
  app.post('/api/email-queue/clear', { schema: clearQueueSchema }, async (request, reply) => {
    const who = await developer(request);
    // Cleared rows stay, marked, so a replayed event never plans them again.
    const cleared = await sql`update email_deliveries set status = 'cleared'
      where status in ('queued', 'failed') returning id`;
    const trace = commandTrace(request, who.actor);
    const outcome = await service.operation(
      newId(trace, 'operation'),
      { type: 'RecordEmailQueueCleared', data: { clearedCount: cleared.length } },
      { actor: who.actor, now: now() },
      trace,
    );
    return written(reply, outcome.position, {
      message: `Cleared ${cleared.length} e-mail${cleared.length === 1 ? '' : 's'} from the queue`,
      clearedCount: cleared.length,
    });
  });

  app.post(
    '/api/admin/resend-shift-notification/:id',
    {
      schema: {
        tags: ['developer tools'],
        summary: "Resend a shift's e-mail",
        description:
          "Developers and super admins send a shift's new-shift e-mail again to the recipients they pick. Answers how many it went to; an unknown shift is 404.",
        params: idParams,
        body: resendNotificationSchema,
        response: answers(acknowledged),
      },
    },
    async (request, reply) => {
      const who = await signedIn(request, handler);
      requireCapability(who, 'resendEmail');
      const { state } = await handler.load(streams.shift(request.params.id), shiftDecider);
      if (!state.exists || state.deleted || state.testData) throw new HttpError(404, 'Shift not found');
      const recipients = [...new Set(request.body.recipients)];
      const trace = commandTrace(request, who.actor);
      const outcome = await service.operation(
        newId(trace, 'operation'),
        { type: 'ResendShiftNotification', data: { shiftId: state.shiftId, recipients } },
        { actor: who.actor, now: now() },
        trace,
      );
      return written(reply, outcome.position, {
        message: `New-shift e-mail sent again to ${recipients.length} recipient${recipients.length === 1 ? '' : 's'}`,
      });
    },
  );
};
