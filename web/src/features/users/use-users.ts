import type { WrittenUserView } from '@shiftcover/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../api/client';
import { keys, shiftViews } from '../../api/keys';
import { refresh } from '../../api/query-client';
import type { ManagedUser } from '../../api/types';
import { errorToast, toast } from '../toast/toast';

export interface UserFilters {
  role: 'all' | 'developer' | 'admin' | 'staff';
  sort: 'recency' | 'alphabetical';
  /** 'all', 'unassigned' or a residence id. */
  residence: string;
}

export const defaultUserFilters: UserFilters = { role: 'all', sort: 'recency', residence: 'all' };

export function useManagedUsers(filters: UserFilters) {
  const query = { role: filters.role, sort: filters.sort, residence: filters.residence };
  return useQuery({
    queryKey: keys.users(query),
    queryFn: () => api.get<ManagedUser[]>(withQuery('/api/users', query)),
  });
}

/** Every account, unfiltered: the total behind 'Showing X of Y users'. */
export function useAllUsers(enabled = true) {
  return useQuery({
    queryKey: keys.users(),
    queryFn: () => api.get<ManagedUser[]>('/api/users'),
    enabled,
  });
}

function success(title: string, description: string) {
  toast({ title, description, variant: 'success' });
}

export interface NewUser {
  username: string;
  email?: string;
  password: string;
  confirmPassword: string;
  firstName: string;
  lastName: string;
  role: ManagedUser['role'];
  superAdmin: boolean;
  emailNotificationsEnabled: boolean;
  notificationEmail?: string;
}

export function useCreateUser() {
  return useMutation({
    mutationFn: (user: NewUser) => api.post<WrittenUserView>('/api/users', user),
    onSuccess: async (_answer, user) => {
      success('User Created', `${user.firstName} ${user.lastName}'s account has been created.`);
      await refresh(['users']);
    },
    onError: (error) => errorToast(error, 'Failed to create user account'),
  });
}

export interface UserChanges {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  role?: ManagedUser['role'];
  superAdmin?: boolean;
  notificationEmail?: string;
  emailNotificationsEnabled?: boolean;
}

export function useUpdateUser(userId: string) {
  return useMutation({
    mutationFn: (changes: UserChanges) => api.put<WrittenUserView>(`/api/users/${userId}`, changes),
    onSuccess: async () => {
      success('User Updated', 'The account has been updated.');
      await refresh(['users']);
    },
    onError: (error) => errorToast(error, 'Failed to update user account'),
  });
}

export function useDeleteUser() {
  return useMutation({
    mutationFn: (user: ManagedUser) => api.delete(`/api/users/${user.id}`),
    onSuccess: async (_answer, user) => {
      success('User Deleted', `${user.firstName} ${user.lastName}'s account has been deleted.`);
      // Their shifts and requests change hands too.
      await refresh(['users', ...shiftViews]);
    },
    onError: (error) => errorToast(error, 'Failed to delete user account'),
  });
}

export function useAdminChangePassword(userId: string) {
  return useMutation({
    mutationFn: (newPassword: string) => api.put(`/api/users/${userId}/password`, { newPassword }),
    onSuccess: () => success('Password Changed', 'The new password is in effect.'),
    onError: (error) => errorToast(error, 'Failed to change password'),
  });
}

export function useAssignResidence(userId: string) {
  return useMutation({
    mutationFn: (residenceId: string) =>
      api.post<WrittenUserView>(`/api/users/${userId}/assign-residence`, { residenceId }),
    onSuccess: async () => {
      success('Residence Assigned', 'The admin now looks after this residence.');
      await refresh(['users']);
    },
    onError: (error) => errorToast(error, 'Failed to assign residence'),
  });
}
