import { randomUUID } from 'node:crypto';
import { type CommandService, createCommandService, streams } from '@shiftcover/command-api';
import {
  type Actor,
  dateAfter,
  easternToday,
  nextDate,
  type Role,
  type ShiftCommand,
  type ShiftPriority,
} from '@shiftcover/domain';
import { hashPassword } from '@shiftcover/platform';
import { seedHistory } from './demo-history';
import { attempt, post, slots, trace } from './demo-steps';
import type { Runtime } from './runtime';

export const DEMO_PASSWORD = 'demo-pass-2026';

export class StoreNotEmpty extends Error {
  constructor() {
    super('The store already holds data; demo:seed only fills a new, empty store.');
  }
}

interface DemoPerson {
  username: string;
  firstName: string;
  lastName: string;
  role: Role;
  superAdmin?: boolean;
  residence?: string;
}

const residences = [
  {
    name: 'Maple House',
    description: 'Six-bed residence with overnight support',
    address: '14 Maple Street',
  },
  { name: 'Oak Lodge', description: 'Four-bed residence, step-free', address: '2 Oak Lane' },
  { name: 'Cedar Grove', description: 'Supported living apartments', address: '88 Cedar Avenue' },
  { name: 'Day Program', description: 'Weekday community day program', address: '301 River Road' },
];

const people: DemoPerson[] = [
  { username: 'dana.dev', firstName: 'Dana', lastName: 'Okafor', role: 'developer' },
  { username: 'morgan.lee', firstName: 'Morgan', lastName: 'Lee', role: 'admin', superAdmin: true },
  { username: 'jamie.cole', firstName: 'Jamie', lastName: 'Cole', role: 'admin', residence: 'Maple House' },
  { username: 'taylor.fox', firstName: 'Taylor', lastName: 'Fox', role: 'admin', residence: 'Oak Lodge' },
  { username: 'alex.rivera', firstName: 'Alex', lastName: 'Rivera', role: 'staff' },
  { username: 'sam.patel', firstName: 'Sam', lastName: 'Patel', role: 'staff' },
  { username: 'jordan.kim', firstName: 'Jordan', lastName: 'Kim', role: 'staff' },
  { username: 'riley.brooks', firstName: 'Riley', lastName: 'Brooks', role: 'staff' },
  { username: 'casey.nguyen', firstName: 'Casey', lastName: 'Nguyen', role: 'staff' },
  { username: 'drew.santos', firstName: 'Drew', lastName: 'Santos', role: 'staff' },
];

const requirements = [null, 'Medication administration certified', 'Driver’s license', 'CPR/First Aid', null];

const credentialTypes = ['Medication administration', 'CPR', 'Driver'];

/**
 * Who holds what, each expiry in days from today (null: never expires): some due for renewal within
 * the 30 days the reminders cover, one already expired, so every state shows on screen.
 */
const credentials: Array<{ username: string; name: string; expiresInDays: number | null }> = [
  { username: 'alex.rivera', name: 'Medication administration', expiresInDays: 240 },
  { username: 'alex.rivera', name: 'CPR', expiresInDays: 21 },
  { username: 'sam.patel', name: 'CPR', expiresInDays: 5 },
  { username: 'sam.patel', name: 'Driver', expiresInDays: null },
  { username: 'jordan.kim', name: 'Medication administration', expiresInDays: -12 },
  { username: 'riley.brooks', name: 'Driver', expiresInDays: 400 },
  { username: 'riley.brooks', name: 'CPR', expiresInDays: 90 },
  { username: 'casey.nguyen', name: 'Medication administration', expiresInDays: 365 },
];

/** Time off well past the three weeks of shifts, so no demo claim (nor a browser test's) falls inside it. */
const timeOff: Array<{ username: string; fromDay: number; days: number; note: string | null }> = [
  { username: 'sam.patel', fromDay: 50, days: 3, note: 'Family visit' },
  { username: 'casey.nguyen', fromDay: 55, days: 1, note: null },
];

/**
 * Whether anyone has put people, residences or shifts in the store. The timers' own records (a
 * monthly report that found nothing to report, on the first start) do not count.
 */
async function holdsTeamData(runtime: Runtime): Promise<boolean> {
  const operations = streams.operation('');
  for (let after = 0n; ; ) {
    const events = await runtime.store.readAll(after, 500);
    if (events.length === 0) return false;
    if (events.some((event) => !event.streamId.startsWith(operations))) return true;
    after = events.at(-1)!.position;
  }
}

/**
 * What a team would see a month in: four weeks of history (claims, approvals, drops, assignments,
 * shifts left unfilled) and the coming three weeks, every shift status, all three residences and the
 * day program.
 */
export async function seedDemo(runtime: Runtime, now = new Date()): Promise<DemoPerson[]> {
  if (await holdsTeamData(runtime)) throw new StoreNotEmpty();
  const service = createCommandService(runtime.handler, runtime.vault);
  const system: Actor = { kind: 'system', name: 'demo-seed' };
  const run = { actor: system, now };
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  const residenceIds = new Map<string, string>();
  for (const r of residences) {
    const residenceId = randomUUID();
    residenceIds.set(r.name, residenceId);
    await service.residences.execute({ type: 'CreateResidence', data: { residenceId, ...r } }, run, trace());
  }

  const ids = new Map<string, { userId: string; actor: Actor }>();
  for (const p of people) {
    const userId = randomUUID();
    const email = `${p.username}@example.org`;
    await service.users.register(
      {
        userId,
        role: p.role,
        superAdmin: p.superAdmin ?? false,
        emailNotificationsEnabled: true,
        assignedResidenceId: p.residence ? (residenceIds.get(p.residence) ?? null) : null,
        personal: { username: p.username, email, firstName: p.firstName, lastName: p.lastName, passwordHash },
      },
      run,
      trace(),
    );
    ids.set(p.username, {
      userId,
      actor: { kind: 'user', userId, role: p.role, superAdmin: p.superAdmin ?? false },
    });
  }
  const admin = ids.get('jamie.cole')!.actor;
  const staff = people.filter((p) => p.role === 'staff').map((p) => ids.get(p.username)!);
  await seedCredentialsAndTimeOff(service, ids, now);

  // The coming three weeks.
  let date = easternToday(now);
  let n = 0;
  for (let day = 0; day < 21; day++, date = nextDate(date)) {
    for (const [i, slot] of slots.entries()) {
      if ((day + i) % 4 === 3) continue;
      n += 1;
      const location = residences[(day + i) % residences.length]!.name;
      if (location === 'Day Program' && slot.type !== 'AM') continue;
      const shiftId = randomUUID();
      const priority: ShiftPriority = n % 11 === 0 ? 'emergency' : n % 5 === 0 ? 'urgent' : 'open';
      const posted = await attempt(
        service,
        post(shiftId, location, date, slot, priority, requirements[n % 5]!),
        run,
      );
      if (!posted) continue;
      const worker = staff[n % staff.length]!;
      const colleague = staff[(n + 1) % staff.length]!;
      const story = n % 7;
      if (story === 0 || story === 3) continue; // left open
      if (!(await attempt(service, { type: 'ClaimShift', data: { shiftId } }, { actor: worker.actor, now })))
        continue;
      if (story === 1) continue; // awaiting approval
      await attempt(service, { type: 'ApproveClaim', data: { shiftId } }, { actor: admin, now });
      if (story === 4 && day > 1) {
        await attempt(service, { type: 'RequestDrop', data: { shiftId } }, { actor: worker.actor, now });
      }
      if (story === 5 && day > 1) {
        await attempt(
          service,
          {
            type: 'RequestTransfer',
            data: {
              shiftId,
              transferId: `${shiftId}.${randomUUID().slice(0, 8)}`,
              toUserId: colleague.userId,
              recipientRole: 'staff',
              message: 'Could you take this one? Family commitment.',
            },
          },
          { actor: worker.actor, now },
        );
      }
    }
  }
  await seedRefusedClaim(service, ids, now);
  // After the refused claim, so that the first refusal on record is the lapsed credential's.
  await seedHistory(
    service,
    { admin, staff, system },
    residences.map((r) => r.name),
    now,
  );
  return people;
}

/** The organisation's credential list, what each person holds, and the time off staff asked for. */
async function seedCredentialsAndTimeOff(
  service: CommandService,
  ids: Map<string, { userId: string; actor: Actor }>,
  now: Date,
) {
  const system: Actor = { kind: 'system', name: 'demo-seed' };
  const today = easternToday(now);
  for (const name of credentialTypes) {
    await service.safety.credentialTypes(
      { type: 'AddCredentialType', data: { credentialTypeId: randomUUID(), name } },
      { actor: system, now },
      trace(),
    );
  }
  for (const c of credentials) {
    const expiresOn = c.expiresInDays === null ? null : dateAfter(today, c.expiresInDays);
    const data = { userId: ids.get(c.username)!.userId, credentialId: randomUUID(), name: c.name, expiresOn };
    await service.safety.schedule({ type: 'RecordCredential', data }, { actor: system, now }, trace());
  }
  for (const t of timeOff) {
    const { userId, actor } = ids.get(t.username)!;
    const startDate = dateAfter(today, t.fromDay);
    const data = {
      userId,
      timeOffId: randomUUID(),
      startDate,
      endDate: dateAfter(startDate, t.days - 1),
      note: t.note,
    };
    await service.safety.schedule({ type: 'RecordTimeOff', data }, { actor, now }, trace());
  }
}

/**
 * A medication round that needs a certified worker, and a claim on it by someone whose certificate
 * has lapsed: refused, and the refusal kept in the shift's history with the rule and the date.
 */
async function seedRefusedClaim(
  service: CommandService,
  ids: Map<string, { userId: string; actor: Actor }>,
  now: Date,
) {
  const system: Actor = { kind: 'system', name: 'demo-seed' };
  const shiftId = randomUUID();
  const date = dateAfter(easternToday(now), 4);
  const round: ShiftCommand = {
    type: 'PostShift',
    data: {
      shiftId,
      location: 'Maple House',
      date,
      startTime: '07:00',
      endTime: '11:00',
      type: 'AM',
      status: 'urgent',
      requirements: null,
      notes: 'Morning medication round',
      requiredCredentials: ['Medication administration'],
    },
  };
  if (!(await attempt(service, round, { actor: system, now }))) return;
  const accepted = await attempt(
    service,
    { type: 'ClaimShift', data: { shiftId } },
    { actor: ids.get('jordan.kim')!.actor, now },
  );
  if (accepted) throw new Error('The demo expects a lapsed credential to refuse a claim');
}
