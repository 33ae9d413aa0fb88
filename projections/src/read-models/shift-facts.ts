import { shiftLabel } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import type { TransactionSql } from 'postgres';
import type { EventData } from '../projection';

/** The details of each shift, kept by a projection that needs them to describe later events. */
export const shiftFactsSchema = (table: string) => `
  create table ${table} (
    id text primary key,
    location text not null,
    date text not null,
    start_time text not null,
    end_time text not null,
    type text not null,
    requirements text,
    notes text,
    created_by_id text
  );`;

export interface ShiftFacts {
  id: string;
  location: string;
  date: string;
  start_time: string;
  end_time: string;
  type: string;
  requirements: string | null;
  notes: string | null;
  created_by_id: string | null;
}

/** How the audit log and in-app notifications name the shift an event is about. */
export function factsLabel(shift?: ShiftFacts): string {
  return shift
    ? shiftLabel({
        type: shift.type,
        location: shift.location,
        date: shift.date,
        startTime: shift.start_time,
        endTime: shift.end_time,
      })
    : 'a shift';
}

export async function trackShiftFacts(
  tx: TransactionSql,
  event: RecordedEvent,
  table: string,
): Promise<void> {
  const d = event.data as EventData;
  if (event.type === 'ShiftPosted' || event.type === 'ShiftUpdated') {
    await tx`insert into ${tx(table)} (id, location, date, start_time, end_time, type, requirements, notes, created_by_id)
      values (${d.shiftId}, ${d.location}, ${d.date}, ${d.startTime}, ${d.endTime}, ${d.type}, ${d.requirements}, ${d.notes},
        ${d.createdById ?? null})
      on conflict (id) do update set location = excluded.location, date = excluded.date, start_time = excluded.start_time,
        end_time = excluded.end_time, type = excluded.type, requirements = excluded.requirements, notes = excluded.notes`;
  }
}

export async function shiftFacts(
  tx: TransactionSql,
  table: string,
  shiftId: string,
): Promise<ShiftFacts | undefined> {
  const [row] = await tx<ShiftFacts[]>`select * from ${tx(table)} where id = ${shiftId}`;
  return row;
}
