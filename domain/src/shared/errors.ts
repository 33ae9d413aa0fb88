/**
 * Rejection codes. `not_found` and `forbidden` map to 404 and 403; `invalid` to 400 (a rule of
 * docs/product.md §5 that only the domain can check); the rest are conflicts with the current state.
 */
export type RejectionCode =
  | 'invalid'
  | 'not_found'
  | 'forbidden'
  | 'not_claimable'
  | 'not_pending'
  | 'shift_conflict'
  | 'insufficient_notice'
  | 'shift_started'
  | 'not_assignee'
  | 'not_approved'
  | 'drop_not_requested'
  | 'drop_already_requested'
  | 'transfer_pending'
  | 'transfer_not_pending'
  | 'invalid_recipient'
  | 'not_recipient'
  | 'not_sender'
  | 'already_completed'
  | 'not_ended'
  | 'too_early_to_complete'
  | 'already_deleted'
  | 'already_exists'
  | 'username_taken'
  | 'email_taken'
  | 'residence_name_taken'
  | 'wrong_password'
  | 'not_an_admin'
  | 'self_action'
  // The safety rules of docs/product.md §10: a person may not take a shift that breaks one.
  | 'missing_credential'
  | 'unavailable'
  | 'rest_too_short'
  | 'weekly_hours_exceeded'
  | 'too_many_consecutive_days'
  | 'credential_in_use';

export class DomainError extends Error {
  readonly code: RejectionCode;

  constructor(code: RejectionCode, message: string) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
  }
}

export function reject(code: RejectionCode, message: string): never {
  throw new DomainError(code, message);
}
