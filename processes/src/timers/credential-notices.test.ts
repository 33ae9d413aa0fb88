import { randomUUID } from 'node:crypto';
import { type Actor, easternInstant } from '@shiftcover/domain';
import { openProcessWorld, perFile, registerPerson, subjectOf } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { planNextBatch } from '../mail/runner';
import { deliverDue } from '../mail/sender';
import { smtpTransport } from '../mail/smtp';
import { noticeExpiringCredentials } from './credential-notices';

const world = perFile(() => openProcessWorld({ readModels: true, smtp: true }));
let clock = easternInstant('2026-03-01', '09:00');
const timers = () => ({ sql: world.sql, service: world.service, clock: () => clock });
let admin: Extract<Actor, { kind: 'user' }>;
let holder: Extract<Actor, { kind: 'user' }>;

beforeAll(async () => {
  admin = await registerPerson(world.service, 'ada', { role: 'admin', now: clock });
  holder = await registerPerson(world.service, 'cam', { role: 'staff', now: clock });
  await registerPerson(world.service, 'other', { role: 'staff', now: clock });
  // The store's history before this point is not mailed.
  await world.sql`insert into process_checkpoints (name, position) values ('email', ${(await world.store.headPosition()).toString()})`;
});

async function record(name: string, expiresOn: string | null) {
  const credentialId = randomUUID();
  await world.service.safety.schedule(
    { type: 'RecordCredential', data: { userId: holder.userId, credentialId, name, expiresOn } },
    { actor: admin, now: clock },
    { commandId: randomUUID() },
  );
  await world.project();
  return credentialId;
}

/** Sends the notices due, plans and delivers their mail: what arrived, as "recipient | subject". */
async function sweep(): Promise<string[]> {
  await noticeExpiringCredentials(timers());
  await world.project();
  const before = world.smtp.inbox.length;
  while ((await planNextBatch(world.mailPlanner())) > 0) {}
  await deliverDue(world.sql, smtpTransport(world.smtp.url), 'Shift Coverage <shifts@example.org>');
  return world.smtp.inbox
    .slice(before)
    .map((m) => `${m.to.join(',')} | ${subjectOf(m.raw)}`)
    .sort();
}

const inApp = (userId: string) =>
  world.sql<{ message: string }[]>`
    select message from rm_notifications where user_id = ${userId} and type = 'credential_expiry'
    order by created_at, id`;

describe('credential expiry notices (docs/product.md §10.1)', () => {
  it('tells the holder and the admins 30 days, then 7 days, before the last day, once each', async () => {
    await record('CPR', '2026-04-15');
    await record('Driver', null);
    // 45 days ahead: too early for any notice.
    expect(await sweep()).toEqual([]);

    clock = easternInstant('2026-03-16', '07:00');
    const mailed = [
      'ada@example.org | Credential expiring: CPR on Wed, Apr 15, 2026',
      'cam@example.org | Credential expiring: CPR on Wed, Apr 15, 2026',
    ];
    expect(await sweep()).toEqual(mailed);
    clock = easternInstant('2026-03-20', '07:00');
    expect(await sweep()).toEqual([]);

    clock = easternInstant('2026-04-08', '12:00');
    expect(await sweep()).toEqual(mailed);
    expect(await sweep()).toEqual([]);

    expect((await inApp(holder.userId)).map((n) => n.message)).toEqual([
      'Your CPR credential is valid through 2026-04-15, 30 days from now. Renew it before then.',
      'Your CPR credential is valid through 2026-04-15, 7 days from now. Renew it before then.',
    ]);
    expect(await inApp(admin.userId)).toHaveLength(2);
    // Each one counted unread for its person, as the bell reads it.
    for (const { userId } of [holder, admin]) {
      const [kept] = await world.sql<{ unread: number }[]>`
        select unread from rm_notification_unread where user_id = ${userId}`;
      const [counted] = await world.sql<{ unread: number }[]>`
        select count(*)::int as unread from rm_notifications where user_id = ${userId} and not read`;
      expect(kept?.unread).toBe(counted!.unread);
      expect(counted!.unread).toBeGreaterThanOrEqual(2);
    }
  });

  it('a credential recorded a few days before its last day gets the 7-day notice only; an expired one none', async () => {
    clock = easternInstant('2026-05-01', '09:00');
    await record('Forklift', '2026-05-04');
    await record('First aid', '2026-04-30');
    expect(await sweep()).toEqual([
      'ada@example.org | Credential expiring: Forklift on Mon, May 4, 2026',
      'cam@example.org | Credential expiring: Forklift on Mon, May 4, 2026',
    ]);
    expect(await sweep()).toEqual([]);
  });
});
