import { randomUUID } from 'node:crypto';
import {
  type CommandContext,
  DomainError,
  dateAfter,
  easternInstant,
  fold,
  type ResidenceCommand,
  residenceDecider,
  type ScheduleEvent,
  scheduleDecider,
  type UserCommand,
  userDecider,
} from '@shiftcover/domain';
import { connect, migrate } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandHandler, type CommandReport, snapshotKind } from './command-handler';
import { PersonalDataVault, personalDataMigrations } from './personal-data';
import type { EventStore, NewEvent } from './port';
import { createPostgresEventStore, migrateEventStore } from './postgres/postgres-event-store';
import { PostgresSnapshots, snapshotMigrations } from './snapshots';

let db: TestDatabase;
let sql: Sql;
let store: EventStore;
let vault: PersonalDataVault;
let handler: CommandHandler;

const now = new Date('2026-03-01T14:00:00Z');
const developer: CommandContext = {
  actor: { kind: 'user', userId: 'dev-1', role: 'developer', superAdmin: false },
  now,
};

beforeAll(async () => {
  db = await createTestDatabase();
  sql = connect(db.url);
  await migrate(sql, 'personal-data', personalDataMigrations);
  await migrateEventStore(sql);
  await migrate(sql, 'stream-snapshots', snapshotMigrations);
  store = createPostgresEventStore({ sql });
  vault = new PersonalDataVault(sql);
  handler = new CommandHandler({
    store,
    vault,
    upcasters: [
      {
        type: 'ResidenceCreated',
        fromVersion: 0,
        upcast: ({ title, ...rest }) => ({ ...rest, name: title }),
      },
    ],
  });
});

afterAll(async () => {
  await sql.end();
  await db.drop();
});

const create = (residenceId: string, name = 'Maple House'): ResidenceCommand => ({
  type: 'CreateResidence',
  data: { residenceId, name, description: null, address: null },
});
const describeAs = (residenceId: string, description: string): ResidenceCommand => ({
  type: 'UpdateResidence',
  data: { residenceId, name: 'Maple House', description, address: null },
});

/**
 * A handler whose reads of streams are counted (`reads.count`), and another, as in another process,
 * on the same database.
 */
function handlersCountingReads() {
  const reads = { count: 0 };
  const counting: EventStore = {
    ...store,
    readStream: (streamId, options) => {
      reads.count += 1;
      return store.readStream(streamId, options);
    },
  };
  return {
    local: new CommandHandler({ store: counting, vault }),
    elsewhere: new CommandHandler({ store: createPostgresEventStore({ sql }), vault }),
    reads,
  };
}

describe('the command handler', () => {
  it('stores the decided events with who did it, and reports the global position', async () => {
    const commandId = randomUUID();
    const result = await handler.handle('residence-r1', residenceDecider, create('r1'), developer, {
      commandId,
      correlationId: 'corr-1',
    });
    expect(result.duplicate).toBe(false);
    const { events } = await store.readStream('residence-r1');
    expect(events).toHaveLength(1);
    expect(events[0]!.position).toBe(result.position);
    expect(events[0]!.metadata).toMatchObject({
      commandId,
      correlationId: 'corr-1',
      causationId: commandId,
      actorId: 'dev-1',
      actorRole: 'developer',
      schemaVersion: 1,
    });
  });

  it('returns the first result for a repeated command id and writes nothing new', async () => {
    const trace = { commandId: randomUUID() };
    const first = await handler.handle('residence-r2', residenceDecider, create('r2'), developer, trace);
    const again = await handler.handle('residence-r2', residenceDecider, create('r2'), developer, trace);
    expect(again).toMatchObject({ duplicate: true, position: first.position });
    expect((await store.readStream('residence-r2')).events).toHaveLength(1);
  });

  it('answers a repeat of a command another process handled on a stream it remembers, from the stream read again', async () => {
    const elsewhere = new CommandHandler({ store: createPostgresEventStore({ sql }), vault });
    await handler.handle(
      'residence-repeat-elsewhere',
      residenceDecider,
      create('repeat-elsewhere'),
      developer,
      {
        commandId: randomUUID(),
      },
    );
    await handler.load('residence-repeat-elsewhere', residenceDecider);
    const trace = { commandId: randomUUID() };
    const first = await elsewhere.handle(
      'residence-repeat-elsewhere',
      residenceDecider,
      describeAs('repeat-elsewhere', 'Garden'),
      developer,
      trace,
    );
    // Repeated here with another text: the first answer stands, whatever the repeat now says.
    const again = await handler.handle(
      'residence-repeat-elsewhere',
      residenceDecider,
      describeAs('repeat-elsewhere', 'Six beds'),
      developer,
      trace,
    );
    expect(again).toMatchObject({ duplicate: true, position: first.position, events: first.events });
    expect(again.state).toMatchObject({ description: 'Garden' });
    expect((await store.readStream('residence-repeat-elsewhere')).events).toHaveLength(2);
  });

  it('decides again when another command changed the stream first, so both land', async () => {
    await handler.handle('residence-r3', residenceDecider, create('r3'), developer, {
      commandId: randomUUID(),
    });
    const results = await Promise.all(
      ['Six beds', 'Step-free access', 'Garden', 'Near the bus'].map((text) =>
        handler.handle('residence-r3', residenceDecider, describeAs('r3', text), developer, {
          commandId: randomUUID(),
        }),
      ),
    );
    expect(results.every((r) => r.events.length === 1)).toBe(true);
    expect((await store.readStream('residence-r3')).events).toHaveLength(5);
  });

  it('writes nothing for a rejected command', async () => {
    const before = await store.headPosition();
    await expect(
      handler.handle(
        'residence-none',
        residenceDecider,
        { type: 'DeleteResidence', data: { residenceId: 'none' } },
        developer,
        {
          commandId: randomUUID(),
        },
      ),
    ).rejects.toBeInstanceOf(DomainError);
    expect(await store.headPosition()).toBe(before);
  });

  it('refuses a command as its stream stands before any step is taken, reporting it, and leaves a repeat to handle', async () => {
    const reports: CommandReport[] = [];
    const counted = new CommandHandler({ store, vault, onCommand: (report) => reports.push(report) });
    const before = await store.headPosition();
    await expect(
      counted.allowedAsItStands(
        'residence-nowhere',
        residenceDecider,
        describeAs('nowhere', 'Six beds'),
        developer,
        {
          commandId: randomUUID(),
        },
      ),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(await store.headPosition()).toBe(before);
    expect(reports).toEqual([{ type: 'UpdateResidence', outcome: 'rejected', code: 'not_found' }]);

    const trace = { commandId: randomUUID() };
    await counted.handle('residence-allowed', residenceDecider, create('allowed'), developer, trace);
    // The same creation again: already stored, so not refused as "already exists" but left to `handle`.
    const { state } = await counted.allowedAsItStands(
      'residence-allowed',
      residenceDecider,
      create('allowed'),
      developer,
      trace,
    );
    expect(state).toMatchObject({ status: 'active', name: 'Maple House' });
    expect(
      (await counted.handle('residence-allowed', residenceDecider, create('allowed'), developer, trace))
        .duplicate,
    ).toBe(true);
  });

  it('reports what became of each command: accepted, duplicate, rejected with its code, retried', async () => {
    const reports: CommandReport[] = [];
    const counted = new CommandHandler({ store, vault, onCommand: (report) => reports.push(report) });
    const trace = { commandId: randomUUID() };
    await counted.handle('residence-counted', residenceDecider, create('counted'), developer, trace);
    await counted.handle('residence-counted', residenceDecider, create('counted'), developer, trace);
    await expect(
      counted.handle('residence-counted', residenceDecider, create('counted'), developer, {
        commandId: randomUUID(),
      }),
    ).rejects.toBeInstanceOf(DomainError);
    // Two commands that both decide on the revision they read before either appends.
    let arrived = 0;
    let bothRead: () => void = () => {};
    const barrier = new Promise<void>((resolve) => {
      bothRead = resolve;
    });
    const afterBoth = (text: string) => async () => {
      if (++arrived === 2) bothRead();
      await barrier;
      return describeAs('counted', text);
    };
    await Promise.all(
      ['Six beds', 'Garden'].map((text) =>
        counted.handle('residence-counted', residenceDecider, afterBoth(text), developer, {
          commandId: randomUUID(),
        }),
      ),
    );
    const outcomes = reports.map(({ type, outcome }) => `${type} ${outcome}`);
    expect(outcomes.slice(0, 3)).toEqual([
      'CreateResidence accepted',
      'CreateResidence duplicate',
      'CreateResidence rejected',
    ]);
    expect(outcomes.slice(3).sort()).toEqual([
      'UpdateResidence accepted',
      'UpdateResidence accepted',
      'UpdateResidence retried',
    ]);
    expect(reports[2]!.code).toMatch(/^[a-z_]+$/);
  });

  it("runs a command's steps on other streams around each append: undone when the append loses a race, finished once stored", async () => {
    await handler.handle('residence-hooked', residenceDecider, create('hooked'), developer, {
      commandId: randomUUID(),
    });
    const steps: string[] = [];
    let arrived = 0;
    let bothReserved: () => void = () => {};
    const barrier = new Promise<void>((resolve) => {
      bothReserved = resolve;
    });
    const hooked = (text: string) =>
      handler.handle(
        'residence-hooked',
        residenceDecider,
        describeAs('hooked', text),
        developer,
        { commandId: randomUUID() },
        {
          beforeAppend: async ({ attempt }) => {
            steps.push(`${text} reserved on attempt ${attempt}`);
            if (++arrived === 2) bothReserved();
            await barrier;
            return async () => {
              steps.push(`${text} released on attempt ${attempt}`);
            };
          },
          afterAppend: async ({ events, attempt }) => {
            steps.push(`${text} settled ${events.map((e) => e.type).join()} on attempt ${attempt}`);
          },
        },
      );
    const results = await Promise.all([hooked('Garden'), hooked('Six beds')]);
    const loser = steps.find((step) => step.includes('released'))?.startsWith('Garden')
      ? 'Garden'
      : 'Six beds';
    const winner = loser === 'Garden' ? 'Six beds' : 'Garden';
    expect(steps.filter((step) => step.startsWith(winner))).toEqual([
      `${winner} reserved on attempt 1`,
      `${winner} settled ResidenceUpdated on attempt 1`,
    ]);
    expect(steps.filter((step) => step.startsWith(loser))).toEqual([
      `${loser} reserved on attempt 1`,
      `${loser} released on attempt 1`,
      `${loser} reserved on attempt 2`,
      `${loser} settled ResidenceUpdated on attempt 2`,
    ]);
    expect(results.map((r) => r.state.description)).toEqual(['Garden', 'Six beds']);
  });

  it('brings events stored in an older shape up to date when loading', async () => {
    await store.append(
      'residence-old',
      [
        {
          id: randomUUID(),
          type: 'ResidenceCreated',
          data: {
            residenceId: 'old',
            title: 'Oak Lodge',
            description: null,
            address: null,
            at: now.toISOString(),
          },
          metadata: {
            commandId: 'c',
            correlationId: 'c',
            causationId: 'c',
            actorId: 'dev-1',
            actorRole: 'developer',
            schemaVersion: 0,
          },
        },
      ],
      'no_stream',
    );
    const { state } = await handler.load('residence-old', residenceDecider);
    expect(state).toMatchObject({ status: 'active', name: 'Oak Lodge' });
  });

  it('loads what another process appended since this one last loaded the stream', async () => {
    const elsewhere = new CommandHandler({ store: createPostgresEventStore({ sql }), vault });
    await handler.handle('residence-r4', residenceDecider, create('r4'), developer, {
      commandId: randomUUID(),
    });
    expect((await handler.load('residence-r4', residenceDecider)).state).toMatchObject({ description: null });
    await elsewhere.handle('residence-r4', residenceDecider, describeAs('r4', 'Garden'), developer, {
      commandId: randomUUID(),
    });
    const loaded = await handler.load('residence-r4', residenceDecider);
    expect(loaded.state).toMatchObject({ description: 'Garden' });
    expect(loaded.revision).toBe(1n);
    expect(loaded.lastEventId).toBe((await store.readStream('residence-r4')).events[1]!.id);
  });

  it("folds what a load reads at once with the decider's evolveAll: the whole stream, then what came since", async () => {
    const batches: number[] = [];
    let steps = 0;
    const counting: typeof residenceDecider = {
      ...residenceDecider,
      evolve: (state, event) => {
        steps += 1;
        return residenceDecider.evolve(state, event);
      },
      evolveAll: (state, events) => {
        batches.push(events.length);
        return events.reduce(residenceDecider.evolve, state);
      },
    };
    const trace = () => ({ commandId: randomUUID() });
    await handler.handle('residence-r9', residenceDecider, create('r9'), developer, trace());
    for (const text of ['Six beds', 'Garden']) {
      await handler.handle('residence-r9', residenceDecider, describeAs('r9', text), developer, trace());
    }
    const loading = new CommandHandler({ store: createPostgresEventStore({ sql }), vault });
    expect((await loading.load('residence-r9', counting)).state).toMatchObject({ description: 'Garden' });
    await handler.handle(
      'residence-r9',
      residenceDecider,
      describeAs('r9', 'Near the bus'),
      developer,
      trace(),
    );
    expect((await loading.load('residence-r9', counting)).state).toMatchObject({
      description: 'Near the bus',
    });
    expect(batches).toEqual([3, 1]);
    expect(steps).toBe(0);
  });

  it('decides on a stream as it last left it without reading it, yet sees what was changed elsewhere', async () => {
    const { local, elsewhere, reads } = handlersCountingReads();
    const trace = () => ({ commandId: randomUUID() });
    await local.handle('residence-r6', residenceDecider, create('r6'), developer, trace());
    await local.load('residence-r6', residenceDecider);
    reads.count = 0;
    for (const text of ['Six beds', 'Garden', 'Near the bus']) {
      await local.handle('residence-r6', residenceDecider, describeAs('r6', text), developer, trace());
    }
    expect(reads.count).toBe(0);
    const deletion: ResidenceCommand = { type: 'DeleteResidence', data: { residenceId: 'r6' } };
    await elsewhere.handle('residence-r6', residenceDecider, deletion, developer, trace());
    await expect(
      local.handle('residence-r6', residenceDecider, describeAs('r6', 'Too late'), developer, trace()),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(reads.count).toBeGreaterThan(0);
    expect((await store.readStream('residence-r6')).events.map((e) => e.type)).toEqual([
      'ResidenceCreated',
      'ResidenceUpdated',
      'ResidenceUpdated',
      'ResidenceUpdated',
      'ResidenceDeleted',
    ]);
  });

  it('forgets the least recently used streams once the events folded into those it remembers reach its limit', async () => {
    const trace = () => ({ commandId: randomUUID() });
    // One long stream (30 events) and twenty of one event each, written by another handler.
    await handler.handle('residence-long', residenceDecider, create('long'), developer, trace());
    for (let i = 1; i < 30; i++) {
      await handler.handle(
        'residence-long',
        residenceDecider,
        describeAs('long', `Note ${i}`),
        developer,
        trace(),
      );
    }
    const short = Array.from({ length: 20 }, (_, i) => `residence-short-${i}`);
    for (const streamId of short) {
      await handler.handle(streamId, residenceDecider, create(streamId), developer, trace());
    }
    const after = async (remembered: { streams: number; events: number }) => {
      const limited = new CommandHandler({ store, vault, remembered });
      await limited.load('residence-long', residenceDecider);
      for (const streamId of short) await limited.load(streamId, residenceDecider);
      const size = limited.rememberedSize;
      // The short one first: a long stream not remembered is loaded, and remembered, by `latest`.
      const lastShort = (await limited.latest(short.at(-1)!, residenceDecider)).recalled;
      return { long: (await limited.latest('residence-long', residenceDecider)).recalled, lastShort, size };
    };
    // By count alone (21 of 100 streams) every one is remembered, the long one weighing 30 events.
    expect(await after({ streams: 100, events: Number.POSITIVE_INFINITY })).toEqual({
      long: true,
      lastShort: true,
      size: { streams: 21, events: 50 },
    });
    // With 40 events at most, the long stream went when the short ones reached half of them.
    const limited = await after({ streams: 100, events: 40 });
    expect(limited).toMatchObject({ long: false, lastShort: true });
    expect(limited.size.events).toBeLessThan(40 + 30);
    // Forgotten, it is read whole again, and decided on as it stands.
    const again = new CommandHandler({ store, vault, remembered: { streams: 100, events: 40 } });
    const loaded = await again.load('residence-long', residenceDecider);
    expect(loaded).toMatchObject({ revision: 29n, state: { description: 'Note 29' } });
  });

  it('decides a command with steps on other streams on the remembered stream only when it has none to take', async () => {
    const { local, elsewhere, reads } = handlersCountingReads();
    const trace = () => ({ commandId: randomUUID() });
    const stepsTaken: string[] = [];
    // Steps before the append only for a description naming a garden.
    const hooks = {
      stepsBefore: ({ command }: { command: ResidenceCommand }) =>
        command.type === 'UpdateResidence' && (command.data.description ?? '').includes('Garden'),
      beforeAppend: async ({ command, state }: { command: ResidenceCommand; state: unknown }) => {
        if (command.type === 'UpdateResidence' && (command.data.description ?? '').includes('Garden'))
          stepsTaken.push(`${command.data.description} on ${JSON.stringify(state).length}`);
        return undefined;
      },
    };
    const describe8 = (on: CommandHandler, text: string, withHooks = true) =>
      on.handle(
        'residence-r8',
        residenceDecider,
        describeAs('r8', text),
        developer,
        trace(),
        withHooks ? hooks : {},
      );
    await local.handle('residence-r8', residenceDecider, create('r8'), developer, trace());
    await local.load('residence-r8', residenceDecider);
    reads.count = 0;
    await describe8(local, 'Six beds');
    expect(reads.count).toBe(0);
    await describe8(local, 'Garden');
    expect(reads.count).toBe(1);
    expect(stepsTaken).toHaveLength(1);
    // Changed elsewhere: the remembered state is stale, the append refused, the command read again.
    await describe8(elsewhere, 'Quiet street', false);
    reads.count = 0;
    await describe8(local, 'Near the bus');
    expect(reads.count).toBeGreaterThan(0);
    // Without `stepsBefore`, a command with steps before its append always reads its stream first.
    reads.count = 0;
    await local.handle(
      'residence-r8',
      residenceDecider,
      describeAs('r8', 'Big kitchen'),
      developer,
      trace(),
      {
        beforeAppend: async () => undefined,
      },
    );
    expect(reads.count).toBe(1);
    expect((await store.readStream('residence-r8')).events.map((e) => e.data.description ?? null)).toEqual([
      null,
      'Six beds',
      'Garden',
      'Quiet street',
      'Near the bus',
      'Big kitchen',
    ]);
  });

  it('takes a read begun ahead as the first read of its stream, once, and decides again should it prove stale', async () => {
    const { local, elsewhere, reads } = handlersCountingReads();
    const trace = () => ({ commandId: randomUUID() });
    const steps = { stepsBefore: () => true, beforeAppend: async () => undefined };
    await elsewhere.handle('residence-r10', residenceDecider, create('r10'), developer, trace());

    // Read ahead (as beside a permission check), then handled: no second read of the stream, even
    // for a command with steps before its append, which would otherwise read it after recalling it.
    reads.count = 0;
    const ahead = local.readAhead([{ streamId: 'residence-r10', decider: residenceDecider }]);
    expect(reads.count).toBe(1);
    await local.handle('residence-r10', residenceDecider, describeAs('r10', 'Six beds'), developer, {
      ...trace(),
      readAhead: ahead,
    });
    expect(reads.count).toBe(1);
    // Taken once: a second command handed the same read ahead reads for itself.
    expect(ahead.take('residence-r10', residenceDecider)).toBeUndefined();
    await local.handle(
      'residence-r10',
      residenceDecider,
      describeAs('r10', 'Garden'),
      developer,
      { ...trace(), readAhead: ahead },
      steps,
    );
    expect(reads.count).toBe(2);

    // A stream changed elsewhere after the read ahead: its append is refused, and the command is
    // decided again on the stream as read, so both changes land.
    const stale = local.readAhead([{ streamId: 'residence-r10', decider: residenceDecider }]);
    await elsewhere.handle(
      'residence-r10',
      residenceDecider,
      describeAs('r10', 'Quiet street'),
      developer,
      trace(),
    );
    await local.handle('residence-r10', residenceDecider, describeAs('r10', 'Near the bus'), developer, {
      ...trace(),
      readAhead: stale,
    });
    // A read ahead of another stream, or of this one under another decider, is not taken.
    const other = local.readAhead([{ streamId: 'residence-r10', decider: userDecider }]);
    expect(other.take('residence-r10', residenceDecider)).toBeUndefined();
    expect(other.take('residence-other', userDecider)).toBeUndefined();
    expect((await store.readStream('residence-r10')).events.map((e) => e.data.description ?? null)).toEqual([
      null,
      'Six beds',
      'Garden',
      'Quiet street',
      'Near the bus',
    ]);
  });

  it('reads for itself when a read begun ahead failed, and leaves an untaken one unheard', async () => {
    const failing: EventStore = {
      ...store,
      readStream: async () => {
        throw new Error('connection lost');
      },
    };
    const broken = new CommandHandler({ store: failing, vault });
    // Never taken, its failure reaches no one (vitest fails the run on an unhandled rejection).
    broken.readAhead([{ streamId: 'residence-r11', decider: residenceDecider }]);
    const ahead = broken.readAhead([{ streamId: 'residence-r11', decider: residenceDecider }]);
    const { local, reads } = handlersCountingReads();
    reads.count = 0;
    await local.handle('residence-r11', residenceDecider, create('r11'), developer, {
      commandId: randomUUID(),
      readAhead: { take: (streamId, decider) => ahead.take(streamId, decider) },
    });
    expect(reads.count).toBe(1);
    expect((await store.readStream('residence-r11')).events.map((e) => e.type)).toEqual(['ResidenceCreated']);
  });

  it('loads a stream written anew from scratch, not on top of what it held before', async () => {
    await handler.handle('residence-r5', residenceDecider, create('r5', 'Cedar Grove'), developer, {
      commandId: randomUUID(),
    });
    await handler.handle('residence-r5', residenceDecider, describeAs('r5', 'Old'), developer, {
      commandId: randomUUID(),
    });
    expect((await handler.load('residence-r5', residenceDecider)).state).toMatchObject({
      description: 'Old',
    });
    await sql`delete from events where stream_id = 'residence-r5'`;
    await sql`delete from event_streams where stream_id = 'residence-r5'`;
    const elsewhere = new CommandHandler({ store: createPostgresEventStore({ sql }), vault });
    for (const command of [create('r5', 'Birch House'), describeAs('r5', 'New')]) {
      await elsewhere.handle('residence-r5', residenceDecider, command, developer, {
        commandId: randomUUID(),
      });
    }
    expect((await handler.load('residence-r5', residenceDecider)).state).toMatchObject({
      description: 'New',
    });
  });

  it('keeps personal data sealed at rest and readable through the handler until erasure', async () => {
    const register: UserCommand = {
      type: 'RegisterUser',
      data: {
        userId: 'u-private',
        role: 'staff',
        superAdmin: false,
        emailNotificationsEnabled: true,
        personal: {
          username: 'casey.private',
          email: 'casey@example.org',
          firstName: 'Casey',
          lastName: 'Nguyen',
          passwordHash: 'scrypt$secret',
        },
      },
    };
    await handler.handle('user-u-private', userDecider, register, developer, { commandId: randomUUID() });
    const [row] = await sql`select data::text as data from events where stream_id = 'user-u-private'`;
    expect(row!.data).not.toContain('casey');
    expect(row!.data).not.toContain('Nguyen');
    expect(row!.data).not.toContain('scrypt$secret');
    expect((await handler.load('user-u-private', userDecider)).state.personal?.username).toBe(
      'casey.private',
    );

    await vault.erase('u-private');
    const { state } = await handler.load('user-u-private', userDecider);
    expect(state).toMatchObject({ personal: null, erased: true });
  });
});

describe("the command handler's snapshots of long streams", () => {
  // The schedule's name and version, as `schedule@1`.
  const KIND = snapshotKind(scheduleDecider)!;
  /** `count` of a person's reservations as stored events, one every other day from `firstDay`. */
  function reservations(count: number, firstDay = 0): NewEvent[] {
    return Array.from({ length: count }, (_, i) => {
      const date = dateAfter('2020-01-01', 2 * (firstDay + i));
      const start = easternInstant(date, '08:00');
      const commandId = randomUUID();
      return {
        id: randomUUID(),
        type: 'TimeReserved',
        data: {
          userId: 'u-1',
          shiftId: randomUUID(),
          start: start.toISOString(),
          end: new Date(start.getTime() + 8 * 3_600_000).toISOString(),
          label: { location: 'Maple House', date, startTime: '08:00', endTime: '16:00' },
          at: '2020-01-01T00:00:00.000Z',
        },
        metadata: {
          commandId,
          correlationId: commandId,
          causationId: commandId,
          actorId: 'system:schedules',
          actorRole: 'system',
          schemaVersion: 1,
        },
      };
    });
  }

  async function stream(streamId: string, events: NewEvent[]) {
    for (let i = 0; i < events.length; i += 200) {
      await store.append(streamId, events.slice(i, i + 200), i === 0 ? 'no_stream' : BigInt(i - 1));
    }
  }

  /** A handler keeping snapshots, whose reads count the events they return. */
  function counting() {
    const read = { events: 0 };
    const countingStore: EventStore = {
      ...store,
      readStream: async (streamId, options) => {
        const result = await store.readStream(streamId, options);
        read.events += result.events.length;
        return result;
      },
    };
    const snapshotStore = new PostgresSnapshots(sql);
    return {
      handler: new CommandHandler({ store: countingStore, vault, snapshotStore }),
      read,
      snapshotStore,
    };
  }

  const wholeFold = async (streamId: string) =>
    fold(
      scheduleDecider,
      (await store.readStream(streamId)).events.map(
        (event) => ({ type: event.type, data: event.data }) as ScheduleEvent,
      ),
    );

  async function keptRevision(streamId: string): Promise<bigint | undefined> {
    for (let i = 0; i < 100; i++) {
      const kept = await new PostgresSnapshots(sql).read(streamId, KIND);
      if (kept) return kept.revision;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return undefined;
  }

  it("keeps a long stream's state once 500 events came after the last one kept, and loads from it and what came after", async () => {
    const streamId = `schedule-${randomUUID()}`;
    const events = reservations(620);
    await stream(streamId, events.slice(0, 499));
    const first = counting();
    await first.handler.load(streamId, scheduleDecider);
    // 499 events: not yet.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await first.snapshotStore.read(streamId, KIND)).toBeUndefined();
    await store.append(streamId, events.slice(499, 600), 498n);
    await first.handler.load(streamId, scheduleDecider);
    expect(await keptRevision(streamId)).toBe(599n);

    await store.append(streamId, events.slice(600), 599n);
    const next = counting();
    const loaded = await next.handler.load(streamId, scheduleDecider);
    // The snapshot's own event and the twenty after it, not 620.
    expect(next.read.events).toBe(21);
    expect(loaded.revision).toBe(619n);
    expect(loaded.state).toEqual(await wholeFold(streamId));
    // A repeat of the first command is still known for one.
    expect(loaded.commandIds.has(events[0]!.metadata.commandId)).toBe(true);
    expect(loaded.commandIds.size).toBe(620);
    // A handler without a snapshot store reads it whole.
    const whole = new CommandHandler({ store, vault });
    expect((await whole.load(streamId, scheduleDecider)).state).toEqual(loaded.state);
  });

  it('reads the stream whole when the snapshot kept is not its own, cannot be restored, or is of another version', async () => {
    const streamId = `schedule-${randomUUID()}`;
    const events = reservations(40);
    await stream(streamId, events);
    const expected = await wholeFold(streamId);
    const snapshots = new PostgresSnapshots(sql);
    const state = JSON.stringify(expected);
    const commandIds = events.map((event) => event.metadata.commandId);
    const cases = [
      // A store begun afresh: the event the snapshot was taken at is not there.
      {
        kind: KIND,
        snapshot: { revision: 39n, lastEventId: randomUUID(), state, commandIds },
        reads: 41,
      },
      {
        kind: KIND,
        snapshot: { revision: 39n, lastEventId: events[39]!.id, state: '{"x":', commandIds },
        reads: 41,
      },
      {
        kind: KIND,
        snapshot: { revision: 39n, lastEventId: events[39]!.id, state: '{"reservations":7}', commandIds },
        reads: 41,
      },
      // Written by a version of the decider with another state: never read.
      {
        kind: 'schedule@0',
        snapshot: { revision: 39n, lastEventId: events[39]!.id, state, commandIds },
        reads: 40,
      },
    ];
    // Each but the last read the snapshot's event first (one), then the whole stream.
    for (const { kind, snapshot, reads } of cases) {
      await sql`delete from stream_snapshots where stream_id = ${streamId}`;
      await snapshots.write(streamId, kind, snapshot);
      const { handler: fresh, read } = counting();
      const loaded = await fresh.load(streamId, scheduleDecider);
      expect(loaded.state).toEqual(expected);
      expect(read.events).toBe(reads);
    }
    // The one that was not the stream's was let go.
    await sql`delete from stream_snapshots where stream_id = ${streamId}`;
    await snapshots.write(streamId, KIND, cases[0]!.snapshot);
    await counting().handler.load(streamId, scheduleDecider);
    expect(await snapshots.read(streamId, KIND)).toBeUndefined();
    // And a good one is used.
    await snapshots.write(streamId, KIND, {
      revision: 39n,
      lastEventId: events[39]!.id,
      state,
      commandIds,
    });
    const { handler: fresh, read } = counting();
    expect((await fresh.load(streamId, scheduleDecider)).state).toEqual(expected);
    expect(read.events).toBe(1);
  });

  it('never replaces a snapshot with one of an earlier revision', async () => {
    const snapshots = new PostgresSnapshots(sql);
    const streamId = `schedule-${randomUUID()}`;
    const at = (revision: bigint) => ({
      revision,
      lastEventId: `e-${revision}`,
      state: '{}',
      commandIds: [],
    });
    await snapshots.write(streamId, KIND, at(900n));
    await snapshots.write(streamId, KIND, at(400n));
    expect((await snapshots.read(streamId, KIND))?.revision).toBe(900n);
    await snapshots.write(streamId, KIND, at(1400n));
    expect((await snapshots.read(streamId, KIND))?.lastEventId).toBe('e-1400');
  });
});
