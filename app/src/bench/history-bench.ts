import { randomUUID } from 'node:crypto';
import {
  type CommandContext,
  dateAfter,
  easternInstant,
  foldInto,
  type ScheduleEvent,
  scheduleDecider,
} from '@shiftcover/domain';
import { CommandHandler, PostgresSnapshots, SNAPSHOT_EVERY, snapshotKind } from '@shiftcover/eventstore';
import type { Runtime } from '../runtime';

/** About the shifts a full-time person works in a year. */
const SHIFTS_A_YEAR = 250;
/** Shifts a person already holds: none, a year's, four years', twenty years'. */
export const HISTORY_SIZES = [0, SHIFTS_A_YEAR, 4 * SHIFTS_A_YEAR, 20 * SHIFTS_A_YEAR];

export interface HistoryFigure {
  /** Shifts the schedule held before the measured decisions. */
  held: number;
  /** Mean time of one decision to reserve a new shift's time, µs. */
  decideMicros: number;
  /** Mean time of the fold's step that records it (or its release), each from the state before, µs. */
  foldMicros: number;
  /** Mean time to fold the whole history from nothing as a load does (at once), ms. */
  loadMillis: number;
  /** The same folded step by step, one event after another, ms. */
  stepByStepLoadMillis: number;
}

const USER = 'bench-person';
const FIRST_DAY = '2026-01-01';

/** An eight-hour day shift `day` days after the first, as the person's schedule holds it. */
function dayShift(shiftId: string, day: number) {
  const date = dateAfter(FIRST_DAY, day);
  const start = easternInstant(date, '08:00');
  return {
    shiftId,
    start: start.toISOString(),
    end: new Date(start.getTime() + 8 * 3_600_000).toISOString(),
    label: { location: 'Maple House', date, startTime: '08:00', endTime: '16:00' },
  };
}

/** The events of a schedule holding `held` shifts, one every other day. */
function historyOf(held: number): ScheduleEvent[] {
  return Array.from({ length: held }, (_, i) => ({
    type: 'TimeReserved',
    data: { userId: USER, ...dayShift(`held-${i}`, 2 * i), at: `${FIRST_DAY}T00:00:00.000Z` },
  }));
}

/** The mean time of `run` over `times` runs after one to warm up, ms to a tenth of a µs. */
function meanMillis(run: () => unknown, times: number): number {
  run();
  const started = performance.now();
  for (let k = 0; k < times; k++) run();
  return Math.round(((performance.now() - started) / times) * 10_000) / 10_000;
}

/**
 * What a claim's reservation costs on the person's schedule as their history grows (the pure
 * decider, no database): at each size, `decisions` decisions to reserve a shift after the held
 * ones, then as many steps of the fold recording one, after as many again to warm up.
 */
export function scheduleHistory(sizes: number[], decisions: number): HistoryFigure[] {
  const context: CommandContext = {
    actor: { kind: 'user', userId: USER, role: 'staff', superAdmin: false },
    now: new Date(`${FIRST_DAY}T00:00:00Z`),
  };
  return sizes.map((held) => {
    const history = historyOf(held);
    // A load folds the stream at once (the decider's evolveAll), as the command handler does.
    const load = () => foldInto(scheduleDecider, scheduleDecider.initialState(), history);
    const state = load();
    // The new shifts fall after the held ones, on fifty days between them and beyond.
    const commands = Array.from({ length: 50 }, (_, k) => ({
      type: 'ReserveTime' as const,
      data: { userId: USER, ...dayShift(`new-${k}`, 2 * held + 1 + 2 * k) },
    }));
    const decide = (k: number) => scheduleDecider.decide(commands[k % commands.length]!, state, context);
    const release = { type: 'ReleaseTime' as const, data: { userId: USER, shiftId: 'new-0' } };
    const timed = (run: (k: number) => unknown) => {
      for (let k = 0; k < decisions; k++) run(k);
      const started = performance.now();
      for (let k = 0; k < decisions; k++) run(k);
      return Math.round(((performance.now() - started) * 1000 * 10) / decisions) / 10;
    };
    const decideMicros = timed(decide);
    // Each step from the state the one before made, as the command handler folds what it appends:
    // a new shift's reservation, then its release, so that the history keeps its length.
    const recorded = [
      decide(0),
      scheduleDecider.decide(release, scheduleDecider.evolve(load(), decide(0)[0]!), context),
    ];
    let folded = state;
    const foldMicros = timed((k) => {
      folded = scheduleDecider.evolve(folded, recorded[k % 2]![0]!);
    });
    // Fewer runs of the longer histories: folded step by step, twenty years take a good part of a second.
    const loads = Math.max(2, Math.min(50, Math.round(decisions / Math.max(1, held))));
    const loadMillis = meanMillis(load, loads);
    const stepByStepLoadMillis = meanMillis(
      () => history.reduce(scheduleDecider.evolve, scheduleDecider.initialState()),
      loads,
    );
    return { held, decideMicros, foldMicros, loadMillis, stepByStepLoadMillis };
  });
}

export interface StoredLoadFigure {
  held: number;
  /** The median time of a load that reads the whole stream from the store and folds it, ms. */
  wholeMillis: number;
  /** The same from the snapshot kept of it and the events after it; none when none is kept (short). */
  fromSnapshotMillis?: number;
}

/**
 * What the command handler's load of a person's schedule costs from the store (a schedule it does
 * not remember: after a restart, or once forgotten), read whole and from a kept snapshot: a
 * schedule of each size written to the bench's database, then `loads` loads of it by a new
 * handler each time, without and with the snapshot store.
 */
export async function storedLoads(
  runtime: Runtime,
  sizes: number[],
  loads: number,
): Promise<StoredLoadFigure[]> {
  const snapshotStore = new PostgresSnapshots(runtime.sql);
  const figures: StoredLoadFigure[] = [];
  for (const held of sizes) {
    const streamId = `schedule-bench-${randomUUID()}`;
    const events = historyOf(held).map((event) => {
      const commandId = randomUUID();
      return {
        id: randomUUID(),
        type: event.type,
        data: event.data as unknown as Record<string, unknown>,
        metadata: {
          commandId,
          correlationId: commandId,
          causationId: commandId,
          actorId: 'system:bench',
          actorRole: 'system',
          schemaVersion: 1,
        },
      };
    });
    for (let i = 0; i < events.length; i += 500) {
      await runtime.store.append(streamId, events.slice(i, i + 500), i === 0 ? 'no_stream' : BigInt(i - 1));
    }
    const median = async (options: { snapshotStore?: PostgresSnapshots }) => {
      const times: number[] = [];
      for (let k = 0; k < loads; k++) {
        const handler = new CommandHandler({ store: runtime.store, vault: runtime.vault, ...options });
        const started = performance.now();
        await handler.load(streamId, scheduleDecider);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      return Math.round(times[times.length >> 1]! * 100) / 100;
    };
    const wholeMillis = await median({});
    // The first load with the store keeps the snapshot (when the stream is long enough), unwaited.
    await new CommandHandler({ store: runtime.store, vault: runtime.vault, snapshotStore }).load(
      streamId,
      scheduleDecider,
    );
    let kept = false;
    for (let i = 0; i < 100 && !kept && held > 0; i++) {
      kept = (await snapshotStore.read(streamId, snapshotKind(scheduleDecider)!)) !== undefined;
      if (!kept) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    figures.push({
      held,
      wholeMillis,
      ...(kept ? { fromSnapshotMillis: await median({ snapshotStore }) } : {}),
    });
  }
  return figures;
}

/** The figures as a section of BENCHMARKS.md: a table by history, and what grows and why. */
export function renderHistorySection(
  figures: HistoryFigure[],
  decisions: number,
  stored: StoredLoadFigure[],
  loads: number,
): string {
  const [none] = figures;
  if (!none) return '';
  const both = (f: HistoryFigure) => f.decideMicros + f.foldMicros;
  const storedOf = (held: number) => stored.find((f) => f.held === held);
  const cells = (value: (f: HistoryFigure) => string) => figures.map(value).join(' | ');
  const years = (held: number) => (held === SHIFTS_A_YEAR ? 'a year' : `${held / SHIFTS_A_YEAR} years`);
  const heading = (held: number) =>
    held === 0 ? 'none held' : `${held.toLocaleString('en-US')} held (${years(held)})`;
  return [
    "### A person's history: a claim's reservation on their schedule",
    '',
    `The schedule decider alone, in this Node process, no database: a person's schedule holding earlier shifts, one every other day (${SHIFTS_A_YEAR} make a year of full-time work), then ${decisions.toLocaleString('en-US')} decisions to reserve a new shift after them, and as many steps of the fold recording such a reservation and then its release, each step from the state the one before made (as the command handler folds what it appends), each after as many to warm up. Times are means, in µs.`,
    '',
    `| | ${cells((f) => heading(f.held))} |`,
    `|---|${figures.map(() => '---').join('|')}|`,
    `| decide | ${cells((f) => `${f.decideMicros}`)} |`,
    `| the fold's step | ${cells((f) => `${f.foldMicros}`)} |`,
    `| both, ÷ none | ${cells((f) => `${(both(f) / Math.max(0.1, both(none))).toFixed(2)}×`)} |`,
    `| a load's fold of the whole history, ms | ${cells((f) => f.loadMillis.toFixed(2))} |`,
    `| the same fold step by step, ms | ${cells((f) => f.stepByStepLoadMillis.toFixed(2))} |`,
    `| a load from the store, read whole, ms | ${cells((f) => storedOf(f.held)?.wholeMillis.toFixed(2) ?? '')} |`,
    `| the same from a kept snapshot, ms | ${cells((f) => storedOf(f.held)?.fromSnapshotMillis?.toFixed(2) ?? '(none kept)')} |`,
    '',
    "The decision compares the new shift only with the held times near it, found by time (docs/architecture.md §3.7), so it costs the same at any length of history. The fold's step finds the shift it changes by shift, not by going through the list, and copies the list of reservations and the index of their start times beside it, so that each state stands alone: two copies of pointers, which still grow with the history (tens of µs at twenty years), but slowly. A load (a schedule the server does not remember: after a restart, say) folds the stream at once instead (the decider's `evolveAll`): the reservations kept by shift while it goes, listed and indexed once at the end, so that it grows with the history's length, where folding it step by step, each step copying what came before, grows with its square.",
    '',
    `The last two rows are loads by the command handler from the bench's durable PostgreSQL, the median of ${loads} each: the whole stream read and folded, and the state kept beside it (\`stream_snapshots\`, written once ${SNAPSHOT_EVERY} events came after the last one kept; a shorter stream has none) read with the events after it. Reading the events is most of a whole load, and grows with them; a snapshot's load reads one row, the state's JSON, which grows with the reservations the person holds (some 0.6 MB at ten years), and the events after it, which the first load to find ${SNAPSHOT_EVERY} or more of them keeps in a new snapshot (docs/architecture.md §6.2).`,
  ].join('\n');
}
