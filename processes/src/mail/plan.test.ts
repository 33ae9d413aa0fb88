import type { RecordedEvent } from '@shiftcover/eventstore';
import type { TransactionSql } from 'postgres';
import { describe, expect, it } from 'vitest';
import { mayMail, planMails } from './plan';
import type { MailPlannerDeps } from './planner-deps';

const event = (streamId: string, type: string, data: Record<string, unknown> = {}): RecordedEvent => ({
  id: '00000000-0000-4000-8000-000000000001',
  type,
  data: { shiftId: 's1', ...data },
  metadata: {
    commandId: 'c1',
    correlationId: 'c1',
    causationId: 'c1',
    actorId: 'u1',
    actorRole: 'staff',
    actorSuperAdmin: false,
    schemaVersion: 1,
  },
  streamId,
  revision: 0n,
  position: 1n,
  recordedAt: new Date('2026-11-25T12:00:00Z'),
});

/** A transaction and deps that fail the test if planning touches them at all. */
const untouchable = new Proxy(
  {},
  {
    get() {
      throw new Error('planning an event that cannot have mail touched the database');
    },
  },
);

describe('which events can have mail, told from the event alone', () => {
  const cases: [RecordedEvent, boolean][] = [
    [event('shift-s1', 'ShiftPosted', { priority: 'open' }), true],
    [event('shift-s1', 'ShiftPosted', { priority: 'urgent' }), true],
    [event('shift-s1', 'ShiftPosted', { priority: 'open', testData: true }), true],
    [event('shift-s1', 'ShiftClaimed'), true],
    [event('shift-s1', 'ShiftClaimed', { testData: true }), false],
    [event('shift-s1', 'ShiftPosted', { priority: 'open', escalated: true }), false],
    [event('shift-s1', 'ShiftEscalated'), true],
    [event('schedule-u1', 'TimeReserved'), false],
    [event('schedule-u1', 'ShiftClaimed'), false],
    [event('user-u1', 'CredentialExpiryNoticed'), true],
    [event('operation-o1', 'BulkShiftsPosted'), true],
  ];
  it.each(cases)('%#: %o', (recorded, expected) => {
    expect(mayMail(recorded)).toBe(expected);
  });

  it('plans nothing for an event that cannot have mail, without reading anything', async () => {
    for (const [recorded, expected] of cases) {
      if (expected) continue;
      await expect(
        planMails(untouchable as MailPlannerDeps, untouchable as TransactionSql, recorded),
      ).resolves.toBe(0);
    }
  });
});
