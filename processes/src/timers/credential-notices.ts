import { CREDENTIAL_NOTICE_DAYS, easternToday, noticeDue } from '@shiftcover/domain';
import { type ShiftTimerDeps, TIMERS } from './timer-deps';

/**
 * Tells the holder of every credential whose last day is 30 or 7 days away (docs/product.md
 * §10.1), each notice once: the command id names credential and notice, and the person's schedule
 * remembers the notices given. The e-mail and the in-app notice follow from the event.
 */
export async function noticeExpiringCredentials(deps: ShiftTimerDeps): Promise<string[]> {
  const now = deps.clock?.() ?? new Date();
  const today = easternToday(now);
  const expiring = await deps.sql<{ id: string; user_id: string; expires_on: string }[]>`
    select id, user_id, expires_on from rm_credentials
    where expires_on >= ${today} and expires_on::date <= ${today}::date + ${CREDENTIAL_NOTICE_DAYS[0]}::int`;
  const noticed: string[] = [];
  for (const credential of expiring) {
    const daysBefore = noticeDue(credential.expires_on, now);
    if (daysBefore === null) continue;
    const outcome = await deps.service.safety.schedule(
      {
        type: 'NoticeCredentialExpiry',
        data: { userId: credential.user_id, credentialId: credential.id, daysBefore },
      },
      { actor: TIMERS, now },
      { commandId: `NoticeCredentialExpiry:${credential.id}:${daysBefore}` },
    );
    if (!outcome.duplicate && outcome.events.length > 0) noticed.push(credential.id);
  }
  return noticed;
}
