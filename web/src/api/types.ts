import type { Role } from '@shiftcover/domain';

/** The shapes the read API answers with (SPEC §3), shared by every feature. */

export interface CurrentUser {
  id: string;
  username: string | null;
  email: string | null;
  firstName: string;
  lastName: string;
  profileImageUrl: string | null;
  notificationEmail: string | null;
  role: Role;
  superAdmin: boolean;
  emailNotificationsEnabled: boolean;
  assignedResidenceId: string | null;
  createdAt: string;
  updatedAt: string;
}

export type ShiftType = 'AM' | 'PM' | 'Overnight';
export type Priority = 'open' | 'urgent' | 'emergency';
export type ShiftStatus = 'open' | 'urgent' | 'emergency' | 'pending' | 'claimed' | 'approved' | 'completed';

export interface Shift {
  id: string;
  location: string;
  date: string;
  startTime: string;
  endTime: string;
  type: ShiftType;
  requirements: string | null;
  notes: string | null;
  status: ShiftStatus;
  priority: Priority;
  assignedUserId: string | null;
  assignedUser: { id: string; firstName: string; lastName: string } | null;
  createdById: string | null;
  needsApproval: boolean;
  approved: boolean;
  dropRequested: boolean;
  dropRequestedAt: string | null;
  dropApproved: boolean;
  transferRequested: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Residence {
  id: string;
  name: string;
  description: string | null;
  address: string | null;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A colleague as staff see them (transfer recipients). */
export interface Colleague {
  id: string;
  firstName: string;
  lastName: string;
  username: string | null;
  role: Role;
}

/** A user as administrators see them. */
export interface ManagedUser extends Colleague {
  email: string | null;
  profileImageUrl: string | null;
  notificationEmail: string | null;
  superAdmin: boolean;
  emailNotificationsEnabled: boolean;
  assignedResidenceId: string | null;
  assignedResidenceName: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TransferRequest {
  id: string;
  shiftId: string;
  direction: 'incoming' | 'outgoing';
  status: 'pending' | 'accepted' | 'declined' | 'cancelled';
  message: string | null;
  requestedAt: string;
  respondedAt: string | null;
  shift: Pick<Shift, 'id' | 'location' | 'type' | 'date' | 'startTime' | 'endTime'>;
  fromUser: { firstName: string; lastName: string; username: string | null };
  toUser: { firstName: string; lastName: string };
}
