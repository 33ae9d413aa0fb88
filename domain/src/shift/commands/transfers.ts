import { isTransferRecipient } from '../../permissions/permissions';
import type { CommandContext } from '../../shared/decider';
import { reject } from '../../shared/errors';
import type { ShiftEvent } from '../events';
import { pendingTransfer, type ShiftState } from '../state';
import { requireUser, type ShiftCommandOf, timing } from './guards';

export function requestTransfer(
  command: ShiftCommandOf<'RequestTransfer'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  const userId = requireUser(context);
  const { shiftId, transferId, toUserId, recipientRole, message } = command.data;
  if (state.assignedUserId !== userId) reject('not_assignee', 'You can only transfer shifts assigned to you');
  if (!state.approved) reject('not_approved', 'Only approved shifts can be transferred');
  if (timing(state, context).started)
    reject('shift_started', 'This shift has already started and cannot be transferred');
  if (!isTransferRecipient(userId, { userId: toUserId, role: recipientRole, superAdmin: false })) {
    reject('invalid_recipient', 'Shifts can only be transferred to another staff member or admin');
  }
  if (pendingTransfer(state)) reject('transfer_pending', 'This shift already has a pending transfer request');
  if (state.transfers.some((t) => t.transferId === transferId))
    reject('already_exists', 'Transfer already exists');
  const at = context.now.toISOString();
  return [
    {
      type: 'TransferRequested',
      data: { shiftId, transferId, fromUserId: userId, toUserId, message: message ?? null, at },
    },
  ];
}

/** The signed-in person and the pending transfer the command answers, as its events' data. */
function answering(
  command: ShiftCommandOf<'AcceptTransfer' | 'DeclineTransfer' | 'CancelTransfer'>,
  state: ShiftState,
  context: CommandContext,
) {
  const userId = requireUser(context);
  const transfer = state.transfers.find((t) => t.transferId === command.data.transferId);
  if (!transfer) reject('not_found', 'Transfer request not found');
  if (transfer.status !== 'pending')
    reject('transfer_not_pending', 'This transfer request is no longer pending');
  const { transferId, fromUserId, toUserId } = transfer;
  const data = {
    shiftId: command.data.shiftId,
    transferId,
    fromUserId,
    toUserId,
    at: context.now.toISOString(),
  };
  return { userId, data };
}

export function cancelTransfer(
  command: ShiftCommandOf<'CancelTransfer'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  const { userId, data } = answering(command, state, context);
  if (userId !== data.fromUserId) reject('not_sender', 'Only the sender can cancel a transfer request');
  return [{ type: 'TransferCancelled', data }];
}

export function declineTransfer(
  command: ShiftCommandOf<'DeclineTransfer'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  const { userId, data } = answering(command, state, context);
  if (userId !== data.toUserId) reject('not_recipient', 'This transfer request was sent to someone else');
  return [{ type: 'TransferDeclined', data }];
}

export function acceptTransfer(
  command: ShiftCommandOf<'AcceptTransfer'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  const { userId, data } = answering(command, state, context);
  if (userId !== data.toUserId) reject('not_recipient', 'This transfer request was sent to someone else');
  if (timing(state, context).started)
    reject('shift_started', 'This shift has already started and cannot be transferred');
  return [{ type: 'TransferAccepted', data }];
}
