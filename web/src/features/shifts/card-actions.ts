import { can, isClaimable, type Principal } from '@shiftcover/domain';
import type { Shift } from '../../api/types';

export interface CardActions {
  claim: boolean;
  requestTransfer: boolean;
  cancelTransfer: boolean;
  assign: boolean;
  edit: boolean;
  delete: boolean;
}

/** The buttons a shift card offers this user (docs/product.md §2 Shift card, §4 transfers, §6). */
export function cardActions(shift: Shift, principal: Principal): CardActions {
  const own = shift.assignedUserId === principal.userId;
  const live = shift.status !== 'completed';
  return {
    claim: isClaimable(shift),
    // Only approved shifts are handed on, one request at a time, and not while a drop is asked.
    requestTransfer: own && shift.approved && !shift.transferRequested && !shift.dropRequested,
    cancelTransfer: own && shift.transferRequested,
    assign: live && can(principal, 'assignShift'),
    edit: live && can(principal, 'editShift'),
    delete: can(principal, 'deleteShift'),
  };
}
