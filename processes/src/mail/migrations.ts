import type { Migration } from '@shiftcover/platform';

export const mailMigrations: Migration[] = [
  {
    id: '001-email-deliveries',
    up: `
      create table email_deliveries (
        id bigserial primary key,
        event_id text not null,
        recipient text not null,
        kind text not null,
        subject text not null,
        text_body text not null,
        html_body text not null,
        status text not null,
        attempts int not null default 0,
        last_error text,
        next_attempt_at timestamptz not null default now(),
        created_at timestamptz not null default now(),
        sent_at timestamptz,
        unique (event_id, recipient)
      );
      create index email_deliveries_due on email_deliveries (next_attempt_at) where status = 'queued';
      create table process_checkpoints (
        name text primary key,
        position bigint not null default 0,
        updated_at timestamptz not null default now()
      );`,
  },
  {
    id: '002-parked-messages',
    up: `
      create table parked_messages (
        consumer text not null,
        event_id text not null,
        event_type text not null,
        position bigint not null,
        error text not null,
        parked_at timestamptz not null default now(),
        primary key (consumer, event_id)
      );`,
  },
  {
    id: '003-mail-attachments',
    up: `alter table email_deliveries add column attachments jsonb not null default '[]'::jsonb;`,
  },
  {
    // Parked messages join the events every read model and process parks (projection migration
    // 002-parked-events); their stream was not recorded.
    id: '004-parked-messages-to-parked-events',
    up: `
      insert into parked_events (consumer, event_id, position, stream_id, event_type, error, parked_at)
        select consumer, event_id, position, '', event_type, error, parked_at from parked_messages
        on conflict (consumer, event_id) do nothing;
      drop table parked_messages;`,
  },
];
