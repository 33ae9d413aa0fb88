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
  {
    // An append in one statement: every check and the insert run in the server, so the locks it
    // takes are held for no client round trip. Outcomes: 'appended' (the stream's new revision and
    // the last position), 'duplicate' (the stored copy of these event ids), 'conflict' (the
    // stream's actual revision, null for no stream) and 'stale_hash' (the events were chained to
    // another hash than the stream's last one: chain them again).
    id: '002-append-function',
    up: `
      create function eventstore_append(
        p_stream text, p_expected bigint, p_previous_hash text, p_events jsonb, p_channel text
      ) returns table (outcome text, stream_revision bigint, last_position bigint)
      language plpgsql as $$
      declare
        v_ids uuid[];
        v_actual bigint;
        v_hash text;
        v_first bigint;
        v_last_position bigint;
      begin
        -- Serialises appenders of one stream; other streams are not held up.
        perform pg_advisory_xact_lock(hashtextextended(p_stream, 0));
        -- An array, not a subquery: the plan kept for this statement must use the index on event_id.
        v_ids := array(select (x->>'id')::uuid from jsonb_array_elements(p_events) x);
        return query
          select 'duplicate'::text, e.revision, e.position from events e
          where e.event_id = any(v_ids)
          order by e.position desc limit 1;
        if found then return; end if;

        select s.revision into v_actual from event_streams s where s.stream_id = p_stream;
        if v_actual is distinct from p_expected then
          return query select 'conflict'::text, v_actual, null::bigint;
          return;
        end if;
        v_hash := repeat('0', 64);
        if v_actual is not null then
          select coalesce(e.metadata->>'chainHash', v_hash) into v_hash
          from events e where e.stream_id = p_stream and e.revision = v_actual;
        end if;
        if v_hash is distinct from p_previous_hash then
          return query select 'stale_hash'::text, v_actual, null::bigint;
          return;
        end if;

        v_first := coalesce(v_actual + 1, 0);
        insert into event_streams (stream_id, revision)
        values (p_stream, v_first + jsonb_array_length(p_events) - 1)
        on conflict (stream_id) do update set revision = excluded.revision;
        perform pg_notify(p_channel, '');
        -- Positions are taken and committed under one lock, so every snapshot sees a prefix of the
        -- log; all the rest is done before it is taken.
        perform pg_advisory_xact_lock(7262651001);
        with inserted as (
          insert into events (event_id, stream_id, revision, type, data, metadata)
          select (x.e->>'id')::uuid, p_stream, v_first + x.i - 1, x.e->>'type', x.e->'data', x.e->'metadata'
          from jsonb_array_elements(p_events) with ordinality as x(e, i)
          order by x.i
          returning events.position
        )
        select max(inserted.position) into v_last_position from inserted;
        return query select 'appended'::text, v_first + jsonb_array_length(p_events) - 1, v_last_position;
      end $$;
    `,
  },
  {
    // Each statement of the append is planned for the log as it is at that call. A plan kept by the
    // connection (PostgreSQL's generic plan, chosen after five calls) made while the log was small
    // scans the whole log backwards to look for repeated event ids, a cost that grows with history.
    id: '003-append-custom-plans',
    up: `
      alter function eventstore_append(text, bigint, text, jsonb, text) set plan_cache_mode = force_custom_plan;
    `,
  },
  {
    // Positions come from the appending transaction's id (see postgres-event-store.ts): appends no
    // longer take turns to insert and commit, and followers read only below the oldest transaction
    // still running. Positions already given keep their value; the base puts every new one above
    // them (new appends have larger transaction ids than this migration's).
    id: '004-transaction-positions',
    up: `
      alter table events alter column position drop identity;
      do $migration$
      declare
        v_base bigint;
      begin
        select greatest(0, coalesce(max(position), 0) - pg_current_xact_id()::text::bigint * 1048576)
        into v_base from events;
        execute format(
          'create function eventstore_position_base() returns bigint language sql immutable return %s',
          v_base);
      end $migration$;

      -- Every transaction with a smaller id has ended, so no event can appear below this any more.
      create function eventstore_read_horizon() returns bigint language sql stable
      return pg_snapshot_xmin(pg_current_snapshot())::text::bigint * 1048576 + eventstore_position_base();

      drop function eventstore_append(text, bigint, text, jsonb, text);
      create function eventstore_append(
        p_stream text, p_expected bigint, p_previous_hash text, p_events jsonb
      ) returns table (outcome text, stream_revision bigint, last_position bigint)
      language plpgsql set plan_cache_mode = force_custom_plan as $$
      declare
        v_count int := jsonb_array_length(p_events);
        v_ids uuid[];
        v_actual bigint;
        v_hash text;
        v_first bigint;
        v_position bigint;
      begin
        -- The transaction id, hence the position, must be taken once the stream is locked: one taken
        -- before waiting for the lock would place this append before the one it waited for.
        if pg_current_xact_id_if_assigned() is not null then
          raise exception 'eventstore_append must be the first write of its transaction';
        end if;
        if v_count >= 1048576 then
          raise exception 'an append takes at most 1048575 events, not %', v_count;
        end if;
        -- Serialises appenders of one stream; other streams are not held up.
        perform pg_advisory_xact_lock(hashtextextended(p_stream, 0));
        -- An array, not a subquery: the plan made for this statement must use the index on event_id.
        v_ids := array(select (x->>'id')::uuid from jsonb_array_elements(p_events) x);
        return query
          select 'duplicate'::text, e.revision, e.position from events e
          where e.event_id = any(v_ids)
          order by e.position desc limit 1;
        if found then return; end if;

        select s.revision into v_actual from event_streams s where s.stream_id = p_stream;
        if v_actual is distinct from p_expected then
          return query select 'conflict'::text, v_actual, null::bigint;
          return;
        end if;
        v_hash := repeat('0', 64);
        if v_actual is not null then
          select coalesce(e.metadata->>'chainHash', v_hash) into v_hash
          from events e where e.stream_id = p_stream and e.revision = v_actual;
        end if;
        if v_hash is distinct from p_previous_hash then
          return query select 'stale_hash'::text, v_actual, null::bigint;
          return;
        end if;

        v_first := coalesce(v_actual + 1, 0);
        v_position := pg_current_xact_id()::text::bigint * 1048576 + eventstore_position_base();
        insert into event_streams (stream_id, revision)
        values (p_stream, v_first + v_count - 1)
        on conflict (stream_id) do update set revision = excluded.revision;
        insert into events (position, event_id, stream_id, revision, type, data, metadata)
        select v_position + x.i - 1, (x.e->>'id')::uuid, p_stream, v_first + x.i - 1, x.e->>'type',
          x.e->'data', x.e->'metadata'
        from jsonb_array_elements(p_events) with ordinality as x(e, i);
        return query select 'appended'::text, v_first + v_count - 1, v_position + v_count - 1;
      end $$;
    `,
  },
  {
    // Every statement of the append finds one row by an index, whatever the size of the log, so the
    // plans a connection keeps for them cannot go stale and none is planned again on each call (the
    // custom plans forced above cost a tenth of a millisecond an append). A repeated append is known
    // by its last event id alone: an append's events are stored together or not at all. The chain
    // hash of a stream's last event is kept beside its revision, so one row gives both.
    id: '005-append-stable-plans',
    up: `
      alter table event_streams add column last_hash text;
      update event_streams s set last_hash = coalesce(e.metadata->>'chainHash', repeat('0', 64))
      from events e where e.stream_id = s.stream_id and e.revision = s.revision;

      drop function eventstore_append(text, bigint, text, jsonb);
      create function eventstore_append(
        p_stream text, p_expected bigint, p_previous_hash text, p_events jsonb
      ) returns table (outcome text, stream_revision bigint, last_position bigint)
      language plpgsql as $$
      declare
        v_count int := jsonb_array_length(p_events);
        v_last jsonb := p_events->(jsonb_array_length(p_events) - 1);
        v_actual bigint;
        v_hash text;
        v_first bigint;
        v_position bigint;
      begin
        -- The transaction id, hence the position, must be taken once the stream is locked: one taken
        -- before waiting for the lock would place this append before the one it waited for.
        if pg_current_xact_id_if_assigned() is not null then
          raise exception 'eventstore_append must be the first write of its transaction';
        end if;
        if v_count < 1 or v_count >= 1048576 then
          raise exception 'an append takes 1 to 1048575 events, not %', v_count;
        end if;
        -- Serialises appenders of one stream; other streams are not held up.
        perform pg_advisory_xact_lock(hashtextextended(p_stream, 0));
        return query
          select 'duplicate'::text, e.revision, e.position from events e
          where e.event_id = (v_last->>'id')::uuid;
        if found then return; end if;

        select s.revision, coalesce(s.last_hash, repeat('0', 64)) into v_actual, v_hash
        from event_streams s where s.stream_id = p_stream;
        if v_actual is distinct from p_expected then
          return query select 'conflict'::text, v_actual, null::bigint;
          return;
        end if;
        if coalesce(v_hash, repeat('0', 64)) is distinct from p_previous_hash then
          return query select 'stale_hash'::text, v_actual, null::bigint;
          return;
        end if;

        v_first := coalesce(v_actual + 1, 0);
        v_position := pg_current_xact_id()::text::bigint * 1048576 + eventstore_position_base();
        insert into event_streams (stream_id, revision, last_hash)
        values (p_stream, v_first + v_count - 1, coalesce(v_last->'metadata'->>'chainHash', repeat('0', 64)))
        on conflict (stream_id) do update set revision = excluded.revision, last_hash = excluded.last_hash;
        insert into events (position, event_id, stream_id, revision, type, data, metadata)
        select v_position + x.i - 1, (x.e->>'id')::uuid, p_stream, v_first + x.i - 1, x.e->>'type',
          x.e->'data', x.e->'metadata'
        from jsonb_array_elements(p_events) with ordinality as x(e, i);
        return query select 'appended'::text, v_first + v_count - 1, v_position + v_count - 1;
      end $$;
    `,
  },
  {
    // An append to several streams in one transaction: every part is stored or none. Each stream is
    // locked as `eventstore_append` locks it, all before the transaction id (hence the positions) is
    // taken, in one order (by lock key) so that two such appends never wait for each other in a
    // cycle. Every check is made before anything is written. Outcomes, by part (from 0): one row
    // 'appended' per part, or one row naming the first part found 'duplicate' (its last event is
    // stored: nothing is written), 'conflict' or 'stale_hash', as for `eventstore_append`.
    id: '006-append-together',
    up: `
      create function eventstore_append_together(p_parts jsonb)
      returns table (part int, outcome text, stream_revision bigint, last_position bigint)
      language plpgsql as $$
      declare
        v_parts int := jsonb_array_length(p_parts);
        v_total int := 0;
        v_count int;
        v_i int;
        v_key bigint;
        v_stream text;
        v_last jsonb;
        v_actual bigint;
        v_hash text;
        v_first bigint;
        v_position bigint;
        v_offset int := 0;
        v_firsts bigint[] := '{}';
      begin
        if pg_current_xact_id_if_assigned() is not null then
          raise exception 'eventstore_append_together must be the first write of its transaction';
        end if;
        if v_parts < 1 then
          raise exception 'an append together takes at least one part';
        end if;
        for v_i in 0 .. v_parts - 1 loop
          v_count := jsonb_array_length(p_parts->v_i->'events');
          if v_count < 1 then
            raise exception 'each part of an append together takes at least one event';
          end if;
          v_total := v_total + v_count;
        end loop;
        if v_total >= 1048576 then
          raise exception 'an append takes 1 to 1048575 events, not %', v_total;
        end if;
        if (select count(distinct x->>'stream') from jsonb_array_elements(p_parts) x) <> v_parts then
          raise exception 'an append together names each stream once';
        end if;
        for v_key in
          select distinct hashtextextended(x->>'stream', 0) from jsonb_array_elements(p_parts) x order by 1
        loop
          perform pg_advisory_xact_lock(v_key);
        end loop;

        for v_i in 0 .. v_parts - 1 loop
          v_stream := p_parts->v_i->>'stream';
          v_count := jsonb_array_length(p_parts->v_i->'events');
          v_last := p_parts->v_i->'events'->(v_count - 1);
          return query
            select v_i, 'duplicate'::text, e.revision, e.position from events e
            where e.event_id = (v_last->>'id')::uuid;
          if found then return; end if;

          select s.revision, coalesce(s.last_hash, repeat('0', 64)) into v_actual, v_hash
          from event_streams s where s.stream_id = v_stream;
          if v_actual is distinct from (p_parts->v_i->>'expected')::bigint then
            return query select v_i, 'conflict'::text, v_actual, null::bigint;
            return;
          end if;
          if coalesce(v_hash, repeat('0', 64)) is distinct from p_parts->v_i->>'previousHash' then
            return query select v_i, 'stale_hash'::text, v_actual, null::bigint;
            return;
          end if;
          v_firsts := v_firsts || coalesce(v_actual + 1, 0);
        end loop;

        v_position := pg_current_xact_id()::text::bigint * 1048576 + eventstore_position_base();
        for v_i in 0 .. v_parts - 1 loop
          v_stream := p_parts->v_i->>'stream';
          v_count := jsonb_array_length(p_parts->v_i->'events');
          v_last := p_parts->v_i->'events'->(v_count - 1);
          v_first := v_firsts[v_i + 1];
          insert into event_streams (stream_id, revision, last_hash)
          values (v_stream, v_first + v_count - 1, coalesce(v_last->'metadata'->>'chainHash', repeat('0', 64)))
          on conflict (stream_id) do update set revision = excluded.revision, last_hash = excluded.last_hash;
          insert into events (position, event_id, stream_id, revision, type, data, metadata)
          select v_position + v_offset + x.i - 1, (x.e->>'id')::uuid, v_stream, v_first + x.i - 1,
            x.e->>'type', x.e->'data', x.e->'metadata'
          from jsonb_array_elements(p_parts->v_i->'events') with ordinality as x(e, i);
          v_offset := v_offset + v_count;
          return query select v_i, 'appended'::text, v_first + v_count - 1, v_position + v_offset - 1;
        end loop;
      end $$;
    `,
  },
  {
    // The appends' checks made by their writes: a stream's row is moved on only where it is at the
    // expected revision and chained to the expected hash (or made, for a new stream), so an append
    // that goes through runs the lock, that write and the insert of its events, and no read. Only
    // an append that does not go through looks at what is stored, telling the outcomes in the order
    // they were always told: its events already stored, another revision, another hash. Events
    // cannot be stored at or before the revision their append expects (an event's id derives from
    // its stream), and a copy of the same events racing an append still fails at the unique index
    // on event_id, as before. An append together that finds a later part's stream elsewhere puts
    // the rows of the parts before it back as they were, under the same locks, before it answers.
    id: '007-appends-checked-by-their-writes',
    up: `
      create or replace function eventstore_append(
        p_stream text, p_expected bigint, p_previous_hash text, p_events jsonb
      ) returns table (outcome text, stream_revision bigint, last_position bigint)
      language plpgsql as $$
      declare
        v_count int := jsonb_array_length(p_events);
        v_last jsonb := p_events->(jsonb_array_length(p_events) - 1);
        v_first bigint := coalesce(p_expected + 1, 0);
        v_actual bigint;
        v_position bigint;
      begin
        -- The transaction id, hence the position, must be taken once the stream is locked: one taken
        -- before waiting for the lock would place this append before the one it waited for.
        if pg_current_xact_id_if_assigned() is not null then
          raise exception 'eventstore_append must be the first write of its transaction';
        end if;
        if v_count < 1 or v_count >= 1048576 then
          raise exception 'an append takes 1 to 1048575 events, not %', v_count;
        end if;
        -- Serialises appenders of one stream; other streams are not held up.
        perform pg_advisory_xact_lock(hashtextextended(p_stream, 0));
        if p_expected is null then
          insert into event_streams (stream_id, revision, last_hash)
          select p_stream, v_count - 1, coalesce(v_last->'metadata'->>'chainHash', repeat('0', 64))
          where p_previous_hash = repeat('0', 64)
          on conflict (stream_id) do nothing;
        else
          update event_streams
          set revision = v_first + v_count - 1,
            last_hash = coalesce(v_last->'metadata'->>'chainHash', repeat('0', 64))
          where stream_id = p_stream and revision = p_expected
            and coalesce(last_hash, repeat('0', 64)) = p_previous_hash;
        end if;
        if not found then
          return query
            select 'duplicate'::text, e.revision, e.position from events e
            where e.event_id = (v_last->>'id')::uuid;
          if found then return; end if;
          select s.revision into v_actual from event_streams s where s.stream_id = p_stream;
          return query select
            case when v_actual is distinct from p_expected then 'conflict' else 'stale_hash' end,
            v_actual, null::bigint;
          return;
        end if;

        v_position := pg_current_xact_id()::text::bigint * 1048576 + eventstore_position_base();
        insert into events (position, event_id, stream_id, revision, type, data, metadata)
        select v_position + x.i - 1, (x.e->>'id')::uuid, p_stream, v_first + x.i - 1, x.e->>'type',
          x.e->'data', x.e->'metadata'
        from jsonb_array_elements(p_events) with ordinality as x(e, i);
        return query select 'appended'::text, v_first + v_count - 1, v_position + v_count - 1;
      end $$;

      create or replace function eventstore_append_together(p_parts jsonb)
      returns table (part int, outcome text, stream_revision bigint, last_position bigint)
      language plpgsql as $$
      declare
        v_parts int := jsonb_array_length(p_parts);
        v_total int := 0;
        v_count int;
        v_i int;
        v_j int;
        v_key bigint;
        v_stream text;
        v_expected bigint;
        v_last jsonb;
        v_actual bigint;
        v_first bigint;
        v_position bigint;
        v_offset int := 0;
      begin
        if pg_current_xact_id_if_assigned() is not null then
          raise exception 'eventstore_append_together must be the first write of its transaction';
        end if;
        if v_parts < 1 then
          raise exception 'an append together takes at least one part';
        end if;
        for v_i in 0 .. v_parts - 1 loop
          v_count := jsonb_array_length(p_parts->v_i->'events');
          if v_count < 1 then
            raise exception 'each part of an append together takes at least one event';
          end if;
          v_total := v_total + v_count;
        end loop;
        if v_total >= 1048576 then
          raise exception 'an append takes 1 to 1048575 events, not %', v_total;
        end if;
        if (select count(distinct x->>'stream') from jsonb_array_elements(p_parts) x) <> v_parts then
          raise exception 'an append together names each stream once';
        end if;
        for v_key in
          select distinct hashtextextended(x->>'stream', 0) from jsonb_array_elements(p_parts) x order by 1
        loop
          perform pg_advisory_xact_lock(v_key);
        end loop;

        for v_i in 0 .. v_parts - 1 loop
          v_stream := p_parts->v_i->>'stream';
          v_expected := (p_parts->v_i->>'expected')::bigint;
          v_count := jsonb_array_length(p_parts->v_i->'events');
          v_last := p_parts->v_i->'events'->(v_count - 1);
          if v_expected is null then
            insert into event_streams (stream_id, revision, last_hash)
            select v_stream, v_count - 1, coalesce(v_last->'metadata'->>'chainHash', repeat('0', 64))
            where p_parts->v_i->>'previousHash' = repeat('0', 64)
            on conflict (stream_id) do nothing;
          else
            update event_streams
            set revision = v_expected + v_count,
              last_hash = coalesce(v_last->'metadata'->>'chainHash', repeat('0', 64))
            where stream_id = v_stream and revision = v_expected
              and coalesce(last_hash, repeat('0', 64)) = p_parts->v_i->>'previousHash';
          end if;
          if not found then
            -- The parts before this one are put back as they were: nothing of the append stays.
            for v_j in 0 .. v_i - 1 loop
              if p_parts->v_j->>'expected' is null then
                delete from event_streams where stream_id = p_parts->v_j->>'stream';
              else
                update event_streams
                set revision = (p_parts->v_j->>'expected')::bigint, last_hash = p_parts->v_j->>'previousHash'
                where stream_id = p_parts->v_j->>'stream';
              end if;
            end loop;
            return query
              select v_i, 'duplicate'::text, e.revision, e.position from events e
              where e.event_id = (v_last->>'id')::uuid;
            if found then return; end if;
            select s.revision into v_actual from event_streams s where s.stream_id = v_stream;
            return query select v_i,
              case when v_actual is distinct from v_expected then 'conflict' else 'stale_hash' end,
              v_actual, null::bigint;
            return;
          end if;
        end loop;

        v_position := pg_current_xact_id()::text::bigint * 1048576 + eventstore_position_base();
        for v_i in 0 .. v_parts - 1 loop
          v_stream := p_parts->v_i->>'stream';
          v_count := jsonb_array_length(p_parts->v_i->'events');
          v_first := coalesce((p_parts->v_i->>'expected')::bigint + 1, 0);
          insert into events (position, event_id, stream_id, revision, type, data, metadata)
          select v_position + v_offset + x.i - 1, (x.e->>'id')::uuid, v_stream, v_first + x.i - 1,
            x.e->>'type', x.e->'data', x.e->'metadata'
          from jsonb_array_elements(p_parts->v_i->'events') with ordinality as x(e, i);
          v_offset := v_offset + v_count;
          return query select v_i, 'appended'::text, v_first + v_count - 1, v_position + v_offset - 1;
        end loop;
      end $$;
    `,
  },
  {
    // Appends gathered into one statement and one transaction (the store gathers those made while
    // others are on their way): each append is checked and written as `eventstore_append_together`
    // checks and writes it, in the order given, and one that does not go through (a repeat, another
    // revision, another hash) is answered as such and leaves nothing behind, while the others go on.
    // Every stream's lock is taken first, in the order of their keys, then the one transaction id
    // whose positions the appends' events take in turn.
    id: '008-appends-gathered',
    up: `
      create function eventstore_append_each(p_appends jsonb)
      returns table (append int, part int, outcome text, stream_revision bigint, last_position bigint)
      language plpgsql as $$
      declare
        v_parts jsonb;
        v_events jsonb;
        v_part_count int;
        v_count int;
        v_total bigint;
        v_malformed bigint;
        v_a int;
        v_i int;
        v_j int;
        v_key bigint;
        v_stream text;
        v_expected bigint;
        v_last jsonb;
        v_actual bigint;
        v_first bigint;
        v_position bigint;
        v_offset int := 0;
        v_failed boolean;
      begin
        if pg_current_xact_id_if_assigned() is not null then
          raise exception 'eventstore_append_each must be the first write of its transaction';
        end if;
        if jsonb_array_length(p_appends) < 1
          or exists (select from jsonb_array_elements(p_appends) x where jsonb_array_length(x) < 1) then
          raise exception 'each append takes at least one part';
        end if;
        select count(*) filter (where jsonb_array_length(p->'events') < 1)
            + count(*) - count(distinct (a.i, p->>'stream')),
          coalesce(sum(jsonb_array_length(p->'events')), 0)
        into v_malformed, v_total
        from jsonb_array_elements(p_appends) with ordinality a(x, i), jsonb_array_elements(a.x) p;
        if v_malformed > 0 then
          raise exception 'each part of an append takes at least one event, and each append names a stream once';
        end if;
        if v_total >= 1048576 then
          raise exception 'a transaction appends 1 to 1048575 events, not %', v_total;
        end if;
        for v_key in
          select distinct hashtextextended(p->>'stream', 0)
          from jsonb_array_elements(p_appends) x, jsonb_array_elements(x) p order by 1
        loop
          perform pg_advisory_xact_lock(v_key);
        end loop;
        v_position := pg_current_xact_id()::text::bigint * 1048576 + eventstore_position_base();

        for v_a in 0 .. jsonb_array_length(p_appends) - 1 loop
          v_parts := p_appends->v_a;
          v_part_count := jsonb_array_length(v_parts);
          v_failed := false;
          for v_i in 0 .. v_part_count - 1 loop
            v_stream := v_parts->v_i->>'stream';
            v_expected := (v_parts->v_i->>'expected')::bigint;
            v_events := v_parts->v_i->'events';
            v_count := jsonb_array_length(v_events);
            v_last := v_events->(v_count - 1);
            if v_expected is null then
              insert into event_streams (stream_id, revision, last_hash)
              select v_stream, v_count - 1, coalesce(v_last->'metadata'->>'chainHash', repeat('0', 64))
              where v_parts->v_i->>'previousHash' = repeat('0', 64)
              on conflict (stream_id) do nothing;
            else
              update event_streams
              set revision = v_expected + v_count,
                last_hash = coalesce(v_last->'metadata'->>'chainHash', repeat('0', 64))
              where stream_id = v_stream and revision = v_expected
                and coalesce(last_hash, repeat('0', 64)) = v_parts->v_i->>'previousHash';
            end if;
            if not found then
              -- This append's parts before this one are put back as they were: nothing of it stays.
              for v_j in 0 .. v_i - 1 loop
                if v_parts->v_j->>'expected' is null then
                  delete from event_streams where stream_id = v_parts->v_j->>'stream';
                else
                  update event_streams
                  set revision = (v_parts->v_j->>'expected')::bigint, last_hash = v_parts->v_j->>'previousHash'
                  where stream_id = v_parts->v_j->>'stream';
                end if;
              end loop;
              v_failed := true;
              return query
                select v_a, v_i, 'duplicate'::text, e.revision, e.position from events e
                where e.event_id = (v_last->>'id')::uuid;
              if not found then
                select s.revision into v_actual from event_streams s where s.stream_id = v_stream;
                return query select v_a, v_i,
                  case when v_actual is distinct from v_expected then 'conflict' else 'stale_hash' end,
                  v_actual, null::bigint;
              end if;
              exit;
            end if;
          end loop;
          continue when v_failed;
          for v_i in 0 .. v_part_count - 1 loop
            v_events := v_parts->v_i->'events';
            v_count := jsonb_array_length(v_events);
            v_first := coalesce((v_parts->v_i->>'expected')::bigint + 1, 0);
            insert into events (position, event_id, stream_id, revision, type, data, metadata)
            select v_position + v_offset + x.i - 1, (x.e->>'id')::uuid, v_parts->v_i->>'stream',
              v_first + x.i - 1, x.e->>'type', x.e->'data', x.e->'metadata'
            from jsonb_array_elements(v_events) with ordinality as x(e, i);
            v_offset := v_offset + v_count;
            return query select v_a, v_i, 'appended'::text, v_first + v_count - 1, v_position + v_offset - 1;
          end loop;
        end loop;
      end $$;
    `,
  },
];
