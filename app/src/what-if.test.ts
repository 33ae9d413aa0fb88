import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { easternInstant } from '@shiftcover/domain';
import { perFile } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './testing/http';
import { WhatIfUsageError, whatIfCommand } from './what-if';

const run = promisify(execFile);
const clock = easternInstant('2026-03-01', '09:00');
const server = perFile(() => startTestServer({ clock: () => clock }));
const afterTheShifts = easternInstant('2026-03-20', '09:00');

function collector() {
  let text = '';
  return {
    write: (chunk: string) => {
      text += chunk;
    },
    text: () => text,
  };
}

beforeAll(async () => {
  const admin = await server.signedIn('admin');
  const staff = await server.signedIn('staff');
  // Tue 15:00–23:00, then Wed 07:00–15:00: 8 hours of rest, the least today's rules allow.
  for (const [date, startTime, endTime] of [
    ['2026-03-10', '15:00', '23:00'],
    ['2026-03-11', '07:00', '15:00'],
  ]) {
    const posted = await admin.post('/api/shifts', {
      location: 'Maple House',
      type: 'AM',
      date,
      startTime,
      endTime,
    });
    expect((await staff.post(`/api/shifts/${posted.body.id}/claim`)).status).toBe(200);
  }
});

describe('the what-if command (docs/product.md §10.5)', () => {
  it('finds nothing under the rules the history was built under, and writes nothing', async () => {
    const before = await server.runtime.store.headPosition();
    const out = collector();
    await whatIfCommand(server.runtime, [], out.write, afterTheShifts);
    expect(out.text()).toContain(
      'Rules: at least 8 h of rest, at most 60 h a week, at most 6 days in a row\n',
    );
    expect(out.text()).toContain('\n0 violations\n');
    expect(await server.runtime.store.headPosition()).toBe(before);
  });

  it('names who would have broken a stricter rule, on which shift, counted per rule and per person', async () => {
    const out = collector();
    await whatIfCommand(server.runtime, ['--min-rest-hours', '10'], out.write, afterTheShifts);
    expect(out.text()).toContain('1 violation\n');
    expect(out.text()).toMatch(/By rule:\n {2}rest_too_short +1\n/);
    expect(out.text()).toMatch(/By person:\n {2}Test staff \(.+\) {2}1\n/);
    expect(out.text()).toContain(
      'Wed, Mar 11, 2026, 7:00 AM – 3:00 PM, Maple House  Test staff  rest_too_short: They would have 8 h of rest',
    );
  });

  it('replays only the Eastern days asked for, and answers JSON on request', async () => {
    const out = collector();
    await whatIfCommand(
      server.runtime,
      ['--min-rest-hours', '10', '--from', '2026-03-01', '--to', '2026-03-10', '--json'],
      out.write,
    );
    expect(JSON.parse(out.text())).toMatchObject({ violations: [], byPerson: [] });
  });

  it('refuses rules and days that make no sense', async () => {
    const out = collector();
    await expect(whatIfCommand(server.runtime, ['--max-hours-per-week', '0'], out.write)).rejects.toThrow(
      new WhatIfUsageError('Weekly hours must be between 1 and 168'),
    );
    await expect(whatIfCommand(server.runtime, ['--from', '2026-02-30'], out.write)).rejects.toThrow(
      '--from must be a date, YYYY-MM-DD',
    );
    await expect(
      whatIfCommand(server.runtime, ['--from', '2026-03-10', '--to', '2026-03-01'], out.write),
    ).rejects.toThrow('--from must come before --to');
  });

  it('runs from the command line on the same store', async () => {
    const cli = await run(
      'npx',
      [
        'tsx',
        'app/src/cli.ts',
        'what-if',
        '--min-rest-hours',
        '10',
        '--from',
        '2026-03-01',
        '--to',
        '2026-03-31',
      ],
      { env: { ...process.env, DATABASE_URL: server.runtime.databaseUrl } },
    );
    expect(cli.stdout).toContain('1 violation\n');
  });
});
