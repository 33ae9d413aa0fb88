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
];

export interface Checkpoint {
  name: string;
  generation: number;
  version: number;
  position: bigint;
  updatedAt: Date;
}
