import { streams } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import {
  appendStraight,
  appendUnapplicableUser,
  catchUp,
  dumpReadModels,
  HistoryWriter,
  historyStep,
  openBench,
  perFile,
  prepare,
  until,
} from '@shiftcover/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { projections } from './index';
import {
  isTransient,
  listParkedEvents,
  parkedEventCounts,
  retryParkedEvent,
  skipParkedEvent,
} from './parking';
import { applyEvents, oneAtATime, type Projection } from './projection';
import {
  applyNextBatch,
  applyNextBatchTogether,
  install,
  projectionConsumer,
  readCheckpoint,
  rebuild,
} from './projector';
import { auditLogProjection } from './read-models/audit-log';
import { usersProjection } from './read-models/users';
import { ProjectionRunner } from './runner';

const bench = perFile(openBench);

const userRows = async () =>
  (await bench.sql<{ id: string; first_name: string }[]>`select id, first_name from rm_users`).map(
    (r) => r.id,
  );

/** The users read model once NUL characters are taken out of names: the fix a retry would follow. */
const usersWithoutNul: Projection = {
  ...usersProjection,
  apply(tx, event, t) {
    const personal = event.data.personal as Record<string, unknown> | null | undefined;
    if (!personal) return usersProjection.apply(tx, event, t);
    const clean = Object.fromEntries(
      Object.entries(personal).map(([k, v]) => [k, typeof v === 'string' ? v.replaceAll('\u0000', '') : v]),
    );
    return usersProjection.apply(tx, { ...event, data: { ...event.data, personal: clean } }, t);
  },
};

describe('an event a read model cannot apply', () => {
  it('is parked, and every other event is still applied, live and after a rebuild', async () => {
    const { service, deps } = await prepare(bench.sql);
    const writer = new HistoryWriter(service);
    await writer.setUp();
    const runner = new ProjectionRunner(deps, projections, { idleMs: 100 });
    await runner.start();
    const poison = await appendUnapplicableUser(deps, 'nul-name');
    await writer.step({ kind: 'user', shift: 0, who: 0, extra: 1 });
    await writer.step({ kind: 'residence', shift: 0, who: 0, extra: 1 });
    const head = await deps.store.headPosition();
    await until(async () => {
      const checkpoints = await Promise.all(projections.map((p) => readCheckpoint(bench.sql, p.name)));
      return checkpoints.every((c) => c!.position === head);
    });
    await runner.stop();

    // The users read model has every account but the one it could not store; the others saw it.
    expect(await userRows()).toHaveLength(6);
    expect(await userRows()).not.toContain(poison.userId);
    const [audited] =
      await bench.sql`select count(*)::int as n from rm_audit_logs where entity_id = ${poison.userId}`;
    expect(audited!.n).toBe(1);
    expect(await bench.sql`select * from rm_residences`).toHaveLength(1);

    const [parked, ...others] = await listParkedEvents(bench.sql);
    expect(others).toEqual([]);
    expect(parked).toMatchObject({
      consumer: 'users',
      eventId: poison.eventId,
      position: poison.position,
      streamId: streams.user(poison.userId),
      eventType: 'UserRegistered',
      status: 'parked',
    });
    expect(parked!.error).toMatch(/0x00/);
    expect(await parkedEventCounts(bench.sql)).toEqual({ users: 1 });

    const live = await dumpReadModels(bench.sql);
    for (const projection of projections) await rebuild(deps, projection);
    expect(await dumpReadModels(bench.sql)).toEqual(live);
    expect((await listParkedEvents(bench.sql)).map((p) => p.eventId)).toEqual([poison.eventId]);
  });

  it('is retried by an operator: still failing it stays parked, once fixed it is applied and leaves the list', async () => {
    const { deps } = await prepare(bench.sql);
    for (const projection of projections) await install(bench.sql, projection);
    const poison = await appendUnapplicableUser(deps, 'nul-name');
    await catchUp(deps, projections);
    expect(await parkedEventCounts(bench.sql)).toEqual({ users: 1 });

    const unchanged = await retryParkedEvent(
      deps,
      [projectionConsumer(deps, usersProjection)],
      'users',
      poison.eventId,
    );
    expect(unchanged).toMatchObject({ applied: false, error: expect.stringMatching(/0x00/) });
    expect((await listParkedEvents(bench.sql))[0]!.attempts).toBe(2);

    const fixed = await retryParkedEvent(
      deps,
      [projectionConsumer(deps, usersWithoutNul)],
      'users',
      poison.eventId,
    );
    expect(fixed).toMatchObject({ applied: true, parked: { eventId: poison.eventId } });
    expect(await bench.sql`select first_name from rm_users where id = ${poison.userId}`).toEqual([
      { first_name: 'AB' },
    ]);
    expect(await parkedEventCounts(bench.sql)).toEqual({});
    await expect(
      retryParkedEvent(deps, [projectionConsumer(deps, usersProjection)], 'users', poison.eventId),
    ).rejects.toThrow(/No event .* is parked for users/);
  });

  it('is skipped by an operator for good: it leaves the list and a rebuild passes it over', async () => {
    const { deps } = await prepare(bench.sql);
    for (const projection of projections) await install(bench.sql, projection);
    const poison = await appendUnapplicableUser(deps, 'nul-name');
    await catchUp(deps, projections);
    await skipParkedEvent(bench.sql, 'users', poison.eventId, 'pasted text, account created again');
    expect(await parkedEventCounts(bench.sql)).toEqual({});
    await rebuild(deps, usersProjection);
    expect(await listParkedEvents(bench.sql)).toEqual([]);
    expect(await listParkedEvents(bench.sql, { all: true })).toEqual([
      expect.objectContaining({
        eventId: poison.eventId,
        status: 'skipped',
        skipReason: 'pasted text, account created again',
      }),
    ]);
  });

  it('is never parked when the failure is the database, not the event: the batch waits and is retried', async () => {
    const { service, deps } = await prepare(bench.sql);
    await install(bench.sql, usersProjection);
    await new HistoryWriter(service).setUp();
    let down = true;
    const unreachable: Projection = {
      ...usersProjection,
      async apply(tx, event, t) {
        // The server ends this connection in the middle of the batch, as a restart would.
        if (down) await tx`select pg_terminate_backend(pg_backend_pid())`;
        return usersProjection.apply(tx, event, t);
      },
    };
    await expect(applyNextBatch(deps, unreachable)).rejects.toSatisfy(isTransient);
    expect((await readCheckpoint(bench.sql, 'users'))!.position).toBe(0n);
    expect(await parkedEventCounts(bench.sql)).toEqual({});
    down = false;
    await catchUp(deps, [unreachable]);
    expect(await userRows()).toHaveLength(5);
    expect(await parkedEventCounts(bench.sql)).toEqual({});
  });

  it('is parked when its rows, written by COPY, are refused, caught up and rebuilt alike', async () => {
    const { deps } = await prepare(bench.sql);
    await install(bench.sql, auditLogProjection);
    // Two residences, the first stamped with a time PostgreSQL cannot read, as an older API might
    // have let through: its audit entry is refused in a batch the audit log writes by COPY.
    const created = [];
    for (const [name, at] of [
      ['North Wing', 'the first of March'],
      ['South Wing', '2026-03-01T12:00:00.000Z'],
    ] as const) {
      const residenceId = crypto.randomUUID();
      const { eventId: id } = await appendStraight(
        deps.store,
        streams.residence(residenceId),
        'ResidenceCreated',
        {
          residenceId,
          name,
          at,
        },
      );
      created.push({ id, residenceId });
    }
    const entries = () => bench.sql<{ description: string }[]>`select description from rm_audit_logs`;

    for (const bringUp of [
      () => catchUp(deps, [auditLogProjection]),
      () => rebuild(deps, auditLogProjection),
    ]) {
      await bringUp();
      expect(await entries()).toEqual([{ description: 'Created the residence South Wing' }]);
      const parked = await listParkedEvents(bench.sql);
      expect(parked).toEqual([
        expect.objectContaining({ consumer: 'audit_log', eventId: created[0]!.id, status: 'parked' }),
      ]);
      expect(parked[0]!.error).toMatch(/time zone/);
    }
  });

  it('is parked even when the error itself quotes the text PostgreSQL refuses', async () => {
    const { deps } = await prepare(bench.sql);
    await install(bench.sql, usersProjection);
    const poison = await appendUnapplicableUser(deps, 'nul-name');
    const quoting: Projection = {
      ...usersProjection,
      async apply(_tx, event) {
        throw new Error(`Unusable first name ${(event.data.personal as { firstName: string }).firstName}`);
      },
    };
    await catchUp(deps, [quoting]);
    expect(await listParkedEvents(bench.sql)).toEqual([
      expect.objectContaining({ eventId: poison.eventId, error: 'Unusable first name A\\0B' }),
    ]);
  });

  it('tells the infrastructure apart from the event', () => {
    for (const code of ['08006', '57P01', '40001', '40P01', '53300', 'ECONNREFUSED', 'CONNECTION_CLOSED'])
      expect(isTransient(Object.assign(new Error(code), { code }))).toBe(true);
    expect(isTransient(Object.assign(new Error('read models behind'), { statusCode: 503 }))).toBe(true);
    expect(isTransient(Object.assign(new Error('EventStoreDB down'), { type: 'unavailable' }))).toBe(true);
    // The Unix socket of a stopped server is gone; a file that is missing elsewhere is no outage.
    expect(isTransient(Object.assign(new Error('no socket'), { code: 'ENOENT', syscall: 'connect' }))).toBe(
      true,
    );
    expect(isTransient(Object.assign(new Error('no file'), { code: 'ENOENT', syscall: 'open' }))).toBe(false);
    for (const code of ['22021', '23505', '42P01', undefined])
      expect(isTransient(Object.assign(new Error('bad event'), { code }))).toBe(false);
    expect(isTransient(new TypeError("Cannot read properties of undefined (reading 'at')"))).toBe(false);
  });
});

/** The projection failing (after writing part of its change, as a real failure would) on chosen events. */
function failingOn(projection: Projection, poisoned: Set<string>): Projection {
  const applyBatch: Projection['applyBatch'] = async (tx, events, t) => {
    await applyEvents(projection, tx, events, t);
    // PostgreSQL refuses NUL in text: the same error the users read model meets.
    if (events.some((event) => poisoned.has(event.id))) await tx`select ${'A\u0000B'}::text`;
  };
  return { ...projection, applyBatch, apply: oneAtATime(applyBatch) };
}

/** The projection as if the chosen events had never been written. */
function passingOver(projection: Projection, poisoned: ReadonlySet<string>): Projection {
  const applyBatch: Projection['applyBatch'] = (tx, events, t) =>
    applyEvents(
      projection,
      tx,
      events.filter((event) => !poisoned.has(event.id)),
      t,
    );
  return { ...projection, applyBatch, apply: oneAtATime(applyBatch) };
}

describe('read models with events they cannot apply', () => {
  it('hold every other event exactly as without them, in any batch sizes, one by one or together, and a rebuild equals live', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(historyStep, { minLength: 10, maxLength: 40 }),
        fc.array(fc.nat(40), { maxLength: 3 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
        fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (steps, nulNamesAt, picks, batchSizes, together) => {
          const { service, deps } = await prepare(bench.sql);
          const writer = new HistoryWriter(service);
          await writer.setUp();
          // Accounts whose name holds a NUL character: only the users read model cannot apply them.
          const nulNames = new Set<string>();
          for (const [i, step] of steps.entries()) {
            if (nulNamesAt.includes(i))
              nulNames.add((await appendUnapplicableUser(deps, `nul-${i}`)).eventId);
            await writer.step(step);
          }
          // Any other events, picked at random, that every read model fails on.
          const all: RecordedEvent[] = await deps.store.readAll(0n, 100_000);
          const picked = new Set(picks.map((n) => all[n % all.length]!.id));
          const unapplicable = (p: Projection) =>
            p.name === 'users' ? new Set([...picked, ...nulNames]) : picked;

          const failing = projections.map((p) => failingOn(p, picked));
          for (const projection of failing) await install(bench.sql, projection);
          let round = 0;
          if (together) {
            // As the runner follows the log: every projection given each batch together, a batch
            // short of its size (the head of the log) to all of them at once in one transaction.
            let position = 0n;
            for (;;) {
              const batchSize = batchSizes[round++ % batchSizes.length]!;
              const outcome = await applyNextBatchTogether({ ...deps, batchSize }, failing, position);
              if (outcome.events === 0) break;
              expect(outcome.busy).toEqual([]);
              position = [...outcome.advanced.values()][0]!;
            }
          } else {
            for (const projection of failing) {
              const batchSize = batchSizes[round++ % batchSizes.length]!;
              while ((await applyNextBatch({ ...deps, batchSize }, projection)) > 0) {}
            }
          }
          const live = await dumpReadModels(bench.sql);
          const parkedNow = async () =>
            new Set(
              (await listParkedEvents(bench.sql, { limit: 10_000 })).map((p) => `${p.consumer} ${p.eventId}`),
            );
          const expected = new Set(
            projections.flatMap((p) => [...unapplicable(p)].map((id) => `${p.name} ${id}`)),
          );
          expect(await parkedNow()).toEqual(expected);

          for (const projection of failing) await rebuild(deps, projection);
          expect(await dumpReadModels(bench.sql)).toEqual(live);
          expect(await parkedNow()).toEqual(expected);

          for (const projection of projections)
            await rebuild(deps, passingOver(projection, unapplicable(projection)));
          expect(await dumpReadModels(bench.sql)).toEqual(live);
        },
      ),
      { numRuns: 8 },
    );
  });
});
