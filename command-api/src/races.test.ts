import { randomUUID } from 'node:crypto';
import { type CommandContext, DomainError, scheduleDecider, shiftDecider } from '@shiftcover/domain';
import {
  CommandHandler,
  createPostgresEventStore,
  type EventStore,
  type PersonalDataVault,
} from '@shiftcover/eventstore';
import { aShift, openBench, perFile, prepare } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CommandService, createCommandService } from './command-service';
import { streams } from './streams';

// A pool wide enough for the races below, fifty commands at once.
const bench = perFile(() => openBench(30));

const now = new Date('2026-11-23T15:00:00Z');
const admin: CommandContext = {
  actor: { kind: 'user', userId: 'admin-1', role: 'admin', superAdmin: false },
  now,
};
const staff = (userId: string): CommandContext => ({
  actor: { kind: 'user', userId, role: 'staff', superAdmin: false },
  now,
});
const trace = () => ({ commandId: randomUUID() });

let handler: CommandHandler;
let service: CommandService;
let store: EventStore;
let vault: PersonalDataVault;

async function postShift(
  date: string,
  startTime: string,
  endTime: string,
  requiredCredentials: string[] = [],
): Promise<string> {
  const shiftId = randomUUID();
  await service.shift(
    {
      type: 'PostShift',
      data: aShift({ shiftId, date, startTime, endTime, requiredCredentials }),
    },
    admin,
    trace(),
  );
  return shiftId;
}

/** Posts a shift on each date and has an admin assign it to `staffId`, through `via`. */
async function assignShifts(
  via: CommandService,
  staffId: string,
  dates: string[],
  startTime: string,
  endTime: string,
): Promise<void> {
  for (const date of dates) {
    const shiftId = await postShift(date, startTime, endTime);
    await via.shift(
      { type: 'AssignShift', data: { shiftId, staffId, assigneeRole: 'staff' } },
      admin,
      trace(),
    );
  }
}

function codeOf(result: PromiseSettledResult<unknown>): string | undefined {
  return result.status === 'rejected' && result.reason instanceof DomainError
    ? result.reason.code
    : undefined;
}

// A claim's reservation is stored with the claim in one transaction where the store can append to
// several streams at once (PostgreSQL); otherwise it is stored first and released if the claim
// fails (EventStoreDB). The invariants hold either way.
describe.each([
  ['in one transaction with the reservation', true],
  ['with the reservation stored first', false],
])('concurrent commands keep the invariants, %s', (_, together) => {
  beforeAll(async () => {
    ({ handler, service, store, vault } = await prepare(bench.sql, { together }));
  });

  it('50 staff race for one shift: exactly one wins, the others are told it is taken', async () => {
    const shiftId = await postShift('2026-12-01', '08:00', '16:00');
    const claimants = Array.from({ length: 50 }, (_, i) => `racer-${i}`);
    const results = await Promise.allSettled(
      claimants.map((userId) =>
        service.shift({ type: 'ClaimShift', data: { shiftId } }, staff(userId), trace()),
      ),
    );
    const winners = claimants.filter((_, i) => results[i]?.status === 'fulfilled');
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map(codeOf)).toEqual(
      Array(49).fill('not_claimable'),
    );

    const { state } = await handler.load(streams.shift(shiftId), shiftDecider);
    expect(state.assignedUserId).toBe(winners[0]);
    for (const userId of claimants) {
      const { state: schedule } = await handler.load(streams.schedule(userId), scheduleDecider);
      const holds = schedule.reservations.some((r) => r.shiftId === shiftId);
      expect(holds).toBe(userId === winners[0]);
    }
    // Stored together, a lost claim wrote nothing on its claimant's schedule; stored first, its
    // reservation was written and then released.
    const losers = claimants.filter((userId) => userId !== winners[0]);
    const written = await Promise.all(
      losers.map(async (userId) =>
        (await store.readStream(streams.schedule(userId))).events.map((e) => e.type),
      ),
    );
    for (const types of written) {
      if (together) expect(types).toEqual([]);
      else expect(types.join()).toMatch(/^(TimeReserved,TimeReleased,?)*$/);
    }
  });

  it('a claim on a schedule another process changed since this one last saw it decides again on the schedule as read', async () => {
    const elsewhere = createCommandService(
      new CommandHandler({ store: createPostgresEventStore({ sql: bench.sql }), vault }),
      vault,
    );
    const person = `elsewhere-${together}`;
    // Two claims here, so that this process remembers the schedule (an empty stream is not kept).
    for (const date of ['2026-12-18', '2026-12-19']) {
      const shiftId = await postShift(date, '08:00', '12:00');
      await service.shift({ type: 'ClaimShift', data: { shiftId } }, staff(person), trace());
    }
    // Twice, so that no single retry could catch up with it by chance.
    await assignShifts(elsewhere, person, ['2026-12-21', '2026-12-22'], '08:00', '12:00');
    const last = await postShift('2026-12-23', '08:00', '12:00');
    await service.shift({ type: 'ClaimShift', data: { shiftId: last } }, staff(person), trace());
    const { state } = await handler.load(streams.schedule(person), scheduleDecider);
    expect(state.reservations).toHaveLength(5);
  });

  it('two overlapping claims by one person race: at most one wins, 20 times over', async () => {
    for (let round = 0; round < 20; round++) {
      const date = `2026-12-${String(round + 2).padStart(2, '0')}`;
      const morning = await postShift(date, '08:00', '16:00');
      const midday = await postShift(date, '12:00', '20:00');
      const person = staff(`double-${round}`);
      const results = await Promise.allSettled([
        service.shift({ type: 'ClaimShift', data: { shiftId: morning } }, person, trace()),
        service.shift({ type: 'ClaimShift', data: { shiftId: midday } }, person, trace()),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.map(codeOf).filter(Boolean)).toEqual(['shift_conflict']);
    }
  });

  it('20 concurrent registrations of one username: exactly one account is created', async () => {
    const attempts = Array.from({ length: 20 }, (_, i) => ({
      userId: randomUUID(),
      role: 'staff' as const,
      superAdmin: false,
      emailNotificationsEnabled: true,
      personal: {
        username: i % 2 === 0 ? 'jordan' : ' Jordan ',
        email: `jordan.${i}@example.org`,
        firstName: 'Jordan',
        lastName: 'Reyes',
        passwordHash: 'scrypt$test',
      },
    }));
    const system: CommandContext = { actor: { kind: 'system', name: 'cli' }, now };
    const results = await Promise.allSettled(
      attempts.map((data) => service.users.register(data, system, trace())),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.map(codeOf).filter(Boolean)).toEqual(Array(19).fill('username_taken'));

    const created = await Promise.all(attempts.map((a) => service.users.exists(a.userId)));
    expect(created.filter(Boolean)).toHaveLength(1);

    // The losers' e-mail addresses were released: a newcomer may take one.
    const loser = attempts.find((_, i) => results[i]?.status === 'rejected');
    await service.users.register(
      { ...attempts[0]!, userId: randomUUID(), personal: { ...loser!.personal, username: 'jordan2' } },
      system,
      trace(),
    );
  });

  it('two claims by one person that together pass the weekly hours race: one wins, 10 times over', async () => {
    for (let round = 0; round < 10; round++) {
      const person = `weekly-${round}`;
      // 52 hours Sunday to Wednesday, Dec 6–9: either 8-hour shift fits under 60, both do not.
      await assignShifts(
        service,
        person,
        ['2026-12-06', '2026-12-07', '2026-12-08', '2026-12-09'],
        '08:00',
        '21:00',
      );
      const thursday = await postShift('2026-12-10', '08:00', '16:00');
      const friday = await postShift('2026-12-11', '08:00', '16:00');
      const results = await Promise.allSettled([
        service.shift({ type: 'ClaimShift', data: { shiftId: thursday } }, staff(person), trace()),
        service.shift({ type: 'ClaimShift', data: { shiftId: friday } }, staff(person), trace()),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.map(codeOf).filter(Boolean)).toEqual(['weekly_hours_exceeded']);
      const { state } = await handler.load(streams.schedule(person), scheduleDecider);
      expect(state.reservations).toHaveLength(5);
    }
  });

  it('two claims by one person too close for rest race: one wins, 20 times over', async () => {
    for (let round = 0; round < 20; round++) {
      const day = await postShift('2026-12-14', '08:00', '16:00');
      const night = await postShift('2026-12-14', '20:00', '04:00');
      const person = staff(`rest-${round}`);
      const results = await Promise.allSettled([
        service.shift({ type: 'ClaimShift', data: { shiftId: day } }, person, trace()),
        service.shift({ type: 'ClaimShift', data: { shiftId: night } }, person, trace()),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.map(codeOf).filter(Boolean)).toEqual(['rest_too_short']);
    }
  });

  it('a credential removed while a claim that needs it is in flight: never both, 20 times over', async () => {
    for (let round = 0; round < 20; round++) {
      const person = `credential-${round}`;
      const credentialId = randomUUID();
      await service.safety.schedule(
        { type: 'RecordCredential', data: { userId: person, credentialId, name: 'CPR', expiresOn: null } },
        admin,
        trace(),
      );
      const shiftId = await postShift('2026-12-16', '08:00', '16:00', ['CPR']);
      const [claim, removal] = await Promise.allSettled([
        service.shift({ type: 'ClaimShift', data: { shiftId } }, staff(person), trace()),
        service.safety.schedule(
          { type: 'RemoveCredential', data: { userId: person, credentialId } },
          admin,
          trace(),
        ),
      ]);
      const outcome = `${codeOf(claim!) ?? 'claimed'} / ${codeOf(removal!) ?? 'removed'}`;
      expect(['claimed / credential_in_use', 'missing_credential / removed']).toContain(outcome);

      const { state: schedule } = await handler.load(streams.schedule(person), scheduleDecider);
      const { state: shift } = await handler.load(streams.shift(shiftId), shiftDecider);
      const holds = shift.assignedUserId === person;
      expect(schedule.reservations.some((r) => r.shiftId === shiftId)).toBe(holds);
      expect(schedule.credentials.some((c) => c.name === 'CPR')).toBe(holds);
    }
  });
});
