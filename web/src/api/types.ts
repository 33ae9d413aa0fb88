import type {
  ColleagueView,
  CredentialTypeView,
  CredentialView,
  EligibilityView,
  ManagedUserView,
  ResidenceView,
  ShiftPriority,
  ShiftView,
  TimeOffView,
  TransferRequestView,
  UserView,
  WhatIfView,
  WorkingTimeRulesView,
} from '@shiftcover/domain';

/**
 * The shapes the read API answers with, shared by every feature: the server's view schemas in
 * `@shiftcover/domain`, as they arrive (moments as ISO strings).
 */

export type CurrentUser = UserView;
export type { ShiftType } from '@shiftcover/domain';
export type Priority = ShiftPriority;
export type ShiftStatus = ShiftView['status'];
export type Shift = ShiftView;
export type Residence = ResidenceView;
/** A colleague as staff see them (transfer recipients). */
export type Colleague = ColleagueView;
/** A user as administrators see them. */
export type ManagedUser = ManagedUserView;
export type TransferRequest = TransferRequestView;

/** The rules' shapes (docs/product.md §2.21): credentials, time off, working-time rules and the reasons. */
export type CredentialType = CredentialTypeView;
/** A credential a person holds; `expiresOn` is its last valid Eastern date, or null. */
export type Credential = CredentialView;
/** Days a person cannot work, both dates included. */
export type TimeOff = TimeOffView;
/** The rules as the form edits them and PUT takes them (the answer adds their version). */
export type WorkingTimeRules = Pick<
  WorkingTimeRulesView,
  'minRestHours' | 'maxHoursPerWeek' | 'maxConsecutiveDays'
>;
export type Eligibility = EligibilityView;
/** Why a person may not take a shift, with the code the refusing command answers with. */
export type IneligibilityReason = EligibilityView['reasons'][number];
/** A past period replayed under proposed working-time rules; nothing is written. */
export type WhatIfReport = WhatIfView;
