import {
  can,
  canAssignResidence,
  canDeleteUser,
  canEditUser,
  canResetPassword,
  isAssignable,
  type Principal,
  type TargetUser,
} from '@shiftcover/domain';
import type { ManagedUser } from '../../api/types';

export interface UserActions {
  edit: boolean;
  assignResidence: boolean;
  changePassword: boolean;
  delete: boolean;
  /** Credentials and time off matter for the people shifts are given to. */
  credentials: boolean;
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
    credentials: can(viewer, 'manageCredentials') && isAssignable(target),
  };
}
