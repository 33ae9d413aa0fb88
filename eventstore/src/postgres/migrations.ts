import type { Migration } from '@shiftcover/platform';

/** One append-only table of events, and each stream's current revision. */
export const eventStoreMigrations: Migration[] = [
  {
    id: '001-events',
    up: `
      create table event_streams (
        stream_id text primary key,
        revision bigint not null
      );
      create table events (
        position bigint generated always as identity primary key,
        event_id uuid not null unique,
        stream_id text not null,
        revision bigint not null,
        type text not null,
        data jsonb not null,
        metadata jsonb not null,
        recorded_at timestamptz not null default clock_timestamp(),
        unique (stream_id, revision)
      );
    `,
  },
];
