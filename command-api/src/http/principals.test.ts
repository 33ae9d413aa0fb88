import { randomUUID } from 'node:crypto';
import type { CommandContext } from '@shiftcover/domain';
import { CommandHandler, createPostgresEventStore } from '@shiftcover/eventstore';
import { aPerson, openBench, perFile, prepare } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CommandService } from '../command-service';
import { Principals } from './principals';

const bench = perFile(openBench);
let principals: Principals;
/** Another process writing to the same store: this one's memory never hears of its writes. */
let elsewhere: CommandService;

const system: CommandContext = { actor: { kind: 'system', name: 'test' }, now: new Date() };
const trace = () => ({ commandId: randomUUID() });

beforeAll(async () => {
  const { service, vault } = await prepare(bench.sql);
  principals = new Principals(
    new CommandHandler({ store: createPostgresEventStore({ sql: bench.sql }), vault }),
  );
  elsewhere = service;
});

async function register(role: 'staff' | 'admin') {
  const person = aPerson({ role, mail: false });
  await elsewhere.users.register(person, system, trace());
  const { passwordHash: _, ...personal } = person.personal;
  return { userId: person.userId, personal };
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
