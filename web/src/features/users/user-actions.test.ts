import type { Principal } from '@shiftcover/domain';
import { describe, expect, it } from 'vitest';
import type { ManagedUser } from '../../api/types';
import { userActions } from './user-actions';

const account = (id: string, role: ManagedUser['role'], superAdmin = false): ManagedUser => ({
  id,
  role,
  superAdmin,
  firstName: 'A',
  lastName: 'B',
  username: id,
  email: `${id}@example.org`,
  profileImageUrl: null,
  notificationEmail: null,
  emailNotificationsEnabled: true,
  assignedResidenceId: null,
  assignedResidenceName: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

const plainAdmin: Principal = { userId: 'jamie', role: 'admin', superAdmin: false };
const superAdmin: Principal = { userId: 'morgan', role: 'admin', superAdmin: true };
const developer: Principal = { userId: 'dana', role: 'developer', superAdmin: false };

describe('row actions on the User Management tab', () => {
  it('lets a plain admin edit and delete staff only, never reset passwords or assign residences', () => {
    expect(userActions(plainAdmin, account('alex', 'staff'))).toEqual({
      edit: true,
      assignResidence: false,
      changePassword: false,
      delete: true,
      credentials: true,
    });
    expect(userActions(plainAdmin, account('taylor', 'admin'))).toEqual({
      edit: false,
      assignResidence: false,
      changePassword: false,
      delete: false,
      credentials: false,
    });
  });

  it('lets a super admin manage admins but not developers or other super admins’ passwords', () => {
    expect(userActions(superAdmin, account('taylor', 'admin'))).toEqual({
      edit: true,
      assignResidence: true,
      changePassword: true,
      delete: true,
      credentials: false,
    });
    expect(userActions(superAdmin, account('dana', 'developer'))).toEqual({
      edit: false,
      assignResidence: false,
      changePassword: false,
      delete: false,
      credentials: false,
    });
    expect(userActions(superAdmin, account('other', 'admin', true)).changePassword).toBe(false);
  });

  it('never offers a password change or deletion of oneself', () => {
    const self = userActions(developer, account('dana', 'developer'));
    expect(self.changePassword).toBe(false);
    expect(self.delete).toBe(false);
    expect(self.edit).toBe(true);
  });

  it('offers credentials and time off on the people shifts are given to', () => {
    expect(userActions(plainAdmin, account('alex', 'staff')).credentials).toBe(true);
    expect(userActions(developer, account('jamie', 'admin')).credentials).toBe(false);
  });
});
