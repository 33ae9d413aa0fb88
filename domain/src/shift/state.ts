import { stepKey } from '../escalation/ladder';
import type { ShiftEvent } from './events';
import type { ShiftPriority, ShiftType } from './schemas';

/** docs/product.md §4 statuses, plus the two ends of a shift's life. */
export type ShiftStatus = 'open' | 'urgent' | 'emergency' | 'pending' | 'approved' | 'completed' | 'expired';

export interface ShiftTransfer {
  transferId: string;
  fromUserId: string;
  toUserId: string;
  status: 'pending' | 'accepted' | 'declined' | 'cancelled';
  message: string | null;
  requestedAt: string;
  respondedAt: string | null;
}

export interface ShiftState {
  exists: boolean;
  deleted: boolean;
  shiftId: string;
  location: string;
  date: string;
  startTime: string;
  endTime: string;
  type: ShiftType;
  requirements: string | null;
  notes: string | null;
  requiredCredentials: string[];
  /** The priority the admin set; the status returns to it whenever the shift is open again. */
  priority: ShiftPriority;
  status: ShiftStatus;
  assignedUserId: string | null;
  createdById: string | null;
  needsApproval: boolean;
  approved: boolean;
  dropRequested: boolean;
  dropRequestedAt: string | null;
  dropApproved: boolean;
  transfers: ShiftTransfer[];
  hoursWorked: number | null;
  /** A shift of the e-mail bulk test: never listed, mailed only to the developer who ran it. */
  testData: boolean;
  /** Holders already reminded before the start: each is reminded once. */
  remindedUserIds: string[];
  /** How many times the shift became open (posted, then open again): the escalation ladder's run. */
  opening: number;
  /** When it last became open. */
  openedAt: string | null;
  /** The escalation steps already run in this opening, by key: each runs once. */
  escalatedSteps: string[];
  createdAt: string | null;
  updatedAt: string | null;
}

export function initialShiftState(): ShiftState {
  return {
    exists: false,
    deleted: false,
    shiftId: '',
    location: '',
    date: '',
    startTime: '',
    endTime: '',
    type: 'AM',
    requirements: null,
    notes: null,
    requiredCredentials: [],
    priority: 'open',
    status: 'open',
    assignedUserId: null,
    createdById: null,
    needsApproval: false,
    approved: false,
    dropRequested: false,
    dropRequestedAt: null,
    dropApproved: false,
    transfers: [],
    hoursWorked: null,
    testData: false,
    remindedUserIds: [],
    opening: 0,
    openedAt: null,
    escalatedSteps: [],
    createdAt: null,
    updatedAt: null,
  };
}

/** Back to claimable: nobody holds it, and its status is its priority again. */
function reopened(state: ShiftState): ShiftState {
  return {
    ...state,
    status: state.priority,
    assignedUserId: null,
    needsApproval: false,
    approved: false,
    dropRequested: false,
    dropRequestedAt: null,
  };
}

/** Open again: the escalation ladder starts over. */
function openAgain(state: ShiftState, at: string): ShiftState {
  return { ...reopened(state), opening: state.opening + 1, openedAt: at, escalatedSteps: [] };
}

function withTransfer(state: ShiftState, transferId: string, change: Partial<ShiftTransfer>): ShiftState {
  return {
    ...state,
    transfers: state.transfers.map((t) => (t.transferId === transferId ? { ...t, ...change } : t)),
  };
}

export function evolveShift(state: ShiftState, event: ShiftEvent): ShiftState {
  const touched = { ...state, updatedAt: event.data.at };
  switch (event.type) {
    case 'ShiftPosted': {
      const { at, createdById, priority, testData, ...facts } = event.data;
      return {
        ...initialShiftState(),
        ...facts,
        exists: true,
        testData: testData === true,
        priority,
        status: priority,
        createdById,
        opening: 1,
        openedAt: at,
        createdAt: at,
        updatedAt: at,
      };
    }
    case 'ShiftUpdated': {
      const { at: _at, priority, ...facts } = event.data;
      const status = touched.assignedUserId === null ? priority : touched.status;
      return { ...touched, ...facts, priority, status };
    }
    case 'ShiftDeleted':
      return { ...touched, deleted: true };
    case 'ShiftClaimed':
      return {
        ...touched,
        status: 'pending',
        assignedUserId: event.data.userId,
        needsApproval: true,
        approved: false,
        dropApproved: false,
      };
    case 'ClaimApproved':
      return { ...touched, status: 'approved', needsApproval: false, approved: true };
    case 'ClaimDenied':
      return openAgain(touched, event.data.at);
    case 'ShiftAssigned':
      return {
        ...reopened(touched),
        status: 'approved',
        assignedUserId: event.data.userId,
        approved: true,
        dropApproved: false,
      };
    case 'DropRequested':
      return { ...touched, dropRequested: true, dropRequestedAt: event.data.at, dropApproved: false };
    case 'DropApproved':
      return { ...openAgain(touched, event.data.at), dropApproved: true };
    case 'DropDenied':
      return { ...touched, dropRequested: false, dropRequestedAt: null };
    case 'TransferRequested':
      return {
        ...touched,
        transfers: [
          ...touched.transfers,
          {
            transferId: event.data.transferId,
            fromUserId: event.data.fromUserId,
            toUserId: event.data.toUserId,
            status: 'pending',
            message: event.data.message,
            requestedAt: event.data.at,
            respondedAt: null,
          },
        ],
      };
    case 'TransferAccepted':
      return {
        ...withTransfer(touched, event.data.transferId, { status: 'accepted', respondedAt: event.data.at }),
        assignedUserId: event.data.toUserId,
        dropRequested: false,
        dropRequestedAt: null,
      };
    case 'TransferDeclined':
      return withTransfer(touched, event.data.transferId, { status: 'declined', respondedAt: event.data.at });
    case 'TransferCancelled':
      return withTransfer(touched, event.data.transferId, {
        status: 'cancelled',
        respondedAt: event.data.at,
      });
    case 'ShiftMarkedUrgent': {
      const status = touched.assignedUserId === null ? event.data.priority : touched.status;
      return { ...touched, priority: event.data.priority, status };
    }
    case 'ShiftCompleted':
      return { ...touched, status: 'completed', hoursWorked: event.data.hoursWorked };
    case 'ShiftExpired':
      return { ...reopened(touched), status: 'expired' };
    case 'HolderRemoved':
      return openAgain(touched, event.data.at);
    case 'ShiftRefused':
      return state;
    case 'ShiftEscalated':
      return { ...state, escalatedSteps: [...state.escalatedSteps, stepKey(event.data.step)] };
    case 'HolderReminded':
      return { ...state, remindedUserIds: [...state.remindedUserIds, event.data.userId] };
  }
}

export function pendingTransfer(state: ShiftState): ShiftTransfer | undefined {
  return state.transfers.find((t) => t.status === 'pending');
}
