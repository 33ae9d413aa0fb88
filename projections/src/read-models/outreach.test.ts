import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@shiftcover/eventstore';
import { openBench, perFile } from '@shiftcover/testing';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { physicalTable } from '../projection';
import { outreachProjection } from './outreach';

const bench = perFile(openBench);

const SHIFTS = ['s1', 's2', 's3'];
const PEOPLE = ['u1', 'u2', 'u3'];

/** One event of a shift's life as the outreach read model sees it, with what it needs of its data. */
const anEvent = fc.oneof(
  fc.record({ type: fc.constant('ShiftPosted'), shift: fc.constantFrom(...SHIFTS), test: fc.boolean() }),
  fc.record({
    type: fc.constantFrom('ClaimDenied', 'DropApproved', 'HolderRemoved', 'ShiftClaimed', 'ShiftAssigned'),
    shift: fc.constantFrom(...SHIFTS),
  }),
  fc.record({
    type: fc.constant('ShiftUpdated'),
    shift: fc.constantFrom(...SHIFTS),
    hour: fc.integer({ min: 6, max: 20 }),
  }),
  fc.record({
    type: fc.constantFrom('ShiftDeleted', 'ShiftCompleted', 'ShiftExpired'),
    shift: fc.constantFrom(...SHIFTS),
  }),
  fc.record({
    type: fc.constant('ShiftEscalated'),
    shift: fc.constantFrom(...SHIFTS),
    hours: fc.option(fc.integer({ min: 1, max: 72 })),
    told: fc.subarray(PEOPLE),
  }),
  fc.record({ type: fc.constant('UserDeleted'), user: fc.constantFrom(...PEOPLE) }),
);

function recorded(step: Record<string, unknown>, i: number): RecordedEvent {
  const at = new Date(Date.UTC(2031, 0, 1, 0, i)).toISOString();
  const shift = { shiftId: step.shift, location: 'Maple House', date: '2031-02-01', at };
  const data: Record<string, unknown> = (() => {
    switch (step.type) {
      case 'ShiftPosted':
        return { ...shift, startTime: '08:00', endTime: '16:00', testData: step.test };
      case 'ShiftUpdated':
        return { ...shift, startTime: `${String(step.hour).padStart(2, '0')}:00`, endTime: '22:00' };
      case 'ShiftEscalated':
        return {
          ...shift,
          opening: 1 + (i % 3),
          step: { hoursBeforeStart: step.hours, audience: 'qualified', mark: step.hours ? null : 'urgent' },
          notices: (step.told as string[]).map((userId) => ({ userId, channel: 'email' })),
        };
      case 'UserDeleted':
        return { userId: step.user, at };
      default:
        return shift;
    }
  })();
  return { id: randomUUID(), type: step.type as string, data } as unknown as RecordedEvent;
}

async function tablesOf(generation: number) {
  const t = (table: string) => physicalTable(`${table}_${generation}`, 0);
  await bench.sql.unsafe(outreachProjection.schema(t));
  return t;
}

async function rows(t: (table: string) => string) {
  const ladders = await bench.sql.unsafe(`select * from ${t('shift_ladders')} order by shift_id`);
  const notices = await bench.sql.unsafe(`select * from ${t('shift_outreach')} order by id`);
  return { ladders, notices };
}

let generation = 0;

it('folded a batch at a time in memory equals applied one event at a time, erasures and all', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(anEvent, { minLength: 1, maxLength: 40 }),
      fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 6 }),
      async (steps, cuts) => {
        const events = steps.map((step, i) => recorded(step, i));
        const oneByOne = await tablesOf(++generation);
        const folded = await tablesOf(++generation);
        await bench.sql.begin(async (tx) => {
          for (const event of events) await outreachProjection.apply(tx, event, oneByOne);
        });
        for (let from = 0, cut = 0; from < events.length; cut++) {
          const size = cuts[cut % cuts.length]!;
          await bench.sql.begin((tx) =>
            outreachProjection.applyBatch!(tx, events.slice(from, from + size), folded),
          );
          from += size;
        }
        expect(await rows(folded)).toEqual(await rows(oneByOne));
      },
    ),
    { numRuns: 60 },
  );
});
