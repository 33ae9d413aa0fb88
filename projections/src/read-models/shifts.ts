import type { RecordedEvent } from '@shiftcover/eventstore';
import type { TransactionSql } from 'postgres';
import { rowsByKey } from '../kept-rows';
import { type EventData, oneAtATime, type Projection, type TableName } from '../projection';
import { deleteRows, upsertRows } from '../rows';

interface ShiftRow {
  id: string;
  location: string;
  date: string;
  start_time: string;
  end_time: string;
  type: string;
  requirements: string | null;
  required_credentials: string[];
  notes: string | null;
  priority: string;
  status: string;
  assigned_user_id: string | null;
  created_by_id: string | null;
  needs_approval: boolean;
  approved: boolean;
  drop_requested: boolean;
  drop_requested_at: string | Date | null;
  drop_approved: boolean;
  transfer_requested: boolean;
  hours_worked: number | null;
  claimed_at: string | Date | null;
  created_at: string | Date;
  updated_at: string | Date;
}

interface TransferRow {
  id: string;
  shift_id: string;
  from_user_id: string;
  to_user_id: string;
  status: string;
  message: string | null;
  requested_at: string | Date;
  responded_at: string | Date | null;
}

/** A table's rows that a batch touches, by id: read before, changed in memory, written after. */
class Rows<R extends { id: string }> {
  private readonly changed = new Set<string>();

  constructor(
    private readonly table: string,
    private readonly rows: Map<string, R>,
  ) {}

  get(id: string): R | undefined {
    return this.rows.get(id);
  }

  all(): R[] {
    return [...this.rows.values()];
  }

  /** Adds a row, refused as a primary key would refuse it if the id is taken. */
  insert(row: R): void {
    if (this.rows.has(row.id)) throw new Error(`${this.table}: the id ${row.id} is already taken`);
    this.rows.set(row.id, row);
    this.changed.add(row.id);
  }

  /** Changes the row with this id, if there is one, as an update would. */
  update(id: string, change: (row: R) => Partial<R>): void {
    const row = this.rows.get(id);
    if (!row) return;
    this.rows.set(id, { ...row, ...change(row) });
    this.changed.add(id);
  }

  delete(id: string): void {
    if (this.rows.delete(id)) this.changed.add(id);
  }

  async save(tx: TransactionSql): Promise<void> {
    const changed = [...this.changed];
    await deleteRows(
      tx,
      this.table,
      'id',
      changed.filter((id) => !this.rows.has(id)),
    );
    await upsertRows(
      tx,
      this.table,
      'id',
      changed.flatMap((id) => this.rows.get(id) ?? []),
    );
  }
}

/** The shifts and transfer requests the events of a batch are about, or may remove. */
async function load(tx: TransactionSql, events: readonly RecordedEvent[], t: TableName) {
  const ids = (of: readonly RecordedEvent[], field: string) => [
    ...new Set(of.map((e) => e.data[field]).filter((id): id is string => typeof id === 'string')),
  ];
  const shiftIds = ids(events, 'shiftId');
  const transferIds = ids(events, 'transferId');
  const deleted = ids(
    events.filter((e) => e.type === 'ShiftDeleted'),
    'shiftId',
  );
  const [shifts, transfers] = await Promise.all([
    rowsByKey<ShiftRow>(tx, t('shifts'), 'id', shiftIds),
    transferIds.length + deleted.length > 0
      ? tx<TransferRow[]>`select * from ${tx(t('transfer_requests'))}
          where id = any(${transferIds}) or shift_id = any(${deleted})`
      : Promise.resolve([]),
  ]);
  return {
    shifts: new Rows(t('shifts'), new Map(shifts.map((row) => [row.id, { ...row }]))),
    transfers: new Rows(t('transfer_requests'), new Map(transfers.map((row) => [row.id, { ...row }]))),
  };
}

type Tables = Awaited<ReturnType<typeof load>>;

/** Back to open (or its priority) with nobody on it. */
const reopened = (row: ShiftRow): Partial<ShiftRow> => ({
  status: row.priority,
  assigned_user_id: null,
  needs_approval: false,
  approved: false,
  drop_requested: false,
  drop_requested_at: null,
});

const transferStatus: Record<string, string> = {
  TransferAccepted: 'accepted',
  TransferDeclined: 'declined',
  TransferCancelled: 'cancelled',
};

/** What one event does to the shifts and transfer requests, in memory. */

/** The columns a posting and an edit both set from the shift's details. */
const detailsOf = (d: EventData) => ({
  location: d.location,
  date: d.date,
  start_time: d.startTime,
  end_time: d.endTime,
  type: d.type,
  requirements: d.requirements,
  required_credentials: d.requiredCredentials ?? [],
  notes: d.notes,
  priority: d.priority,
});

function evolve({ shifts, transfers }: Tables, event: RecordedEvent): void {
  const d = event.data as EventData;
  const at = d.at as string;
  const shift = (change: (row: ShiftRow) => Partial<ShiftRow>) => shifts.update(d.shiftId, change);
  switch (event.type) {
    case 'ShiftPosted':
      if (d.testData) return;
      shifts.insert({
        id: d.shiftId,
        ...detailsOf(d),
        status: d.priority,
        assigned_user_id: null,
        created_by_id: d.createdById,
        needs_approval: false,
        approved: false,
        drop_requested: false,
        drop_requested_at: null,
        drop_approved: false,
        transfer_requested: false,
        hours_worked: null,
        claimed_at: null,
        created_at: at,
        updated_at: at,
      });
      return;
    case 'ShiftUpdated':
      shift((row) => ({
        ...detailsOf(d),
        status: row.assigned_user_id === null ? d.priority : row.status,
        updated_at: at,
      }));
      return;
    case 'ShiftDeleted':
      shifts.delete(d.shiftId);
      for (const transfer of transfers.all())
        if (transfer.shift_id === d.shiftId) transfers.delete(transfer.id);
      return;
    case 'ShiftClaimed':
      shift(() => ({
        status: 'pending',
        assigned_user_id: d.userId,
        needs_approval: true,
        approved: false,
        drop_approved: false,
        claimed_at: at,
        updated_at: at,
      }));
      return;
    case 'ClaimApproved':
      shift(() => ({ status: 'approved', needs_approval: false, approved: true, updated_at: at }));
      return;
    case 'ClaimDenied':
    case 'HolderRemoved':
      shift((row) => ({ ...reopened(row), updated_at: at }));
      return;
    case 'ShiftAssigned':
      shift(() => ({
        status: 'approved',
        assigned_user_id: d.userId,
        needs_approval: false,
        approved: true,
        drop_requested: false,
        drop_requested_at: null,
        drop_approved: false,
        updated_at: at,
      }));
      return;
    case 'DropRequested':
      shift(() => ({ drop_requested: true, drop_requested_at: at, drop_approved: false, updated_at: at }));
      return;
    case 'DropApproved':
      shift((row) => ({ ...reopened(row), drop_approved: true, updated_at: at }));
      return;
    case 'DropDenied':
      shift(() => ({ drop_requested: false, drop_requested_at: null, updated_at: at }));
      return;
    case 'TransferRequested':
      transfers.insert({
        id: d.transferId,
        shift_id: d.shiftId,
        from_user_id: d.fromUserId,
        to_user_id: d.toUserId,
        status: 'pending',
        message: d.message,
        requested_at: at,
        responded_at: null,
      });
      shift(() => ({ transfer_requested: true, updated_at: at }));
      return;
    case 'TransferAccepted':
    case 'TransferDeclined':
    case 'TransferCancelled':
      transfers.update(d.transferId, () => ({ status: transferStatus[event.type]!, responded_at: at }));
      if (event.type === 'TransferAccepted')
        shift(() => ({ assigned_user_id: d.toUserId, drop_requested: false, drop_requested_at: null }));
      shift(() => ({ transfer_requested: false, updated_at: at }));
      return;
    case 'ShiftMarkedUrgent':
      shift((row) => ({
        priority: d.priority,
        status: row.assigned_user_id === null ? d.priority : row.status,
        updated_at: at,
      }));
      return;
    case 'ShiftCompleted':
      shift(() => ({ status: 'completed', hours_worked: d.hoursWorked, updated_at: at }));
      return;
    case 'ShiftExpired':
      shift(() => ({
        status: 'expired',
        assigned_user_id: null,
        needs_approval: false,
        approved: false,
        drop_requested: false,
        drop_requested_at: null,
        updated_at: at,
      }));
      return;
  }
}

/** The batch folded in memory: each shift and transfer request it touches is written once. */
async function applyShiftsBatch(tx: TransactionSql, events: readonly RecordedEvent[], t: TableName) {
  const tables = await load(tx, events, t);
  for (const event of events) evolve(tables, event);
  await tables.shifts.save(tx);
  await tables.transfers.save(tx);
}

/** Shifts as the lists show them, and the transfer requests of each. */
export const shiftsProjection: Projection = {
  name: 'shifts',
  awaitedByWriters: true,
  // 2: the credentials a shift requires (docs/product.md §10); 3: when the last claim was made.
  version: 3,
  tables: ['shifts', 'transfer_requests'],
  schema: (t) => `
    create table ${t('shifts')} (
      id text primary key,
      location text not null,
      date text not null,
      start_time text not null,
      end_time text not null,
      type text not null,
      requirements text,
      required_credentials text[] not null default '{}',
      notes text,
      priority text not null,
      status text not null,
      assigned_user_id text,
      created_by_id text,
      needs_approval boolean not null default false,
      approved boolean not null default false,
      drop_requested boolean not null default false,
      drop_requested_at timestamptz,
      drop_approved boolean not null default false,
      transfer_requested boolean not null default false,
      hours_worked int,
      claimed_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index on ${t('shifts')} (date, start_time);
    create index on ${t('shifts')} (assigned_user_id);
    create table ${t('transfer_requests')} (
      id text primary key,
      shift_id text not null,
      from_user_id text not null,
      to_user_id text not null,
      status text not null,
      message text,
      requested_at timestamptz not null,
      responded_at timestamptz
    );
    create index on ${t('transfer_requests')} (to_user_id);
    create index on ${t('transfer_requests')} (from_user_id);`,
  applyBatch: applyShiftsBatch,
  apply: oneAtATime(applyShiftsBatch),
};
