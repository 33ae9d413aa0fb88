import type { Migration } from '@shiftcover/platform';

/**
 * Every change of a checkpoint is announced on this channel as "<read model> <position>
 * <generation>", at commit, so that readers in any process waiting for a position hear of it
 * without polling, and know where each read model stands without asking. The checkpoints one
 * statement changes go in one notice, a line each (`checkpointNotice` reads it): a projector's
 * round moves every read model's checkpoint in one statement.
 */
export const CHECKPOINT_CHANNEL = 'projection_checkpoint_advanced';

/** The checkpoints a notice on `CHECKPOINT_CHANNEL` announces; a line it cannot read is left out. */
export function checkpointNotice(
  payload: string,
): Array<{ name: string; position: bigint; generation?: number }> {
  const announced = [];
  for (const line of payload.split('\n')) {
    const [name, position, generation] = line.split(' ');
    if (!name || !position || !/^\d+$/.test(position)) continue;
    announced.push({
      name,
      position: BigInt(position),
      ...(generation && /^\d+$/.test(generation) ? { generation: Number(generation) } : {}),
    });
  }
  return announced;
}

/** Above this many bytes a statement's notice is split into one per checkpoint (PostgreSQL takes 8,000). */
const LONGEST_NOTICE = 7_900;

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
  {
    // One notice per statement rather than per row: a round of the projector moves a dozen
    // checkpoints in one update, and each notice is a message to every listening connection.
    // PostgreSQL gives transition tables only to triggers of one event: one for each.
    id: '006-checkpoint-notice-per-statement',
    up: `create function notify_checkpoints_advanced() returns trigger language plpgsql as $$
      declare
        payload text;
      begin
        select string_agg(name || ' ' || position || ' ' || generation, E'\\n' order by name)
          into payload from changed;
        if payload is null then
          return null;
        end if;
        if octet_length(payload) <= ${LONGEST_NOTICE} then
          perform pg_notify('${CHECKPOINT_CHANNEL}', payload);
        else
          perform pg_notify('${CHECKPOINT_CHANNEL}', name || ' ' || position || ' ' || generation)
            from changed order by name;
        end if;
        return null;
      end $$;
    drop trigger checkpoint_advanced on projection_checkpoints;
    drop function notify_checkpoint_advanced();
    create trigger checkpoint_advanced after update on projection_checkpoints
      referencing new table as changed
      for each statement execute function notify_checkpoints_advanced();
    create trigger checkpoint_added after insert on projection_checkpoints
      referencing new table as changed
      for each statement execute function notify_checkpoints_advanced();`,
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
