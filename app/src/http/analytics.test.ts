import { type CoverageView, dateAfter, easternToday } from '@shiftcover/domain';
import { projections, rebuild } from '@shiftcover/projections';
import { perFile } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, seedDemo } from '../demo';
import { Client, startTestServer } from '../testing/http';

const now = new Date();
const server = perFile(() => startTestServer({ clock: () => now }));
const today = easternToday(now);
const range = `from=${dateAfter(today, -35)}&to=${dateAfter(today, 21)}`;
const path = `/api/analytics/coverage?${range}`;
let superAdmin: Client;
let plainAdmin: Client;
let staff: Client;

/** A demo person signed in; reads wait until the read models hold the whole seed. */
async function demoUser(username: string, latest: { position: bigint }) {
  const client = new Client(server.baseUrl, latest);
  const login = await client.post('/api/auth/login', { username, password: DEMO_PASSWORD });
  expect(login.status).toBe(200);
  return client;
}

beforeAll(async () => {
  await seedDemo(server.runtime, now);
  const latest = { position: await server.runtime.store.headPosition() };
  superAdmin = await demoUser('morgan.lee', latest);
  plainAdmin = await demoUser('jamie.cole', latest);
  staff = await demoUser('alex.rivera', latest);
});

const coverage = async (who: Client, query = path) => {
  const reply = await who.get(query);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body as unknown as CoverageView;
};

describe('coverage analytics over HTTP', () => {
  it('gives a super admin every residence, week by week, from a month of demo history', async () => {
    const view = await coverage(superAdmin);
    expect(view.residences).toEqual(['Cedar Grove', 'Day Program', 'Maple House', 'Oak Lodge']);
    expect(new Set(view.weeks.map((w) => w.weekStart)).size).toBeGreaterThanOrEqual(5);
    for (const w of view.weeks) {
      expect(new Date(`${w.weekStart}T12:00:00Z`).getUTCDay()).toBe(1);
      expect(w.filled + w.unfilledAtStart).toBeLessThanOrEqual(w.posted);
      expect(w.fillRate).toBeGreaterThanOrEqual(0);
      expect(w.fillRate).toBeLessThanOrEqual(1);
      if (w.medianHoursToFill !== null) expect(w.medianHoursToFill).toBeLessThanOrEqual(w.p90HoursToFill!);
    }
    const sum = (figure: (w: CoverageView['weeks'][number]) => number) =>
      view.weeks.reduce((total, w) => total + figure(w), 0);
    expect(sum((w) => w.unfilledAtStart)).toBeGreaterThan(0);
    expect(sum((w) => w.lateDrops)).toBeGreaterThan(0);
    expect(sum((w) => w.filled)).toBeGreaterThan(sum((w) => w.unfilledAtStart));
    const names = new Set(view.weeks.flatMap((w) => w.hoursByStaff.map((h) => h.name)));
    expect(names).toContain('Alex Rivera');

    const oak = await coverage(superAdmin, `${path}&residence=Oak%20Lodge`);
    expect(oak.residences).toEqual(['Oak Lodge']);
    expect(oak.weeks).toEqual(view.weeks.filter((w) => w.residence === 'Oak Lodge'));
  });

  it('keeps a plain admin to the residence assigned to them, and staff out', async () => {
    const view = await coverage(plainAdmin);
    expect(view.residences).toEqual(['Maple House']);
    expect((await coverage(plainAdmin, `${path}&residence=Maple%20House`)).weeks).toEqual(view.weeks);
    const elsewhere = await plainAdmin.get(`${path}&residence=Oak%20Lodge`);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.message).toBe('Admins see the analytics of their own residence only');

    const refused = await staff.get(path);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only admins can view coverage analytics');
    expect((await staff.get(`/api/analytics/coverage.csv?${range}`)).status).toBe(403);
  });

  it('refuses a missing, malformed, reversed or too long range with a clear message', async () => {
    const refusals: Array<[string, string]> = [
      ['to=2026-03-01', 'from is required (YYYY-MM-DD)'],
      ['from=yesterday&to=2026-03-01', 'from must be a date written YYYY-MM-DD'],
      ['from=2026-02-30&to=2026-03-01', 'from is not a real date'],
      ['from=2026-03-02&to=2026-03-01', 'from must not be after to'],
      ['from=2025-01-01&to=2026-01-02', 'The range may cover at most 366 days'],
    ];
    for (const [query, message] of refusals) {
      const reply = await superAdmin.get(`/api/analytics/coverage?${query}`);
      expect([reply.status, reply.body.message], query).toEqual([400, message]);
    }
    expect(
      (await coverage(superAdmin, '/api/analytics/coverage?from=2024-01-01&to=2024-12-31')).weeks,
    ).toEqual([]);
  });

  it('writes the same figures as CSV, one row per residence and week', async () => {
    const view = await coverage(plainAdmin);
    const response = await fetch(`${server.baseUrl}/api/analytics/coverage.csv?${range}`, {
      headers: { cookie: plainAdmin.cookie },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toMatch(/attachment; filename="coverage-.+\.csv"/);
    const lines = (await response.text()).split('\r\n').filter(Boolean);
    expect(lines[0]).toMatch(/^Week starting \(Monday\),Residence,Shifts posted,Filled,Unfilled at start/);
    expect(lines).toHaveLength(view.weeks.length + 1);
    const first = view.weeks[0]!;
    expect(lines[1]).toMatch(new RegExp(`^${first.weekStart},Maple House,${first.posted},${first.filled},`));
  });

  it('gives the same figures after the read model is rebuilt from the log', async () => {
    const before = await coverage(superAdmin);
    const projection = projections.find((p) => p.name === 'coverage')!;
    const { sql, store, vault } = server.runtime;
    await rebuild({ sql, store, vault }, projection);
    expect(await coverage(superAdmin)).toEqual(before);
  });
});
