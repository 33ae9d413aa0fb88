import { type OutreachNotice, openingEvents, stepKey, takingEvents } from '@shiftcover/domain';
import type { EventData, Projection } from '../projection';

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
