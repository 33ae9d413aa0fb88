import type { RecordedEvent } from '@shiftcover/eventstore';
import type { TransactionSql } from 'postgres';
import { type EventData, oneAtATime, type Projection, type TableName } from '../projection';
import { deleteRows, upsertRows } from '../rows';

/** What a batch does to one shift's edit count: edits to add, or the shift deleted. */
interface SequenceChange {
  edits: number;
  deleted: boolean;
}

/**
 * The calendar feeds' read model (docs/product.md §2.11.1): which person each feed's digest
 * belongs to, and how many times each shift has been edited, which is the SEQUENCE a calendar
 * sees rise when a shift it shows changes.
 */
async function applyCalendarBatch(tx: TransactionSql, events: readonly RecordedEvent[], t: TableName) {
  // A person's feed: the digest that works after the batch, or null when none does.
  const feeds = new Map<string, { token_hash: string; created_at: string } | null>();
  const sequences = new Map<string, SequenceChange>();
  const change = (shiftId: string) => {
    const found = sequences.get(shiftId) ?? { edits: 0, deleted: false };
    sequences.set(shiftId, found);
    return found;
  };
  for (const event of events) {
    const d = event.data as EventData;
    switch (event.type) {
      case 'CalendarFeedCreated':
        feeds.set(d.userId, { token_hash: d.tokenHash, created_at: d.at });
        break;
      case 'CalendarFeedRevoked':
      case 'UserDeleted':
        feeds.set(d.userId, null);
        break;
      case 'ShiftPosted':
        // Bulk-test shifts are in no list, and so in no calendar.
        if (!d.testData) change(d.shiftId);
        break;
      case 'ShiftUpdated':
        change(d.shiftId).edits += 1;
        break;
      case 'ShiftDeleted':
        change(d.shiftId).deleted = true;
        break;
    }
  }

  const ended = [...feeds].filter(([, feed]) => feed === null).map(([userId]) => userId);
  await deleteRows(tx, t('calendar_feeds'), 'user_id', ended);
  const made = [...feeds].flatMap(([user_id, feed]) => (feed ? [{ user_id, ...feed }] : []));
  if (made.length > 0) await upsertRows(tx, t('calendar_feeds'), 'user_id', made);

  const gone = [...sequences].filter(([, s]) => s.deleted).map(([shiftId]) => shiftId);
  await deleteRows(tx, t('calendar_sequences'), 'shift_id', gone);
  const kept = [...sequences].filter(([, s]) => !s.deleted);
  if (kept.length > 0) {
    const table = tx(t('calendar_sequences'));
    await tx`insert into ${table} (shift_id, sequence)
      select shift_id, edits from unnest(${kept.map(([id]) => id)}::text[], ${kept.map(([, s]) => s.edits)}::int[])
        as changed(shift_id, edits)
      on conflict (shift_id) do update set sequence = ${table}.sequence + excluded.sequence`;
  }
}

export const calendarFeedsProjection: Projection = {
  name: 'calendar_feeds',
  version: 1,
  tables: ['calendar_feeds', 'calendar_sequences'],
  schema: (t) => `
    create table ${t('calendar_feeds')} (
      user_id text primary key,
      token_hash text not null unique,
      created_at timestamptz not null
    );
    create table ${t('calendar_sequences')} (
      shift_id text primary key,
      sequence int not null
    );`,
  applyBatch: applyCalendarBatch,
  apply: oneAtATime(applyCalendarBatch),
};
