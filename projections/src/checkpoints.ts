import type { Migration } from '@shiftcover/platform';

/**
 * Every change of a checkpoint is announced on this channel as "<read model> <position>
 * <generation>", at commit, so that readers in any process waiting for a position hear of it
 * without polling, and know where each read model stands without asking.
 */
export const CHECKPOINT_CHANNEL = 'projection_checkpoint_advanced';

export const projectionMigrations: Migration[] = [
  {
    id: '001-projection-checkpoints',
    up: `create table projection_checkpoints (
      name text primary key,
      generation int not null,
      version int not null,
      position bigint not null default 0,
      updated_at timestamptz not null default now()
    );`,
  },
  {
    id: '002-parked-events',
    up: `create table parked_events (
      consumer text not null,
      event_id text not null,
      position bigint not null,
      stream_id text not null,
      event_type text not null,
      error text not null,
      attempts int not null default 1,
      parked_at timestamptz not null default now(),
      status text not null default 'parked' check (status in ('parked', 'skipped')),
      skip_reason text,
      primary key (consumer, event_id)
    );
    create index parked_events_open on parked_events (consumer, position) where status = 'parked';`,
  },
  {
    id: '003-checkpoint-advance-notice',
    up: `create function notify_checkpoint_advanced() returns trigger language plpgsql as $$
      begin
        perform pg_notify('${CHECKPOINT_CHANNEL}', new.name || ' ' || new.position);
        return null;
      end $$;
    create trigger checkpoint_advanced after insert or update on projection_checkpoints
      for each row execute function notify_checkpoint_advanced();`,
  },
  {
    id: '004-checkpoint-notice-generation',
    up: `create or replace function notify_checkpoint_advanced() returns trigger language plpgsql as $$
      begin
        perform pg_notify('${CHECKPOINT_CHANNEL}', new.name || ' ' || new.position || ' ' || new.generation);
        return null;
      end $$;`,
  },
  {
    // Every update of a checkpoint row counts one write: a projector that keeps read-model rows
    // between its rounds (KeptRows) trusts them only while the count is the one it left.
    id: '005-checkpoint-writes',
    up: `alter table projection_checkpoints add column writes bigint not null default 0;
    create function count_checkpoint_write() returns trigger language plpgsql as $$
      begin
        new.writes := old.writes + 1;
        return new;
      end $$;
    create trigger checkpoint_written before update on projection_checkpoints
      for each row execute function count_checkpoint_write();`,
  },
];

export interface Checkpoint {
  name: string;
  generation: number;
  version: number;
  position: bigint;
  updatedAt: Date;
  /** How many times the row was updated: by every transaction that wrote the projection's tables. */
  writes: bigint;
}
