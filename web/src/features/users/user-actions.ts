import {
  canAssignResidence,
  canDeleteUser,
  canEditUser,
  canResetPassword,
  type Principal,
  type TargetUser,
} from '@shiftcover/domain';
import type { ManagedUser } from '../../api/types';

export interface UserActions {
  edit: boolean;
  assignResidence: boolean;
  changePassword: boolean;
  delete: boolean;
}

export function targetOf(user: Pick<ManagedUser, 'id' | 'role' | 'superAdmin'>): TargetUser {
  return { userId: user.id, role: user.role, superAdmin: user.superAdmin };
}

/** The row actions docs/product.md §6 allows this viewer on this account. */
export function userActions(viewer: Principal, user: ManagedUser): UserActions {
  const target = targetOf(user);
  return {
    edit: canEditUser(viewer, target),
    assignResidence: canAssignResidence(viewer, target),
    changePassword: canResetPassword(viewer, target),
    delete: canDeleteUser(viewer, target),
  };
}
