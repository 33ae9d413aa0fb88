import { shiftInterval } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import type { TransactionSql } from 'postgres';
import { rowsByKey } from '../kept-rows';
import { type EventData, oneAtATime, type Projection, type TableName } from '../projection';
import { deleteRows, upsertRows } from '../rows';

interface Hold {
  userId: string;
  from: string;
  to: string | null;
}

interface Drop {
  userId: string;
  requestedAt: string;
  approvedAt: string;
}

/** What coverage analytics need of one shift; every instant is the time its event was decided. */
interface CoverageRow {
  id: string;
  location: string;
  date: string;
  start_time: string;
  end_time: string;
  starts_at: string | Date;
  ends_at: string | Date;
  posted_at: string | Date;
  filled_at: string | Date | null;
  holder_id: string | null;
  drop_requested_at: string | Date | null;
  holds: Hold[];
  drops: Drop[];
}

function when(d: EventData) {
  const { start, end } = shiftInterval(d.date, d.startTime, d.endTime);
  return { starts_at: start.toISOString(), ends_at: end.toISOString() };
}

/** The approved holder lets go at `at`: their hold ends. */
const released = (row: CoverageRow, at: string): Partial<CoverageRow> =>
  row.holder_id === null
    ? {}
    : {
        holder_id: null,
        drop_requested_at: null,
        holds: row.holds.map((h) => (h.to === null ? { ...h, to: at } : h)),
      };

/** `userId` becomes the approved holder at `at`. */
const held = (row: CoverageRow, userId: string, at: string): Partial<CoverageRow> => ({
  holder_id: userId,
  filled_at: row.filled_at ?? at,
  holds: [...row.holds, { userId, from: at, to: null }],
});

/** What one shift event changes in the shift's row; null removes the row. */
function evolve(row: CoverageRow | undefined, event: RecordedEvent): CoverageRow | null | undefined {
  const d = event.data as EventData;
  const at = d.at as string;
  if (event.type === 'ShiftPosted') {
    if (d.testData || row) return row;
    return {
      id: d.shiftId,
      location: d.location,
      date: d.date,
      start_time: d.startTime,
      end_time: d.endTime,
      ...when(d),
      posted_at: at,
      filled_at: null,
      holder_id: null,
      drop_requested_at: null,
      holds: [],
      drops: [],
    };
  }
  if (!row) return row;
  switch (event.type) {
    case 'ShiftUpdated':
      return {
        ...row,
        location: d.location,
        date: d.date,
        start_time: d.startTime,
        end_time: d.endTime,
        ...when(d),
      };
    case 'ShiftDeleted':
      return null;
    case 'ClaimApproved':
      return { ...row, ...held(row, d.userId, at) };
    case 'ShiftAssigned':
      return { ...row, ...held({ ...row, ...released(row, at) }, d.userId, at) };
    case 'TransferAccepted': {
      if (row.holder_id === null) return row;
      const after = { ...row, ...released(row, at) };
      return { ...after, ...held(after, d.toUserId, at) };
    }
    case 'DropRequested':
      return { ...row, drop_requested_at: at };
    case 'DropDenied':
      return { ...row, drop_requested_at: null };
    case 'DropApproved': {
      if (row.holder_id === null) return row;
      const requestedAt = row.drop_requested_at === null ? at : new Date(row.drop_requested_at).toISOString();
      const drop = { userId: row.holder_id, requestedAt, approvedAt: at };
      return { ...row, ...released(row, at), drops: [...row.drops, drop] };
    }
    case 'HolderRemoved':
    case 'ShiftExpired':
      return { ...row, ...released(row, at) };
    default:
      return row;
  }
}

const changesCoverage = new Set([
  'ShiftPosted',
  'ShiftUpdated',
  'ShiftDeleted',
  'ClaimApproved',
  'ShiftAssigned',
  'TransferAccepted',
  'DropRequested',
  'DropDenied',
  'DropApproved',
  'HolderRemoved',
  'ShiftExpired',
]);

/** The rows a batch touches are read at once, folded in memory and written back at once. */
async function applyCoverageBatch(tx: TransactionSql, events: readonly RecordedEvent[], t: TableName) {
  const table = t('coverage_shifts');
  const shiftEvents = events.filter((e) => changesCoverage.has(e.type));
  if (shiftEvents.length === 0) return;
  const ids = [...new Set(shiftEvents.map((e) => e.data.shiftId as string))];
  const found = await rowsByKey<CoverageRow>(tx, table, 'id', ids);
  const rows = new Map<string, CoverageRow | null>(found.map((row) => [row.id, row]));
  const changed = new Set<string>();
  for (const event of shiftEvents) {
    const id = event.data.shiftId as string;
    const before = rows.get(id) ?? undefined;
    const after = evolve(before, event);
    if (after === before || after === undefined) continue;
    rows.set(id, after);
    changed.add(id);
  }
  const gone = [...changed].filter((id) => rows.get(id) === null);
  const kept = [...changed].flatMap((id) => rows.get(id) ?? []);
  await deleteRows(tx, table, 'id', gone);
  await upsertRows(tx, table, 'id', kept);
}

/**
 * Each shift's coverage: when it was posted, who held it and when, the drops approved on it
 * (docs/product.md §2 Analytics). Only event data goes in, so a rebuild writes the same rows.
 */
export const coverageProjection: Projection = {
  name: 'coverage',
  version: 1,
  tables: ['coverage_shifts'],
  schema: (t) => `
    create table ${t('coverage_shifts')} (
      id text primary key,
      location text not null,
      date text not null,
      start_time text not null,
      end_time text not null,
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      posted_at timestamptz not null,
      filled_at timestamptz,
      holder_id text,
      drop_requested_at timestamptz,
      holds jsonb not null,
      drops jsonb not null
    );`,
  indexes: (t) => `create index on ${t('coverage_shifts')} (date);`,
  applyBatch: applyCoverageBatch,
  apply: oneAtATime(applyCoverageBatch),
};
