import { shiftLabel } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import type { TransactionSql } from 'postgres';
import { rowsByKey } from '../kept-rows';
import type { EventData } from '../projection';
import { insertRows, upsertRows } from '../rows';

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

// Several events of a batch name the same shift, and formatting its date is not cheap. Facts are
// replaced, never changed, when a shift is updated, so a label kept per facts object stays true.
const labels = new WeakMap<ShiftFacts, string>();

/** How the audit log and in-app notifications name the shift an event is about. */
export function factsLabel(shift?: ShiftFacts): string {
  if (!shift) return 'a shift';
  let label = labels.get(shift);
  if (label === undefined) {
    label = shiftLabel({
      type: shift.type,
      location: shift.location,
      date: shift.date,
      startTime: shift.start_time,
      endTime: shift.end_time,
    });
    labels.set(shift, label);
  }
  return label;
}

/**
 * The facts of the shifts a batch of events is about: read at once before the batch, changed in
 * memory as its events go by, written back at once after it. Only this class reads and writes the
 * facts table, so what it holds in memory is what the table would hold after each event.
 */
export class ShiftFactsBatch {
  private readonly changed = new Set<string>();
  /** The shifts whose facts the table held before the batch: the others are new rows. */
  private readonly stored: ReadonlySet<string>;

  private constructor(
    private readonly table: string,
    private readonly facts: Map<string, ShiftFacts>,
  ) {
    this.stored = new Set(facts.keys());
  }

  static async load(tx: TransactionSql, table: string, events: readonly RecordedEvent[]) {
    const ids = [
      ...new Set(events.map((event) => event.data.shiftId).filter((id) => typeof id === 'string')),
    ];
    const rows = await rowsByKey<ShiftFacts>(tx, table, 'id', ids);
    return new ShiftFactsBatch(table, new Map(rows.map((row) => [row.id, { ...row }])));
  }

  get(shiftId: unknown): ShiftFacts | undefined {
    return typeof shiftId === 'string' ? this.facts.get(shiftId) : undefined;
  }

  /** Takes in the details a posted or updated shift carries; who created it never changes. */
  track(event: RecordedEvent): void {
    if (event.type !== 'ShiftPosted' && event.type !== 'ShiftUpdated') return;
    const d = event.data as EventData;
    const known = this.facts.get(d.shiftId);
    this.facts.set(d.shiftId, {
      id: d.shiftId,
      location: d.location,
      date: d.date,
      start_time: d.startTime,
      end_time: d.endTime,
      type: d.type,
      requirements: d.requirements,
      notes: d.notes,
      created_by_id: known ? known.created_by_id : (d.createdById ?? null),
    });
    this.changed.add(d.shiftId);
  }

  /** Writes what the batch changed: new shifts inserted (most of a rebuild's), the others replaced. */
  async save(tx: TransactionSql): Promise<void> {
    const changed = [...this.changed];
    const fresh = changed.filter((id) => !this.stored.has(id));
    const known = changed.filter((id) => this.stored.has(id));
    await insertRows(
      tx,
      this.table,
      fresh.map((id) => this.facts.get(id)!),
    );
    await upsertRows(
      tx,
      this.table,
      'id',
      known.map((id) => this.facts.get(id)!),
    );
  }
}
