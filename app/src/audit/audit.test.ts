import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { idInStream, streams } from '@shiftcover/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDemo } from '../demo';
import { startTestServer, type TestServer } from '../testing/http';
import { aShiftForm } from '../testing/shift-form';
import { asOf, exportEvents, history, verifyChains } from './commands';
import { parseMoment } from './eastern';

const run = promisify(execFile);

function collector() {
  let text = '';
  return {
    write: (chunk: string) => {
      text += chunk;
    },
    text: () => text,
  };
}

describe('auditor tools', () => {
  let server: TestServer;
  let shiftStream: string;
  let claimedAt: Date;
  let admin: Awaited<ReturnType<TestServer['signedIn']>>;
  let staff: Awaited<ReturnType<TestServer['signedIn']>>;

  beforeAll(async () => {
    server = await startTestServer();
    await seedDemo(server.runtime);
    admin = await server.signedIn('admin');
    staff = await server.signedIn('staff');
    const created = await admin.post('/api/shifts', aShiftForm({ date: '2099-03-08', status: 'open' }));
    const shiftId = String(created.body.id);
    shiftStream = streams.shift(shiftId);
    await new Promise((resolve) => setTimeout(resolve, 20));
    claimedAt = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await staff.post(`/api/shifts/${shiftId}/claim`)).status).toBe(200);
    expect((await admin.post(`/api/shifts/${shiftId}/approve`)).status).toBe(200);
    // The tools name actors from the users read model, which the projector fills a moment later.
    await vi.waitFor(
      async () => {
        const rows = await server.runtime.sql`select 1 from rm_users where id = ${staff.userId}`;
        if (rows.length === 0) throw new Error('the staff member is not in the users read model yet');
      },
      { timeout: 10_000, interval: 20 },
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  it('tells a stream’s history: Eastern time, actor and what changed', async () => {
    const out = collector();
    await history(server.runtime, shiftStream, out.write);
    const lines = out.text().split('\n');
    expect(lines[0]).toMatch(
      /^#0 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} E[SD]T {2}ShiftPosted {2}by Test admin \(.+\) as admin$/,
    );
    expect(out.text()).toMatch(/#1 .* {2}ShiftClaimed {2}by Test staff/);
    expect(out.text()).toMatch(/status: "open" → "pending"/);
    expect(out.text()).toMatch(/#2 .* {2}ClaimApproved/);
  });

  it('shows administrators a shift’s full history through the read API, staff what they did, and nobody else', async () => {
    const shiftId = idInStream(shiftStream, 'shift');
    const history = await admin.get(`/api/shifts/${shiftId}/history`);
    expect(history.status).toBe(200);
    const entries = history.body as unknown as { type: string; actorName: string; changes: string[] }[];
    expect(entries.map((e) => e.type)).toEqual(['ShiftPosted', 'ShiftClaimed', 'ClaimApproved']);
    expect(entries[1]).toMatchObject({
      actorName: 'Test staff',
      changes: expect.arrayContaining(['status: "open" → "pending"']),
    });
    const own = await staff.get(`/api/shifts/${shiftId}/history`);
    expect((own.body as unknown as { type: string }[]).map((e) => e.type)).toEqual(['ShiftClaimed']);
    const other = await server.signedIn('staff', { username: 'uninvolved.staff' });
    expect((await other.get(`/api/shifts/${shiftId}/history`)).status).toBe(403);
    expect((await admin.get('/api/shifts/no-such-shift/history')).status).toBe(404);
  });

  it('replays a stream to its state at a moment', async () => {
    const before = collector();
    await asOf(server.runtime, claimedAt.toISOString(), shiftStream, before.write);
    expect(before.text()).toMatch(/1 of 3 events applied/);
    expect(before.text()).toMatch(/"status": "open"/);
    const now = collector();
    await asOf(server.runtime, new Date(Date.now() + 60_000).toISOString(), shiftStream, now.write);
    expect(now.text()).toMatch(/3 of 3 events applied/);
    expect(now.text()).toMatch(/"status": "approved"/);
  });

  it('reads command-line times as Eastern wall-clock time, DST included', () => {
    expect(parseMoment('2026-07-01 09:00')?.toISOString()).toBe('2026-07-01T13:00:00.000Z');
    expect(parseMoment('2026-12-01')?.toISOString()).toBe('2026-12-01T05:00:00.000Z');
    expect(parseMoment('yesterday')).toBeUndefined();
  });

  it('exports the events of a day range as CSV and NDJSON without personal data', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
    const csv = collector();
    const count = await exportEvents(server.runtime, { from: today, to: today, format: 'csv' }, csv.write);
    const rows = csv.text().trim().split('\r\n');
    expect(rows[0]).toBe('position,recorded_at,stream,revision,type,actor_id,actor_role,data');
    expect(rows).toHaveLength(count + 1);
    expect(count).toBeGreaterThan(50);
    expect(csv.text()).not.toMatch(/alex\.rivera|example\.org/);
    expect(csv.text()).toMatch(/personal data withheld/);
    const ndjson = collector();
    await exportEvents(server.runtime, { from: today, to: today, format: 'ndjson' }, ndjson.write);
    const first = JSON.parse(ndjson.text().split('\n')[0]!);
    expect(first).toMatchObject({
      position: expect.any(String),
      stream: expect.any(String),
      type: expect.any(String),
    });
    const none = collector();
    expect(await exportEvents(server.runtime, { from: '2001-01-01', to: '2001-01-02' }, none.write)).toBe(0);
  });

  it('verifies every hash chain, and names the event someone altered in the database', async () => {
    const intact = collector();
    expect(await verifyChains(server.runtime, intact.write)).toBe(true);
    expect(intact.text()).toMatch(/Every stream’s hash chain is intact/);

    await server.runtime.sql`
      update events set data = jsonb_set(data, '{location}', '"Oak Lodge"')
      where stream_id = ${shiftStream} and revision = 0`;
    const broken = collector();
    expect(await verifyChains(server.runtime, broken.write)).toBe(false);
    expect(broken.text()).toContain(`BROKEN ${shiftStream} at revision 0`);

    // The CLI reports the same break with exit code 1.
    const cli = await run('npx', ['tsx', 'app/src/cli.ts', 'audit:verify'], {
      env: { ...process.env, DATABASE_URL: server.runtime.databaseUrl },
    }).catch((error: { code: number; stdout: string }) => error);
    expect('code' in cli ? cli.code : 0).toBe(1);
    expect(cli.stdout).toContain(`BROKEN ${shiftStream}`);
  });
});
