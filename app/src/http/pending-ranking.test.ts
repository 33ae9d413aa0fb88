import { easternInstant } from '@shiftcover/domain';
import { perFile } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer } from '../testing/http';

// Sunday Mar 1, 2026: the shifts below fall in the week it starts.
let clock = easternInstant('2026-03-01', '09:00');
const server = perFile(() => startTestServer({ clock: () => clock }));
type Person = Client & { userId: string };
let admin: Person;
let ann: Person;
let ben: Person;
let cal: Person;
let dee: Person;

async function postShift(
  date: string,
  startTime: string,
  endTime: string,
  extra: Record<string, unknown> = {},
) {
  const reply = await admin.post('/api/shifts', {
    location: 'Maple House',
    type: 'AM',
    date,
    startTime,
    endTime,
    ...extra,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
}

async function claim(person: Person, shiftId: string) {
  const reply = await person.post(`/api/shifts/${shiftId}/claim`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

type Pending = {
  id: string;
  assignedUserId: string;
  rank: number;
  slotClaims: number;
  rankReasons: string[];
};
const pending = async (query = '') =>
  (await admin.get(`/api/shifts/pending${query}`)).body as unknown as Pending[];

let twinA: string;
let twinB: string;
let alone: string;

beforeAll(async () => {
  admin = await server.signedIn('admin');
  ann = await server.signedIn('staff');
  ben = await server.signedIn('staff');
  cal = await server.signedIn('staff');
  dee = await server.signedIn('staff');
  expect((await admin.post('/api/credential-types', { name: 'CPR' })).status).toBe(201);
  for (const person of [ann, ben, cal])
    expect((await admin.post(`/api/users/${person.userId}/credentials`, { name: 'CPR' })).status).toBe(201);

  // Ann already works Tuesday evening: 8 h that week, and 8 h of rest before Wednesday morning.
  const tuesday = await postShift('2026-03-03', '15:00', '23:00');
  expect((await admin.post(`/api/shifts/${tuesday}/assign`, { staffId: ann.userId })).status).toBe(200);
  // Two openings for the same Wednesday morning at Maple House: one slot.
  twinA = await postShift('2026-03-04', '07:00', '15:00', { requiredCredentials: ['CPR'] });
  twinB = await postShift('2026-03-04', '07:00', '15:00', { requiredCredentials: ['CPR'] });
  alone = await postShift('2026-03-06', '07:00', '15:00');
  // Dee is off on Wednesday.
  expect(
    (await dee.post('/api/my-time-off', { startDate: '2026-03-04', endDate: '2026-03-04' })).status,
  ).toBe(201);

  await claim(ben, twinA);
  clock = easternInstant('2026-03-01', '11:00');
  await claim(ann, twinB);
  await claim(cal, alone);
});

describe('the ranked approval queue (docs/product.md §2.12)', () => {
  it('ranks the claims for one slot: fewer hours that week first, with the reasons', async () => {
    const items = await pending();
    const byShift = new Map(items.map((item) => [item.id, item]));
    expect(byShift.get(twinA)).toMatchObject({
      assignedUserId: ben.userId,
      rank: 1,
      slotClaims: 2,
      rankReasons: [
        'Holds every required credential',
        'No other hours that week',
        'Over 48 h rest before and after',
        'Claimed 2 h before the other',
      ],
    });
    expect(byShift.get(twinB)).toMatchObject({
      assignedUserId: ann.userId,
      rank: 2,
      slotClaims: 2,
      rankReasons: [
        'Holds every required credential',
        '8 h already that week',
        '8 h rest before, over 48 h after',
        'Claimed 2 h after the first claim',
      ],
    });
    expect(byShift.get(alone)).toMatchObject({
      rank: 1,
      slotClaims: 1,
      rankReasons: [
        'No credential required',
        'No other hours that week',
        'Over 48 h rest before and after',
        'The only claim for this slot',
      ],
    });
  });

  it('ranks a slot over all its claims, whichever page each is on', async () => {
    const first = await admin.get('/api/shifts/pending?limit=1');
    expect(first.headers.get('link')).toContain('cursor=');
    const [item] = first.body as unknown as Pending[];
    const whole = (await pending()).find((p) => p.id === item?.id);
    expect(item).toEqual(whole);
  });

  it('lists the staff free to be assigned instead, ranked, leaving out the busy, the absent and the claimant', async () => {
    const reply = await admin.get(`/api/shifts/${twinA}/alternatives`);
    expect(reply.status).toBe(200);
    // Ann holds the slot's other opening and Dee is off that day; Ben is the claimant.
    expect(reply.body).toEqual([
      {
        userId: cal.userId,
        firstName: 'Test',
        lastName: 'staff',
        username: expect.any(String),
        rank: 1,
        reasons: [
          'Holds every required credential',
          '8 h already that week',
          'Over 48 h rest before, 40 h after',
        ],
      },
    ]);
  });

  it('refuses staff, unknown shifts and ids it cannot read, without a 500', async () => {
    expect(await ben.get(`/api/shifts/${twinA}/alternatives`)).toMatchObject({
      status: 403,
      body: { message: 'Only admins can assign shifts' },
    });
    expect(await admin.get('/api/shifts/00000000-0000-4000-8000-000000000000/alternatives')).toMatchObject({
      status: 404,
      body: { message: 'Shift not found' },
    });
    expect(await admin.get('/api/shifts/a%01b/alternatives')).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('characters that are not allowed') },
    });
  });

  it('assigning an alternative ends the claim, and the slot ranks what is left', async () => {
    expect((await admin.post(`/api/shifts/${twinA}/assign`, { staffId: cal.userId })).status).toBe(200);
    const items = await pending();
    expect(items.map((item) => item.id).sort()).toEqual([twinB, alone].sort());
    expect(items.find((item) => item.id === twinB)).toMatchObject({
      rank: 1,
      slotClaims: 1,
      rankReasons: expect.arrayContaining(['The only claim for this slot']),
    });
  });
});
