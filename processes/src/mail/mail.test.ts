import { randomUUID } from 'node:crypto';
import type { Actor, ShiftCommand } from '@shiftcover/domain';
import { easternInstant } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import { aShift, openProcessWorld, perFile, registerPerson, subjectOf } from '@shiftcover/testing';
import type { Sql, TransactionSql } from 'postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { MailProcess } from './mail-process';
import type { MailPlannerDeps } from './planner-deps';
import { emailHandler, planNextBatch } from './runner';
import { deliverDue } from './sender';
import { smtpTransport } from './smtp';

const world = perFile(() => openProcessWorld({ readModels: true, smtp: true }));
const now = easternInstant('2026-03-01', '09:00');
const people: Record<string, { userId: string; actor: Actor }> = {};
const residences: Record<string, string> = {};

beforeAll(async () => {
  for (const name of ['Maple House', 'Oak Lodge']) {
    residences[name] = randomUUID();
    await world.service.residences.execute(
      {
        type: 'CreateResidence',
        data: { residenceId: residences[name]!, name, description: null, address: null },
      },
      { actor: { kind: 'user', userId: 'dev', role: 'developer', superAdmin: false }, now },
      { commandId: randomUUID() },
    );
  }
  const register = async (
    name: string,
    role: 'staff' | 'admin' | 'developer',
    mail: boolean,
    residence?: string,
  ) => {
    const actor = await registerPerson(world.service, name, {
      role,
      now,
      mail,
      ...(residence ? { residenceId: residences[residence]! } : {}),
    });
    people[name] = { userId: actor.userId, actor };
  };
  await register('mia', 'admin', true, 'Maple House');
  await register('otto', 'admin', true, 'Oak Lodge');
  await register('sam', 'staff', true);
  await register('quiet', 'staff', false);
  await register('kai', 'staff', true);
  await register('dev', 'developer', true);
});

const deps = (): MailPlannerDeps => world.mailPlanner();

async function run(command: ShiftCommand, actor: Actor) {
  await world.service.shift(command, { actor, now }, { commandId: randomUUID() });
}

/** Plans and sends everything so far; returns the mails that arrived, by recipient and subject. */
async function deliver(): Promise<string[]> {
  const { inbox } = world.smtp;
  const before = inbox.length;
  while ((await planNextBatch(deps())) > 0) {}
  await deliverDue(world.sql, smtpTransport(world.smtp.url), 'Shift Coverage <shifts@example.org>');
  return inbox
    .slice(before)
    .map((m) => `${m.to.join(',')} | ${subjectOf(m.raw)}`)
    .sort();
}

describe('e-mail notifications over a real SMTP server', () => {
  const shiftId = randomUUID();

  it('a new shift goes to every staff member who wants mail, with the details in Eastern time', async () => {
    await run(
      {
        type: 'PostShift',
        data: aShift({ shiftId, requirements: 'CPR' }),
      },
      people.mia!.actor,
    );
    expect(await deliver()).toEqual([
      'kai@example.org | New shift available: Maple House, 2026-03-10',
      'sam@example.org | New shift available: Maple House, 2026-03-10',
    ]);
    const raw = world.smtp.inbox.at(-1)!.raw.replace(/=\r?\n/g, '');
    expect(raw).toContain('Tue, Mar 10, 2026, 8:00 AM');
    expect(raw).toContain('https://shifts.example.org');
    expect(raw).toMatch(/Content-Type: text\/html/i);
    expect(raw).toMatch(/Content-Type: text\/plain/i);
  });

  it('a claim awaiting approval goes to the admins of that residence only', async () => {
    await run({ type: 'ClaimShift', data: { shiftId } }, people.sam!.actor);
    expect(await deliver()).toEqual(['mia@example.org | Claim awaiting approval: Maple House, 2026-03-10']);
  });

  it('approval, transfer request, acceptance: each to the person concerned', async () => {
    await run({ type: 'ApproveClaim', data: { shiftId } }, people.mia!.actor);
    expect(await deliver()).toEqual(['sam@example.org | Shift confirmed: Maple House, 2026-03-10']);
    const transferId = `${shiftId}.t1`;
    await run(
      {
        type: 'RequestTransfer',
        data: { shiftId, transferId, toUserId: people.kai!.userId, recipientRole: 'staff', message: null },
      },
      people.sam!.actor,
    );
    expect(await deliver()).toEqual(['kai@example.org | Can you take this shift? Maple House, 2026-03-10']);
    await run({ type: 'AcceptTransfer', data: { shiftId, transferId } }, people.kai!.actor);
    expect(await deliver()).toEqual(['sam@example.org | Transfer accepted: Maple House, 2026-03-10']);
  });

  it('a change to a held shift reaches its holder; a cancellation too', async () => {
    await run(
      {
        type: 'UpdateShift',
        data: {
          shiftId,
          location: 'Maple House',
          date: '2026-03-10',
          startTime: '09:00',
          endTime: '17:00',
          type: 'AM',
          status: 'open',
          requirements: 'CPR',
          notes: null,
        },
      },
      people.mia!.actor,
    );
    expect(await deliver()).toEqual(['kai@example.org | Shift changed: Maple House, 2026-03-10']);
    await run({ type: 'DeleteShift', data: { shiftId } }, people.mia!.actor);
    expect(await deliver()).toEqual(['kai@example.org | Shift cancelled: Maple House, 2026-03-10']);
  });

  it('replaying the whole log plans nothing new and sends nothing twice', async () => {
    await world.sql`update process_checkpoints set position = 0 where name = 'email'`;
    expect(await deliver()).toEqual([]);
    const [rows] = await world.sql`select count(*)::int as n from email_deliveries`;
    expect(rows!.n).toBe(8);
  });

  it('in mailing-list mode every notification goes once to the shared address', async () => {
    await world.service.config(
      {
        type: 'SetEmailNotificationMode',
        data: { mode: 'mailing_list', mailingListAddress: 'team@example.org' },
      },
      { actor: people.dev!.actor, now },
      { commandId: randomUUID() },
    );
    await run(
      {
        type: 'PostShift',
        data: aShift({ location: 'Oak Lodge', date: '2026-03-11', status: 'urgent' }),
      },
      people.otto!.actor,
    );
    expect(await deliver()).toEqual(['team@example.org | Urgent coverage needed: Oak Lodge, 2026-03-11']);
  });

  it('a mail sent again after a crash carries the same Message-ID, so the receiver can drop the copy', async () => {
    const messageId = (raw: string) => /^Message-ID: (.*)$/im.exec(raw)?.[1]?.trim();
    const [last] = await world.sql<{ id: bigint }[]>`select max(id) as id from email_deliveries`;
    const first = messageId(world.smtp.inbox.at(-1)!.raw);
    expect(first).toBe(`<delivery-${last!.id}@example.org>`);
    // As if the sender died after the SMTP server took the mail but before it was recorded as sent.
    await world.sql`update email_deliveries set status = 'queued' where id = ${last!.id.toString()}`;
    expect(await deliver()).toEqual(['team@example.org | Urgent coverage needed: Oak Lodge, 2026-03-11']);
    expect(messageId(world.smtp.inbox.at(-1)!.raw)).toBe(first);
  });

  it('a failing send is retried later and parked after five attempts, visible as failed', async () => {
    await world.sql`update email_deliveries set status = 'queued', next_attempt_at = now() where id = (select max(id) from email_deliveries)`;
    const broken = { send: async () => Promise.reject(new Error('421 try later')) };
    let at = new Date();
    for (let attempt = 1; attempt <= 5; attempt++) {
      await deliverDue(world.sql, broken, 'x@example.org', at);
      at = new Date(at.getTime() + 3 * 3_600_000);
    }
    const [row] =
      await world.sql`select status, attempts, last_error from email_deliveries order by id desc limit 1`;
    expect(row).toMatchObject({ status: 'failed', attempts: 5, last_error: '421 try later' });
  });

  it('a batch planned together stores what planning one event at a time does, in the order of its events', async () => {
    const batchShift = randomUUID();
    // Each person's own address again, after the mailing-list test: more than one recipient per event.
    await world.service.config(
      { type: 'SetEmailNotificationMode', data: { mode: 'individual' } },
      { actor: people.dev!.actor, now },
      { commandId: randomUUID() },
    );
    const from = await world.store.headPosition();
    await run({ type: 'PostShift', data: aShift({ shiftId: batchShift }) }, people.mia!.actor);
    await run({ type: 'ClaimShift', data: { shiftId: batchShift } }, people.sam!.actor);
    await run({ type: 'ApproveClaim', data: { shiftId: batchShift } }, people.mia!.actor);
    const events = await world.store.readAll(from, 100);
    const planner = emailHandler(deps());
    const stored = async () => {
      const rows = await world.sql<{ event_id: string; recipient: string; subject: string }[]>`
        select event_id, recipient, subject from email_deliveries
        where event_id = any(${events.map((event) => event.id)}) order by id`;
      return rows.map((row) => ({
        at: events.findIndex((event) => event.id === row.event_id),
        mail: `${row.recipient} | ${row.subject}`,
      }));
    };
    await planner.handleBatch!(events);
    const together = await stored();
    // Stored in the order of the events, whatever order their plans finished in.
    expect(together.map((row) => row.at)).toEqual(together.map((row) => row.at).sort((a, b) => a - b));
    expect(new Set(together.map((row) => row.at)).size).toBe(3);

    await world.sql`delete from email_deliveries where event_id = any(${events.map((event) => event.id)})`;
    for (const event of events) await planner.handle(event);
    const alone = await stored();
    const sorted = (rows: typeof alone) => rows.map((row) => `${row.at} ${row.mail}`).sort();
    expect(sorted(together)).toEqual(sorted(alone));
    expect(sorted(alone)).toEqual([
      '0 kai@example.org | New shift available: Maple House, 2026-03-10',
      '0 sam@example.org | New shift available: Maple House, 2026-03-10',
      '1 mia@example.org | Claim awaiting approval: Maple House, 2026-03-10',
      '3 sam@example.org | Shift confirmed: Maple House, 2026-03-10',
    ]);

    // Only the events the planner wants reach it through JetStream: the claim's reservation on the
    // claimant's schedule is not published, and a planner given the rest plans the same mails.
    await world.sql`delete from email_deliveries where event_id = any(${events.map((event) => event.id)})`;
    const fresh = emailHandler(deps());
    const published = events.filter((event) => fresh.wants(event));
    expect(published.map((event) => event.type)).toEqual(['ShiftPosted', 'ShiftClaimed', 'ClaimApproved']);
    await fresh.handleBatch(published);
    expect(sorted(await stored())).toEqual(sorted(alone));
  });

  it('a batch asks who all staff and each residence’s admins are once, and mails each event as alone', async () => {
    const from = await world.store.headPosition();
    const posted = [
      ['Maple House', '2026-03-16'],
      ['Oak Lodge', '2026-03-18'],
      ['Maple House', '2026-03-20'],
      ['Oak Lodge', '2026-03-23'],
      ['Maple House', '2026-03-25'],
    ].map(([location, date]) => aShift({ location, date }));
    for (const shift of posted) await run({ type: 'PostShift', data: shift }, people.dev!.actor);
    for (const { shiftId } of posted) await run({ type: 'ClaimShift', data: { shiftId } }, people.sam!.actor);
    const events = await world.store.readAll(from, 100);
    const { together, alone, lookups } = await plannedTogetherThenAlone(events);
    // All staff for the five posts, Maple House's admins and Oak Lodge's for the five claims.
    expect(lookups).toBe(3);
    expect(together).toEqual(alone);
    expect(together).toEqual(
      [
        ...['16', '20', '25'].map(
          (day) => `mia@example.org | Claim awaiting approval: Maple House, 2026-03-${day}`,
        ),
        ...['kai', 'sam'].flatMap((name) =>
          [
            ['Maple House', '16'],
            ['Maple House', '20'],
            ['Maple House', '25'],
            ['Oak Lodge', '18'],
            ['Oak Lodge', '23'],
          ].map(
            ([location, day]) => `${name}@example.org | New shift available: ${location}, 2026-03-${day}`,
          ),
        ),
        ...['18', '23'].map((day) => `otto@example.org | Claim awaiting approval: Oak Lodge, 2026-03-${day}`),
      ].sort(),
    );
  });

  it('a batch asks where the people its events name want their mail together, not once for each', async () => {
    const shifts = ['2026-04-06', '2026-04-07', '2026-04-08', '2026-04-09', '2026-04-10', '2026-04-13'].map(
      (date) => aShift({ date }),
    );
    const claimants = [people.sam!, people.kai!, people.sam!, people.kai!, people.sam!, people.kai!];
    for (const shift of shifts) await run({ type: 'PostShift', data: shift }, people.mia!.actor);
    for (const [i, { shiftId }] of shifts.entries()) {
      await run({ type: 'ClaimShift', data: { shiftId } }, claimants[i]!.actor);
    }
    const from = await world.store.headPosition();
    for (const { shiftId } of shifts)
      await run({ type: 'ApproveClaim', data: { shiftId } }, people.mia!.actor);
    const events = (await world.store.readAll(from, 100)).filter((event) => event.type === 'ClaimApproved');
    expect(events).toHaveLength(6);
    const { together, alone, lookups } = await plannedTogetherThenAlone(events);
    // Six approvals, each mailing its claimant: the people asked for while one lookup is out go in
    // the next, so the six take one or two lookups (six, one each, without the gathering).
    expect(lookups).toBeLessThanOrEqual(2);
    expect(together).toEqual(alone);
    expect(together).toEqual(
      shifts
        .map(
          ({ date }, i) =>
            `${claimants[i] === people.sam ? 'sam' : 'kai'}@example.org | Shift confirmed: Maple House, ${date}`,
        )
        .sort(),
    );
  });

  it('a shift whose events all came through the planner is planned without reading its stream again', async () => {
    const shiftId = randomUUID();
    const store = deps().store;
    const reads: string[] = [];
    const counting: typeof store = Object.create(store);
    counting.readStream = (streamId, options) => {
      reads.push(streamId);
      return store.readStream(streamId, options);
    };
    const planner = emailHandler({ ...deps(), store: counting });
    const planned = async (command: ShiftCommand, actor: Actor) => {
      const from = await world.store.headPosition();
      await run(command, actor);
      const events = await world.store.readAll(from, 100);
      await planner.handleBatch!(events);
      return events;
    };
    const events = [
      ...(await planned(
        { type: 'PostShift', data: aShift({ shiftId, date: '2026-04-20' }) },
        people.mia!.actor,
      )),
      ...(await planned({ type: 'ClaimShift', data: { shiftId } }, people.sam!.actor)),
      ...(await planned({ type: 'ApproveClaim', data: { shiftId } }, people.mia!.actor)),
    ];
    // Posted, claimed and approved: each batch continued the stream the planner had followed.
    expect(reads).toEqual([]);
    const followed = await mailsOf(events);
    expect(followed).toEqual(await plannedAlone(events));
    expect(followed).toEqual([
      'kai@example.org | New shift available: Maple House, 2026-04-20',
      'mia@example.org | Claim awaiting approval: Maple House, 2026-04-20',
      'sam@example.org | New shift available: Maple House, 2026-04-20',
      'sam@example.org | Shift confirmed: Maple House, 2026-04-20',
    ]);

    // A planner that did not see the post reads the stream once, then follows it.
    const other = randomUUID();
    await run({ type: 'PostShift', data: aShift({ shiftId: other, date: '2026-04-21' }) }, people.mia!.actor);
    const late = emailHandler({ ...deps(), store: counting });
    for (const command of [
      { type: 'ClaimShift', data: { shiftId: other } },
      { type: 'ApproveClaim', data: { shiftId: other } },
    ] satisfies ShiftCommand[]) {
      const from = await world.store.headPosition();
      await run(command, command.type === 'ClaimShift' ? people.kai!.actor : people.mia!.actor);
      await late.handleBatch!(await world.store.readAll(from, 100));
    }
    expect(reads.filter((streamId) => streamId.includes(other))).toHaveLength(1);

    // Events delivered one at a time are followed the same way.
    const single = randomUUID();
    const alone = emailHandler({ ...deps(), store: counting });
    const one = [
      { type: 'PostShift', data: aShift({ shiftId: single, date: '2026-04-22' }) },
      { type: 'ClaimShift', data: { shiftId: single } },
      { type: 'ApproveClaim', data: { shiftId: single } },
    ] satisfies ShiftCommand[];
    const singles: RecordedEvent[] = [];
    for (const command of one) {
      const from = await world.store.headPosition();
      await run(command, command.type === 'ClaimShift' ? people.kai!.actor : people.mia!.actor);
      for (const event of await world.store.readAll(from, 100)) {
        await alone.handle(event);
        singles.push(event);
      }
    }
    expect(reads.filter((streamId) => streamId.includes(single))).toEqual([]);
    expect(await mailsOf(singles)).toEqual([
      'kai@example.org | New shift available: Maple House, 2026-04-22',
      'kai@example.org | Shift confirmed: Maple House, 2026-04-22',
      'mia@example.org | Claim awaiting approval: Maple House, 2026-04-22',
      'sam@example.org | New shift available: Maple House, 2026-04-22',
    ]);
  });
});

/**
 * The mails `events` are planned to when planned together (with the lookups that made), then
 * again when each is planned on its own: each list as `recipient | subject`, sorted.
 */
async function plannedTogetherThenAlone(events: RecordedEvent[]) {
  const counted = countingLookups(deps().sql);
  await emailHandler({ ...deps(), sql: counted.sql }).handleBatch!(events);
  const together = await mailsOf(events);
  return { together, alone: await plannedAlone(events), lookups: counted.made() };
}

/** The mails planned for `events`, each as `recipient | subject`, sorted. */
async function mailsOf(events: RecordedEvent[]): Promise<string[]> {
  const rows = await world.sql<{ mail: string }[]>`
    select recipient || ' | ' || subject as mail from email_deliveries
    where event_id = any(${events.map((event) => event.id)})`;
  return rows.map((row) => row.mail).sort();
}

/** The mails of `events` planned afresh, each event on its own. */
async function plannedAlone(events: RecordedEvent[]): Promise<string[]> {
  await world.sql`delete from email_deliveries where event_id = any(${events.map((event) => event.id)})`;
  for (const event of events) await emailHandler(deps()).handle(event);
  return mailsOf(events);
}

/** `sql`, whose transactions count the statements that look up where people's mail goes. */
function countingLookups(sql: Sql) {
  let made = 0;
  const counting = (tx: TransactionSql) =>
    new Proxy(tx, {
      apply(target, self, args) {
        const text = Array.isArray(args[0]) ? args[0].join('') : '';
        if (text.includes('coalesce(notification_email, email) as address')) made += 1;
        return Reflect.apply(target, self, args);
      },
    });
  const wrapped = new Proxy(sql, {
    get(target, key) {
      if (key === 'begin') {
        return <T>(work: (tx: TransactionSql) => Promise<T>) => target.begin((tx) => work(counting(tx)));
      }
      return Reflect.get(target, key);
    },
  });
  return { sql: wrapped, made: () => made };
}

describe('the mail process', () => {
  it('stops at once, even while its sender waits for its next round', async () => {
    const transport = smtpTransport(world.smtp.url);
    const from = 'Shift Coverage <shifts@example.org>';
    // What the tests before left due is sent first, so that the process's first round has nothing to send.
    while ((await deliverDue(world.sql, transport, from)) > 0) {}
    const mail = new MailProcess({ ...deps(), transport, from, plan: false });
    await mail.start();
    // Its first round is soon done; the next is 15 seconds off.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopped = await Promise.race([
      mail.stop().then(() => 'stopped'),
      new Promise((resolve) => setTimeout(resolve, 5_000, 'still waiting')),
    ]);
    expect(stopped).toBe('stopped');
  });
});
