import { DomainError, type RejectionCode } from '@shiftcover/domain';
import { RetriesExhausted } from '../retries';
import type { ErrorMapping } from './errors';

const STATUS: Partial<Record<RejectionCode, number>> = {
  invalid: 400,
  wrong_password: 400,
  forbidden: 403,
  self_action: 403,
  not_assignee: 403,
  not_recipient: 403,
  not_sender: 403,
  not_found: 404,
  insufficient_notice: 422,
  shift_started: 422,
  invalid_recipient: 422,
  not_an_admin: 422,
  too_early_to_complete: 422,
  not_ended: 422,
  missing_credential: 422,
  unavailable: 422,
  rest_too_short: 422,
  weekly_hours_exceeded: 422,
  too_many_consecutive_days: 422,
};

/** Domain rejections in the forms docs/product.md §8 reads: `{ message, code }`, conflicts with errorType. */
export const mapDomainError: ErrorMapping = (error) => {
  if (error instanceof RetriesExhausted) {
    return {
      statusCode: 503,
      body: { message: 'The system is busy with other changes to this item. Please try again.' },
    };
  }
  if (!(error instanceof DomainError)) return undefined;
  const body: Record<string, unknown> = { message: error.message, code: error.code };
  if (error.code === 'shift_conflict') body.errorType = 'shift_conflict';
  // A refusal that was recorded (a safety rule's, in the shift's history) names where, as a write
  // does, so the caller's next read waits for the record.
  const recorded = (error as { recordedPosition?: unknown }).recordedPosition;
  if (typeof recorded === 'bigint') {
    body.position = recorded.toString();
    return { statusCode: STATUS[error.code] ?? 409, body, headers: { 'x-position': recorded.toString() } };
  }
  return { statusCode: STATUS[error.code] ?? 409, body };
};
