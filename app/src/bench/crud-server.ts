import { connect } from '@shiftcover/platform';
import Fastify from 'fastify';

/**
 * The baseline: the same claim and approval as a CRUD application would write them, one
 * transactional UPDATE per request on the same PostgreSQL, with a session lookup and an overlap
 * check like the real thing, and no events, projections or read models.
 */
const sql = connect(process.env.DATABASE_URL!, { max: 20 });
await sql`
  create table if not exists crud_shifts (
    id uuid primary key, date date not null, start_time time not null, end_time time not null,
    status text not null default 'open', assigned_user_id uuid, approved boolean not null default false,
    updated_at timestamptz not null default now())`;
await sql`create index if not exists crud_shifts_assignee on crud_shifts (assigned_user_id, date)`;
await sql`create table if not exists crud_sessions (sid text primary key, user_id uuid not null, role text not null)`;
await sql`
  create table if not exists crud_audit (id bigserial primary key, user_id uuid, action text, shift_id uuid,
    at timestamptz not null default now())`;

const app = Fastify();

async function session(cookie: string | undefined) {
  const sid = cookie?.split('=')[1];
  if (!sid) return undefined;
  const [row] = await sql<
    { user_id: string; role: string }[]
  >`select user_id, role from crud_sessions where sid = ${sid}`;
  return row;
}

app.get('/healthz', async () => ({ status: 'ok' }));

app.post<{ Params: { id: string } }>('/crud/shifts/:id/claim', async (request, reply) => {
  const who = await session(request.headers.cookie);
  if (!who) return reply.code(401).send({ message: 'Unauthorized' });
  return sql.begin(async (tx) => {
    const [shift] = await tx<
      { date: string; start_time: string; end_time: string; assigned_user_id: string | null }[]
    >`
      select date, start_time, end_time, assigned_user_id from crud_shifts where id = ${request.params.id} for update`;
    if (!shift) return reply.code(404).send({ message: 'Shift not found' });
    if (shift.assigned_user_id) return reply.code(409).send({ message: 'This shift is no longer available' });
    const [clash] = await tx`
      select 1 from crud_shifts where assigned_user_id = ${who.user_id} and date = ${shift.date}
        and start_time < ${shift.end_time} and end_time > ${shift.start_time}`;
    if (clash) return reply.code(409).send({ message: 'Scheduling conflict' });
    await tx`update crud_shifts set status = 'pending', assigned_user_id = ${who.user_id}, updated_at = now()
      where id = ${request.params.id}`;
    await tx`insert into crud_audit (user_id, action, shift_id) values (${who.user_id}, 'shift_claimed', ${request.params.id})`;
    return { message: 'Shift claimed successfully' };
  });
});

app.post<{ Params: { id: string } }>('/crud/shifts/:id/approve', async (request, reply) => {
  const who = await session(request.headers.cookie);
  if (who?.role !== 'admin') return reply.code(403).send({ message: 'Forbidden' });
  return sql.begin(async (tx) => {
    const [updated] = await tx`
      update crud_shifts set status = 'approved', approved = true, updated_at = now()
      where id = ${request.params.id} and status = 'pending' returning id`;
    if (!updated) return reply.code(409).send({ message: 'Nothing to approve' });
    await tx`insert into crud_audit (user_id, action, shift_id) values (${who.user_id}, 'shift_approved', ${request.params.id})`;
    return { message: 'Shift approved' };
  });
});

// The claimant's own shifts from today on, as the product's My Shifts names them: the read that
// follows a write in the read-your-writes figure.
app.get('/crud/my-shifts', async (request, reply) => {
  const who = await session(request.headers.cookie);
  if (!who) return reply.code(401).send({ message: 'Unauthorized' });
  const upcoming = await sql`
    select id, date, start_time, end_time, status from crud_shifts
    where assigned_user_id = ${who.user_id} and date >= current_date order by date, start_time`;
  return { upcoming };
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
const stop = async () => {
  await app.close();
  await sql.end({ timeout: 2 });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
