import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { parkedEventCounts } from '@shiftcover/projections';
import { appendUnapplicableUser, perFile } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectionStatus } from '../projection-commands';
import { type Client, startTestServer } from '../testing/http';

const run = promisify(execFile);
const server = perFile(startTestServer);
let developer: Client & { userId: string };

beforeAll(async () => {
  developer = await server.signedIn('developer');
});

const descriptions = async () => {
  const audit = await developer.get('/api/audit-logs?action=system_enhancement');
  return (audit.body.logs as Array<{ description: string }>).map((l) => l.description);
};

describe('an event the users read model cannot apply, in the running server', () => {
  it('is parked: later writes are read back, developers see it and skip it, and both decisions are audited', async () => {
    const poison = await appendUnapplicableUser(server.runtime, 'pasted-name');
    const created = await developer.post('/api/users', {
      username: 'after-poison',
      password: 'secret1',
      confirmPassword: 'secret1',
      firstName: 'Alex',
      lastName: 'Rivera',
      email: 'after-poison@example.org',
      role: 'staff',
    });
    expect(created.status).toBe(201);

    // The read waits for the write's position: the users read model went on past the parked event.
    const users = await developer.get('/api/users');
    expect(users.status).toBe(200);
    const ids = (users.body as unknown as Array<{ id: string }>).map((u) => u.id);
    expect(ids).toContain(created.body.id);
    expect(ids).not.toContain(poison.userId);

    const parked = await developer.get('/api/parked-events');
    expect(parked.body).toEqual([
      expect.objectContaining({
        id: `users:${poison.eventId}`,
        consumer: 'users',
        eventType: 'UserRegistered',
        position: poison.position.toString(),
        error: expect.stringMatching(/0x00/),
      }),
    ]);
    expect(await parkedEventCounts(server.runtime.sql)).toEqual({ users: 1 });
    const status = await projectionStatus(server.runtime);
    expect(status).toContain('parked events: 1 (users 1)');
    expect(status).toContain(`users ${poison.eventId}  UserRegistered at ${poison.position}`);

    const retry = await developer.post(`/api/parked-events/users:${poison.eventId}/retry`);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({
      applied: false,
      message: expect.stringMatching(/^Still cannot apply/),
    });

    const id = `users:${poison.eventId}`;
    for (const [body, message] of [
      [{}, 'Give a reason for skipping the event'],
      [{ reason: '  ' }, 'Give a reason for skipping the event'],
      [{ reason: 'a\u0000b' }, 'Reason contains characters that are not allowed'],
    ] as const) {
      const refused = await developer.post(`/api/parked-events/${id}/skip`, body);
      expect([refused.status, refused.body.message]).toEqual([400, message]);
    }
    const skip = await developer.post(`/api/parked-events/${id}/skip`, { reason: 'pasted name' });
    expect([skip.status, skip.body.message]).toEqual([200, 'Skipped UserRegistered for users']);
    expect((await developer.get('/api/parked-events')).body).toEqual([]);
    expect((await developer.post(`/api/parked-events/${id}/skip`, { reason: 'again' })).status).toBe(404);
    expect((await developer.post(`/api/parked-events/nobody:${poison.eventId}/retry`)).status).toBe(404);

    expect(await descriptions()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Retried the parked UserRegistered for users: still failing \(.*0x00/),
        'Skipped the parked UserRegistered for users: pasted name',
      ]),
    );
    const staff = await server.signedIn('staff');
    expect((await staff.get('/api/parked-events')).status).toBe(403);
  });

  it('is retried and skipped from the command line, as the system:cli actor', async () => {
    const poison = await appendUnapplicableUser(server.runtime, 'cli-name');
    const { runtime } = server;
    await expect.poll(() => parkedEventCounts(runtime.sql), { timeout: 10_000 }).toEqual({ users: 1 });
    const cli = (...args: string[]) =>
      run('npx', ['tsx', 'app/src/cli.ts', ...args], {
        env: { ...process.env, DATABASE_URL: runtime.databaseUrl },
      }).then(
        ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );

    const retry = await cli('projections:retry', 'users', poison.eventId);
    expect([retry.code, retry.stdout]).toEqual([
      1,
      expect.stringMatching(/^Still cannot apply UserRegistered/),
    ]);
    const unreasoned = await cli('projections:skip', 'users', poison.eventId);
    expect([unreasoned.code, unreasoned.stderr]).toEqual([2, expect.stringContaining('Give a reason')]);
    const skip = await cli('projections:skip', 'users', poison.eventId, '--reason', 'created again by hand');
    expect([skip.code, skip.stdout.trim()]).toEqual([
      0,
      `Skipped UserRegistered at ${poison.position} for users: created again by hand`,
    ]);
    expect(await parkedEventCounts(runtime.sql)).toEqual({});
    const recorded = await runtime.sql<{ type: string; actor: string }[]>`
      select type, metadata->>'actorId' as actor from events
      where type in ('ParkedEventRetried', 'ParkedEventSkipped') and data->>'eventId' = ${poison.eventId}
      order by position`;
    expect(recorded).toEqual([
      { type: 'ParkedEventRetried', actor: 'system:cli' },
      { type: 'ParkedEventSkipped', actor: 'system:cli' },
    ]);
  }, 60_000);
});
