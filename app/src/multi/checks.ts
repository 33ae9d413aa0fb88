import { jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect } from '@nats-io/transport-node';
import { streams } from '@shiftcover/domain';
import { projections, readCheckpoints, rebuild } from '@shiftcover/projections';
import { dumpReadModels, subjectOf, type TestSmtpServer } from '@shiftcover/testing';
import type { Sql } from 'postgres';
import { eventually, sleep } from '../faults/kill-child';
import type { Runtime } from '../runtime';
import type { Shift } from './load';

const messageIdOf = (raw: string) => /^Message-ID: (.*)$/im.exec(raw)?.[1]?.trim() ?? '';
const deliveryMessageId = (id: bigint | string) => `<delivery-${id}@shiftcover.local>`;

/**
 * Kills a process runner and returns the mails that may arrive twice: those queued when it died
 * (it may have been sending one, which the survivor then sends again) that the SMTP server has
 * taken by a moment later.
 */
export async function mailsInFlight(
  sql: Sql,
  smtp: TestSmtpServer,
  kill: () => Promise<void>,
): Promise<string[]> {
  const queued = await sql<{ id: bigint }[]>`select id from email_deliveries where status = 'queued'`;
  await kill();
  await sleep(300); // lets the SMTP server finish reading what the killed process wrote
  const received = new Set(smtp.inbox.map((m) => messageIdOf(m.raw)));
  return queued.map((row) => deliveryMessageId(row.id)).filter((id) => received.has(id));
}

/** Until the surviving projector has reached the head and the surviving runner has mailed everything. */
export async function settled(runtime: Runtime, natsUrl: string): Promise<void> {
  const nc = await natsConnect({ servers: natsUrl });
  try {
    const jsm = await jetstreamManager(nc);
    await eventually(
      'the read models reach the head of the log and every mail is planned and sent',
      async () => {
        const head = await runtime.store.headPosition();
        const checkpoints = await readCheckpoints(runtime.sql);
        if (!checkpoints.every((c) => c.position === head)) return false;
        // What the killed runner had been given comes back after the consumer's 30 s ack wait.
        const email = await jsm.consumers.info('SHIFTCOVER_EVENTS', 'email');
        if (email.num_pending > 0 || email.num_ack_pending > 0) return false;
        const [waiting] = await runtime.sql<{ n: number }[]>`
          select count(*)::int as n from email_deliveries where status <> 'sent'`;
        return waiting!.n === 0;
      },
      75_000,
    );
  } finally {
    await nc.close();
  }
}

export async function missingWrites(sql: Sql, shifts: Shift[]): Promise<string[]> {
  const missing: string[] = [];
  for (const shift of shifts) {
    const events = await sql<
      { type: string }[]
    >`select type from events where stream_id = ${streams.shift(shift.id)}`;
    const types = new Set(events.map((e) => e.type));
    for (const type of shift.acknowledged) if (!types.has(type)) missing.push(`${type} of shift ${shift.id}`);
    const [row] = await sql<{ assigned_user_id: string | null; approved: boolean }[]>`
      select assigned_user_id, approved from rm_shifts where id = ${shift.id}`;
    if (!row) missing.push(`shift ${shift.id} in the read models`);
    else if (
      shift.acknowledged.includes('ClaimApproved') &&
      !(row.approved && row.assigned_user_id === shift.userId)
    )
      missing.push(`approval of shift ${shift.id} in the read models`);
  }
  return missing;
}

/** Rebuilds every projection from the whole log into fresh tables and compares them with the live ones. */
export async function differingTables(runtime: Runtime): Promise<string[]> {
  const live = await dumpReadModels(runtime.sql);
  const deps = { sql: runtime.sql, store: runtime.store, vault: runtime.vault };
  for (const projection of projections) await rebuild(deps, projection);
  const rebuilt = await dumpReadModels(runtime.sql);
  return Object.keys(rebuilt).filter(
    (table) => JSON.stringify(live[table]) !== JSON.stringify(rebuilt[table]),
  );
}

export async function mailOutcome(sql: Sql, smtp: TestSmtpServer, inFlight: Set<string>, shifts: Shift[]) {
  const planned = await sql<{ id: bigint; recipient: string }[]>`select id, recipient from email_deliveries`;
  const received = new Map<string, { to: string; copies: number }>();
  for (const m of smtp.inbox) {
    const id = messageIdOf(m.raw);
    const seen = received.get(id);
    received.set(id, { to: m.to.join(','), copies: (seen?.copies ?? 0) + 1 });
  }
  const lost = planned
    .filter((row) => received.get(deliveryMessageId(row.id))?.to !== row.recipient)
    .map((row) => `${deliveryMessageId(row.id)} to ${row.recipient}`);
  const unexplainedCopies = [...received]
    .filter(([id, { copies }]) => copies > (inFlight.has(id) ? 2 : 1))
    .map(([id, { copies }]) => `${id} × ${copies}`);
  const subjects = new Set(smtp.inbox.map((m) => `${m.to.join(',')} | ${subjectOf(m.raw)}`));
  const unconfirmed = shifts
    .filter((shift) => shift.acknowledged.includes('ClaimApproved'))
    .filter((shift) => !subjects.has(`${shift.email} | Shift confirmed: Maple House, ${shift.date}`))
    .map((shift) => shift.id);
  return { planned: planned.length, received: received.size, lost, unexplainedCopies, unconfirmed };
}
