import { randomUUID } from 'node:crypto';
import type { CommandContext } from '@shiftcover/domain';
import {
  CommandHandler,
  createPostgresEventStore,
  migrateEventStore,
  PersonalDataVault,
  personalDataMigrations,
} from '@shiftcover/eventstore';
import { connect, migrate } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandService, createCommandService } from '../command-service';
import { Principals } from './principals';

let db: TestDatabase;
let sql: Sql;
let principals: Principals;
/** Another process writing to the same store: this one's memory never hears of its writes. */
let elsewhere: CommandService;

const system: CommandContext = { actor: { kind: 'system', name: 'test' }, now: new Date() };
const trace = () => ({ commandId: randomUUID() });

beforeAll(async () => {
  db = await createTestDatabase();
  sql = connect(db.url);
  await migrate(sql, 'personal-data', personalDataMigrations);
  await migrateEventStore(sql);
  const vault = new PersonalDataVault(sql);
  const here = new CommandHandler({ store: createPostgresEventStore({ sql }), vault });
  principals = new Principals(here);
  elsewhere = createCommandService(
    new CommandHandler({ store: createPostgresEventStore({ sql }), vault }),
    vault,
  );
});

afterAll(async () => {
  await sql.end();
  await db.drop();
});

async function register(role: 'staff' | 'admin') {
  const userId = randomUUID();
  const personal = {
    username: `user-${userId.slice(0, 8)}`,
    email: `${userId.slice(0, 8)}@example.org`,
    firstName: 'Riley',
    lastName: 'Tran',
  };
  await elsewhere.users.register(
    {
      userId,
      role,
      superAdmin: false,
      emailNotificationsEnabled: false,
      personal: { ...personal, passwordHash: 'scrypt$x' },
    },
    system,
    trace(),
  );
  return { userId, personal };
}

describe('who a session belongs to', () => {
  it('follows a role change made by another process on the very next call', async () => {
    const { userId, personal } = await register('staff');
    expect(await principals.of(userId)).toEqual({ userId, role: 'staff', superAdmin: false });
    expect(await principals.of(userId)).toEqual({ userId, role: 'staff', superAdmin: false });
    await elsewhere.users.update({ userId, role: 'admin', superAdmin: true, personal }, system, trace());
    expect(await principals.of(userId)).toEqual({ userId, role: 'admin', superAdmin: true });
  });

  it('refuses a user deleted by another process on the very next call', async () => {
    const { userId } = await register('admin');
    expect(await principals.of(userId)).toMatchObject({ role: 'admin' });
    await elsewhere.users.delete(userId, system, trace());
    expect(await principals.of(userId)).toBeNull();
  });

  it('knows nobody for an unknown user', async () => {
    expect(await principals.of(randomUUID())).toBeNull();
  });
});
