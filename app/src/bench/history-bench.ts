import {
  type CommandContext,
  dateAfter,
  easternInstant,
  foldInto,
  type ScheduleEvent,
  scheduleDecider,
} from '@shiftcover/domain';

/** About the shifts a full-time person works in a year. */
const SHIFTS_A_YEAR = 250;
/** Shifts a person already holds: none, a year's, four years', twenty years'. */
export const HISTORY_SIZES = [0, SHIFTS_A_YEAR, 4 * SHIFTS_A_YEAR, 20 * SHIFTS_A_YEAR];

export interface HistoryFigure {
  /** Shifts the schedule held before the measured decisions. */
  held: number;
  /** Mean time of one decision to reserve a new shift's time, µs. */
  decideMicros: number;
  /** Mean time of the fold's step that records it, µs. */
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
    const timed = (run: (k: number) => unknown) => {
      for (let k = 0; k < decisions; k++) run(k);
      const started = performance.now();
      for (let k = 0; k < decisions; k++) run(k);
      return Math.round(((performance.now() - started) * 1000 * 10) / decisions) / 10;
    };
    const decideMicros = timed(decide);
    const recorded = decide(0);
    const foldMicros = timed(() => recorded.reduce(scheduleDecider.evolve, state));
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

/** The figures as a section of BENCHMARKS.md: a table by history, and what grows and why. */
export function renderHistorySection(figures: HistoryFigure[], decisions: number): string {
  const [none] = figures;
  if (!none) return '';
  const both = (f: HistoryFigure) => f.decideMicros + f.foldMicros;
  const cells = (value: (f: HistoryFigure) => string) => figures.map(value).join(' | ');
  const years = (held: number) => (held === SHIFTS_A_YEAR ? 'a year' : `${held / SHIFTS_A_YEAR} years`);
  const heading = (held: number) =>
    held === 0 ? 'none held' : `${held.toLocaleString('en-US')} held (${years(held)})`;
  return [
    "### A person's history: a claim's reservation on their schedule",
    '',
    `The schedule decider alone, in this Node process, no database: a person's schedule holding earlier shifts, one every other day (${SHIFTS_A_YEAR} make a year of full-time work), then ${decisions.toLocaleString('en-US')} decisions to reserve a new shift after them, and as many steps of the fold that records one, each after as many to warm up. Times are means, in µs.`,
    '',
    `| | ${cells((f) => heading(f.held))} |`,
    `|---|${figures.map(() => '---').join('|')}|`,
    `| decide | ${cells((f) => `${f.decideMicros}`)} |`,
    `| the fold's step | ${cells((f) => `${f.foldMicros}`)} |`,
    `| both, ÷ none | ${cells((f) => `${(both(f) / Math.max(0.1, both(none))).toFixed(2)}×`)} |`,
    `| a load's fold of the whole history, ms | ${cells((f) => f.loadMillis.toFixed(2))} |`,
    `| the same fold step by step, ms | ${cells((f) => f.stepByStepLoadMillis.toFixed(2))} |`,
    '',
    "The decision compares the new shift only with the held times near it, found by time (docs/architecture.md §3.7), so it costs the same at any length of history. The fold's step copies the person's list of reservations, and the index of their start times beside it, so that each state stands alone: that grows with the history. A load (a schedule the server does not remember: after a restart, say) folds the stream at once instead (the decider's `evolveAll`): the reservations kept by shift while it goes, listed and indexed once at the end, so that it grows with the history's length, where folding it step by step, each step copying what came before, grows with its square.",
  ].join('\n');
}
