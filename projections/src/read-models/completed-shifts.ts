import type { RecordedEvent } from '@shiftcover/eventstore';
import type { TransactionSql } from 'postgres';
import { type EventData, oneAtATime, type Projection, type TableName } from '../projection';
import { insertRows } from '../rows';
import { ShiftFactsBatch, shiftFactsSchema } from './shift-facts';

/** The record of a completed shift, from its facts as posted or last updated. */
function completedRecord(event: RecordedEvent, facts: ShiftFactsBatch) {
  const d = event.data as EventData;
  const shift = facts.get(d.shiftId);
  if (!shift) return undefined;
  return {
    id: event.id,
    original_shift_id: d.shiftId,
    location: shift.location,
    date: shift.date,
    start_time: shift.start_time,
    end_time: shift.end_time,
    type: shift.type,
    requirements: shift.requirements,
    notes: shift.notes,
    assigned_user_id: d.userId,
    created_by_id: shift.created_by_id,
    shift_completed_at: d.at,
    logged_at: event.recordedAt,
    hours_worked: d.hoursWorked,
  };
}

/**
 * New records are gathered and inserted together; a report or a clearing marks records, so the
 * records gathered so far are inserted before it.
 */
async function applyCompletedBatch(tx: TransactionSql, events: readonly RecordedEvent[], t: TableName) {
  const facts = await ShiftFactsBatch.load(tx, t('completed_shift_facts'), events);
  const table = t('completed_shifts');
  let records: object[] = [];
  const insertRecords = async () => {
    await insertRows(tx, table, records);
    records = [];
  };
  for (const event of events) {
    facts.track(event);
    const d = event.data as EventData;
    if (event.type === 'ShiftCompleted') {
      const record = completedRecord(event, facts);
      if (record) records.push(record);
    } else if (event.type === 'CompletedShiftsReported') {
      await insertRecords();
      await tx`update ${tx(table)} set reported = true, reported_at = ${d.at}, archived = true
        where id = any(${d.recordIds})`;
    } else if (event.type === 'CompletedShiftsCleared') {
      await insertRecords();
      await tx`update ${tx(table)} set archived = true where id = any(${d.recordIds})`;
    }
  }
  await insertRecords();
  await facts.save(tx);
}

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
    );`,
  indexes: (t) => `create index on ${t('completed_shifts')} (shift_completed_at);`,

  applyBatch: applyCompletedBatch,
  apply: oneAtATime(applyCompletedBatch),
};
