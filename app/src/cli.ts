import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createCommandService } from '@shiftcover/command-api';
import { createUserSchema, DomainError, firstIssueMessage } from '@shiftcover/domain';
import { createLogger, hashPassword, loadConfig } from '@shiftcover/platform';
import { install, projections } from '@shiftcover/projections';
import { DEMO_PASSWORD, StoreNotEmpty, seedDemo } from './demo';
import { projectionStatus, rebuildProjections } from './projection-commands';
import { openRuntime, type Runtime } from './runtime';

const HELP = `Usage: npm run cli -- <command> [options]

Commands:
  users:create   Create an account through the same command path as the web app.
                 --username U --password P --role developer|admin|staff
                 --first-name F --last-name L --email E [--super-admin]
  demo:seed      Fill an empty store with demo residences, people and shifts, and print the sign-ins.
  projections:status           Each projection's checkpoint and lag behind the log.
  projections:rebuild [name]   Rebuild one projection (or all) into fresh tables, swapped in when caught up.
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

  const config = loadConfig();
  const runtime = await openRuntime(config, createLogger('warn'));
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
  const runtime = await openRuntime(loadConfig(), createLogger('warn'));
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
  const runtime = await openRuntime(loadConfig(), createLogger('warn'));
  try {
    for (const projection of projections) await install(runtime.sql, projection);
    await work(runtime);
  } finally {
    await runtime.close();
  }
}

class UsageError extends Error {}

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
  else if (command === undefined || command === '--help' || command === 'help') console.log(HELP);
  else throw new UsageError(`Unknown command: ${command}\n\n${HELP}`);
} catch (error) {
  if (error instanceof UsageError || error instanceof DomainError || error instanceof StoreNotEmpty) {
    console.error(error.message);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
