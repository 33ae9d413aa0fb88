import type { EventData, Projection } from '../projection';
import { shiftFacts, shiftFactsSchema, trackShiftFacts } from './shift-facts';

/**
 * One record per completed shift (docs/product.md §3 completed_shifts); hoursWorked is in minutes. A record
 * included in a report is marked reported and archived; a developer's Clear All archives without
 * reporting. Archived records leave the Completed Shifts list but stay for the reports' mail.
 */
export const completedShiftsProjection: Projection = {
  name: 'completed_shifts',
  version: 2,
  tables: ['completed_shifts', 'completed_shift_facts'],
  schema: (t) => `
    ${shiftFactsSchema(t('completed_shift_facts'))}
    create table ${t('completed_shifts')} (
      id text primary key,
      original_shift_id text not null,
      location text not null,
      date text not null,
      start_time text not null,
      end_time text not null,
      type text not null,
      requirements text,
      notes text,
      assigned_user_id text,
      created_by_id text,
      shift_completed_at timestamptz not null,
      logged_at timestamptz not null,
      hours_worked int not null,
      reported boolean not null default false,
      reported_at timestamptz,
      archived boolean not null default false
    );
    create index on ${t('completed_shifts')} (shift_completed_at);`,

  async apply(tx, event, t) {
    await trackShiftFacts(tx, event, t('completed_shift_facts'));
    const d = event.data as EventData;
    if (event.type === 'CompletedShiftsReported') {
      await tx`update ${tx(t('completed_shifts'))} set reported = true, reported_at = ${d.at}, archived = true
        where id = any(${d.recordIds})`;
      return;
    }
    if (event.type === 'CompletedShiftsCleared') {
      await tx`update ${tx(t('completed_shifts'))} set archived = true where id = any(${d.recordIds})`;
      return;
    }
    if (event.type !== 'ShiftCompleted') return;
    const facts = await shiftFacts(tx, t('completed_shift_facts'), d.shiftId);
    if (!facts) return;
    await tx`insert into ${tx(t('completed_shifts'))} (id, original_shift_id, location, date, start_time, end_time, type,
        requirements, notes, assigned_user_id, created_by_id, shift_completed_at, logged_at, hours_worked)
      values (${event.id}, ${d.shiftId}, ${facts.location}, ${facts.date}, ${facts.start_time}, ${facts.end_time},
        ${facts.type}, ${facts.requirements}, ${facts.notes}, ${d.userId}, ${facts.created_by_id}, ${d.at},
        ${event.recordedAt}, ${d.hoursWorked})`;
  },
};
