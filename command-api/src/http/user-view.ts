import type { UserState, userViewSchema } from '@shiftcover/domain';
import type { z } from 'zod';

/** A user as the screens read it (docs/product.md §3 users), without the password hash. */
export function userView(user: UserState): z.output<typeof userViewSchema> {
  const personal = user.personal;
  return {
    id: user.userId,
    username: personal?.username ?? null,
    email: personal?.email ?? null,
    firstName: personal?.firstName ?? 'Deleted',
    lastName: personal?.lastName ?? 'user',
    profileImageUrl: personal?.profileImageUrl ?? null,
    notificationEmail: personal?.notificationEmail ?? null,
    role: user.role,
    superAdmin: user.superAdmin,
    emailNotificationsEnabled: user.emailNotificationsEnabled,
    assignedResidenceId: user.assignedResidenceId,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}
