import { createCommandService } from '@shiftcover/command-api';
import type { Config, Logger } from '@shiftcover/platform';
import {
  deliverDue,
  type EventHandler,
  emailHandler,
  type MailPlannerDeps,
  MailProcess,
  mailFromNow,
  ShiftTimers,
  type SmtpTransport,
  smtpTransport,
} from '@shiftcover/processes';
import { Positions } from '@shiftcover/read-api';
import { startJetStream } from './jetstream';
import { mailGauges } from './operations';
import type { Runtime } from './runtime';

/** What planning and sending mail need, from the configuration: the same for the server and the routes. */
export function mailSetup(
  runtime: Runtime,
  config: Config,
  positions: Positions,
): MailPlannerDeps & { smtp?: SmtpTransport } {
  return {
    sql: runtime.sql,
    store: runtime.store,
    vault: runtime.vault,
    readModelsAt: (position, models) => positions.waitFor(position, models),
    publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    smtpConfigured: Boolean(config.SMTP_URL),
    smtp: config.SMTP_URL ? smtpTransport(config.SMTP_URL) : undefined,
  };
}

/**
 * The process managers: e-mail planned from the log (through JetStream when NATS_URL is set) and
 * sent over SMTP_URL when set, else kept in the outbox; and the timers that, every minute, complete
 * shifts 1 hour after their end, expire unfilled ones, run the escalation ladder's due steps,
 * remind holders 12 hours before their shift and send the monthly and weekly reports, catching up at start.
 */
export async function startProcesses(runtime: Runtime, config: Config, logger: Logger) {
  const positions = new Positions(runtime.sql);
  // E-mail first, so that mail follows everything the timers record.
  const setup = mailSetup(runtime, config, positions);
  const mailDeps = { ...setup, transport: setup.smtp, from: config.MAIL_FROM, log: logger };
  await mailFromNow(runtime.sql, runtime.store);
  const sender = promptSender(() =>
    setup.smtp ? deliverDue(runtime.sql, setup.smtp, config.MAIL_FROM) : Promise.resolve(0),
  );
  const planner = emailHandler(mailDeps);
  // What the consumer plans goes out at once, not at the sender's next round.
  const consumer: EventHandler = {
    name: planner.name,
    wants: planner.wants,
    async handle(event) {
      await planner.handle(event);
      sender.nudge(logger);
    },
    async handleBatch(events) {
      await planner.handleBatch(events);
      sender.nudge(logger);
    },
  };
  const nats = config.NATS_URL
    ? await startJetStream(config.NATS_URL, runtime, [consumer], logger)
    : undefined;
  const mail = new MailProcess({ ...mailDeps, plan: !nats });
  await mail.start();
  mailGauges(runtime.operations.metrics, runtime.sql);
  // The timers catch up once the read models they read have caught up with the log.
  await positions
    .waitFor(await runtime.store.headPosition(), ['shifts', 'completed_shifts', 'outreach'])
    .catch(() => undefined);
  const timers = new ShiftTimers({
    sql: runtime.sql,
    service: createCommandService(runtime.handler, runtime.vault),
    log: logger,
  });
  await timers.start();
  return {
    async stop() {
      await mail.stop();
      await nats?.stop();
      await sender.idle();
      await timers.stop();
      await positions.close();
      setup.smtp?.close();
    },
  };
}

/** Runs `send` when nudged: one run at a time, and once more if nudged meanwhile. */
function promptSender(send: () => Promise<unknown>) {
  let running: Promise<void> | undefined;
  let again = false;
  return {
    nudge(log: Logger) {
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        do {
          again = false;
          await send();
        } while (again);
      })()
        .catch((error) => log.error({ err: error }, 'sending mails failed'))
        .finally(() => {
          running = undefined;
        });
    },
    idle: () => running ?? Promise.resolve(),
  };
}
