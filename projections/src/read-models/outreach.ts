import { type OutreachNotice, openingEvents, stepKey, takingEvents } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import type { TransactionSql } from 'postgres';
import { rowsByKey } from '../kept-rows';
import type { EventData, Projection, TableName } from '../projection';
import { deleteRows, upsertRows } from '../rows';

/** A row of `rm_shift_ladders`, as the escalation sweep reads it too. */
export interface ShiftLadderRow {
  shift_id: string;
  location: string;
  date: string;
  start_time: string;
  end_time: string;
  opening: number;
  opened_at: Date;
  open: boolean;
  steps_run: string[];
}

interface NoticeRow {
  id: string;
  shift_id: string;
  opening: number;
  step_key: string;
  hours_before_start: number | null;
  audience: string;
  mark: string | null;
  user_id: string | null;
  channel: string;
  sent_at: string;
}

const endingEvents = ['ShiftDeleted', 'ShiftCompleted', 'ShiftExpired'];

/** What one event changes in a shift's ladder row (null: the row goes); undefined when no row and none made. */
function evolveLadder(
  row: ShiftLadderRow | null | undefined,
  event: RecordedEvent,
): ShiftLadderRow | null | undefined {
  const d = event.data as EventData;
  if (event.type === 'ShiftPosted') {
    if (d.testData || row) return row;
    return {
      shift_id: d.shiftId,
      location: d.location,
      date: d.date,
      start_time: d.startTime,
      end_time: d.endTime,
      opening: 1,
      opened_at: new Date(d.at),
      open: true,
      steps_run: [],
    };
  }
  if (!row) return row;
  if (openingEvents.includes(event.type)) {
    return { ...row, opening: row.opening + 1, opened_at: new Date(d.at), open: true, steps_run: [] };
  }
  if (takingEvents.includes(event.type)) return { ...row, open: false };
  if (event.type === 'ShiftUpdated') {
    return { ...row, location: d.location, date: d.date, start_time: d.startTime, end_time: d.endTime };
  }
  if (endingEvents.includes(event.type)) return null;
  if (event.type === 'ShiftEscalated') return { ...row, steps_run: [...row.steps_run, stepKey(d.step)] };
  return row;
}

const changesLadders = new Set([
  'ShiftPosted',
  ...openingEvents,
  ...takingEvents,
  'ShiftUpdated',
  ...endingEvents,
  'ShiftEscalated',
]);

/**
 * The ladders a batch touches are read at once and folded in memory; the notices it gives are
 * written in one statement. Exactly `apply` on each event in turn: an erasure names no one in the
 * notices before it, those already stored and those earlier in the batch.
 */
async function applyOutreachBatch(tx: TransactionSql, events: readonly RecordedEvent[], t: TableName) {
  const ladders = t('shift_ladders');
  const outreach = t('shift_outreach');
  const ladderEvents = events.filter((e) => changesLadders.has(e.type));
  const ids = [...new Set(ladderEvents.map((e) => e.data.shiftId as string))];
  const found = await rowsByKey<ShiftLadderRow>(tx, ladders, 'shift_id', ids);
  const rows = new Map<string, ShiftLadderRow | null>(found.map((row) => [row.shift_id, row]));
  const changed = new Set<string>();
  const notices: NoticeRow[] = [];
  const erased: string[] = [];
  for (const event of events) {
    const d = event.data as EventData;
    if (event.type === 'UserDeleted') {
      erased.push(d.userId);
      for (const notice of notices) if (notice.user_id === d.userId) notice.user_id = null;
      continue;
    }
    if (!changesLadders.has(event.type)) continue;
    const before = rows.get(d.shiftId);
    const after = evolveLadder(before, event);
    if (after !== before && after !== undefined) {
      rows.set(d.shiftId, after);
      changed.add(d.shiftId);
    }
    if (event.type === 'ShiftEscalated') {
      (d.notices as OutreachNotice[]).forEach((n, i) => {
        notices.push({
          id: `${event.id}:${i + 1}`,
          shift_id: d.shiftId,
          opening: d.opening,
          step_key: stepKey(d.step),
          hours_before_start: d.step.hoursBeforeStart,
          audience: d.step.audience,
          mark: d.step.mark,
          user_id: n.userId,
          channel: n.channel,
          sent_at: d.at,
        });
      });
    }
  }
  await deleteRows(
    tx,
    ladders,
    'shift_id',
    [...changed].filter((id) => rows.get(id) === null),
  );
  await upsertRows(
    tx,
    ladders,
    'shift_id',
    [...changed].flatMap((id) => rows.get(id) ?? []),
  );
  // Stored notices first: those of this batch were named or not as the erasures came among them.
  if (erased.length > 0) {
    await tx`update ${tx(outreach)} set user_id = null where user_id = any(${erased})`;
  }
  await upsertRows(tx, outreach, 'id', notices);
}

/**
 * The escalation ladder of each shift (docs/product.md §11): whether it is open, in which opening,
 * since when, and which steps have run in it, for the timers to find the steps due; and every
 * notice a step gave, for the outreach view. Test shifts never escalate and are not kept.
 */
export const outreachProjection: Projection = {
  name: 'outreach',
  version: 1,
  tables: ['shift_ladders', 'shift_outreach'],
  schema: (t) => `
    create table ${t('shift_ladders')} (
      shift_id text primary key,
      location text not null,
      date text not null,
      start_time text not null,
      end_time text not null,
      opening int not null,
      opened_at timestamptz not null,
      open boolean not null,
      steps_run text[] not null
    );
    create index on ${t('shift_ladders')} (date) where open;
    create table ${t('shift_outreach')} (
      id text primary key,
      shift_id text not null,
      opening int not null,
      step_key text not null,
      hours_before_start int,
      audience text not null,
      mark text,
      user_id text,
      channel text not null,
      sent_at timestamptz not null
    );
    create index on ${t('shift_outreach')} (shift_id, sent_at);`,

  applyBatch: applyOutreachBatch,

  async apply(tx, event, t) {
    const d = event.data as EventData;
    const ladders = tx(t('shift_ladders'));
    if (event.type === 'ShiftPosted') {
      if (d.testData) return;
      await tx`insert into ${ladders} (shift_id, location, date, start_time, end_time, opening, opened_at, open, steps_run)
        values (${d.shiftId}, ${d.location}, ${d.date}, ${d.startTime}, ${d.endTime}, 1, ${d.at}, true, '{}')
        on conflict (shift_id) do nothing`;
    } else if (openingEvents.includes(event.type)) {
      await tx`update ${ladders} set opening = opening + 1, opened_at = ${d.at}, open = true, steps_run = '{}'
        where shift_id = ${d.shiftId}`;
    } else if (takingEvents.includes(event.type)) {
      await tx`update ${ladders} set open = false where shift_id = ${d.shiftId}`;
    } else if (event.type === 'ShiftUpdated') {
      await tx`update ${ladders} set location = ${d.location}, date = ${d.date}, start_time = ${d.startTime},
        end_time = ${d.endTime} where shift_id = ${d.shiftId}`;
    } else if (['ShiftDeleted', 'ShiftCompleted', 'ShiftExpired'].includes(event.type)) {
      await tx`delete from ${ladders} where shift_id = ${d.shiftId}`;
    } else if (event.type === 'ShiftEscalated') {
      const key = stepKey(d.step);
      await tx`update ${ladders} set steps_run = array_append(steps_run, ${key}) where shift_id = ${d.shiftId}`;
      const notices = d.notices as OutreachNotice[];
      if (notices.length === 0) return;
      await tx`insert into ${tx(t('shift_outreach'))}
        (id, shift_id, opening, step_key, hours_before_start, audience, mark, user_id, channel, sent_at)
        select ${event.id} || ':' || n.i, ${d.shiftId}, ${d.opening}, ${key}, ${d.step.hoursBeforeStart},
          ${d.step.audience}, ${d.step.mark}, n.user_id, n.channel, ${d.at}
        from unnest(${notices.map((n) => n.userId) as string[]}::text[], ${notices.map((n) => n.channel)}::text[])
          with ordinality as n (user_id, channel, i)
        on conflict (id) do nothing`;
    } else if (event.type === 'UserDeleted') {
      // Who was told stays countable; the erased person is no longer named.
      await tx`update ${tx(t('shift_outreach'))} set user_id = null where user_id = ${d.userId}`;
    }
  },
};
