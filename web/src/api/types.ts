import type {
  ColleagueView,
  ManagedUserView,
  ResidenceView,
  ShiftPriority,
  ShiftView,
  TransferRequestView,
  UserView,
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
