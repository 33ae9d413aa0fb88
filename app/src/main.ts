import { createCommandService } from '@shiftcover/command-api';
import { createLogger, loadConfig } from '@shiftcover/platform';
import { MailProcess, ShiftTimers, smtpTransport } from '@shiftcover/processes';
import { Positions } from '@shiftcover/read-api';
import { openRuntime } from './runtime';
import { buildServer } from './server';
import { closeOnSignals } from './shutdown';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL);
const runtime = await openRuntime(config, logger);
const server = await buildServer(runtime, config, logger);
await server.listen({ port: config.PORT, host: '0.0.0.0' });
// Completes shifts 1 hour after their end and expires unfilled ones, catching up at start once
// the shifts read model has caught up with the log.
await new Positions(runtime.sql)
  .waitFor(await runtime.store.headPosition(), ['shifts'])
  .catch(() => undefined);
const timers = new ShiftTimers({
  sql: runtime.sql,
  service: createCommandService(runtime.handler, runtime.vault),
  log: logger,
});
await timers.start();
// E-mail: planned from the log, sent over SMTP_URL when set, else kept in the outbox.
const positions = new Positions(runtime.sql);
const mail = new MailProcess({
  sql: runtime.sql,
  store: runtime.store,
  readModelsAt: (position, models) => positions.waitFor(position, models),
  publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
  smtpConfigured: Boolean(config.SMTP_URL),
  transport: config.SMTP_URL ? smtpTransport(config.SMTP_URL) : undefined,
  from: config.MAIL_FROM,
  log: logger,
});
await mail.start();

const url = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
logger.info(`Shift Coverage is running at ${url} (API documentation at ${url}/api/docs)`);
if ((await runtime.store.headPosition()) === 0n) {
  logger.info(
    'The store is empty. Create the first account with: npm run cli -- users:create --username U --password P --role developer --first-name F --last-name L --email E (or fill it with demo data: npm run cli -- demo:seed)',
  );
}

closeOnSignals(logger, async () => {
  await mail.stop();
  await timers.stop();
  await server.close();
  await runtime.close();
});
