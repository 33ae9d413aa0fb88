import type { Sql } from 'postgres';

/**
 * A stream's folded state as of one of its events, kept beside the stream so that a load reads
 * only what came after it (see `Decider.snapshot`). Never the truth: a snapshot whose event is no
 * longer the stream's at its revision (a store begun afresh) is not used, and the stream is folded
 * from its first event.
 */
export interface StoredSnapshot {
  revision: bigint;
  /** The id of the event at `revision`, the last one folded into the state. */
  lastEventId: string;
  /** `JSON.stringify` of the state. */
  state: string;
  /** The ids of the commands that wrote the events folded, so that a repeat of one is known. */
  commandIds: readonly string[];
}

export interface SnapshotStore {
  /** The snapshot of the stream kept under `kind` (a decider's name and version), when there is one. */
  read(streamId: string, kind: string): Promise<StoredSnapshot | undefined>;
  /** Keeps `snapshot`, unless one at a later revision is kept already. */
  write(streamId: string, kind: string, snapshot: StoredSnapshot): Promise<void>;
  /** Lets go of the stream's snapshot: one that no longer matches the stream. */
  forget(streamId: string, kind: string): Promise<void>;
}

export const snapshotMigrations = [
  {
    id: '001-stream-snapshots',
    // Text, not jsonb: a snapshot is written and read whole, never queried inside.
    up: `create table stream_snapshots (
      stream_id text not null,
      kind text not null,
      revision bigint not null,
      last_event_id text not null,
      state text not null,
      command_ids text not null,
      taken_at timestamptz not null default now(),
      primary key (stream_id, kind)
    );`,
  },
];

/** Snapshots in PostgreSQL (`stream_snapshots`), whichever store holds the events. */
export class PostgresSnapshots implements SnapshotStore {
  constructor(private readonly sql: Sql) {}

  async read(streamId: string, kind: string): Promise<StoredSnapshot | undefined> {
    const [row] = await this.sql<
      { revision: string; last_event_id: string; state: string; command_ids: string }[]
    >`select revision::text, last_event_id, state, command_ids from stream_snapshots
      where stream_id = ${streamId} and kind = ${kind}`;
    if (!row) return undefined;
    return {
      revision: BigInt(row.revision),
      lastEventId: row.last_event_id,
      state: row.state,
      commandIds: JSON.parse(row.command_ids),
    };
  }

  async write(streamId: string, kind: string, snapshot: StoredSnapshot): Promise<void> {
    await this.sql`
      insert into stream_snapshots (stream_id, kind, revision, last_event_id, state, command_ids)
      values (${streamId}, ${kind}, ${snapshot.revision.toString()}, ${snapshot.lastEventId},
        ${snapshot.state}, ${JSON.stringify(snapshot.commandIds)})
      on conflict (stream_id, kind) do update set
        revision = excluded.revision, last_event_id = excluded.last_event_id, state = excluded.state,
        command_ids = excluded.command_ids, taken_at = now()
      where stream_snapshots.revision < excluded.revision`;
  }

  async forget(streamId: string, kind: string): Promise<void> {
    await this.sql`delete from stream_snapshots where stream_id = ${streamId} and kind = ${kind}`;
  }
}
