import { z } from 'zod';
import {
  actorCan,
  canAssignResidence,
  canChangeRole,
  canCreateUser,
  canDeleteUser,
  canEditUser,
  canResetPassword,
  type Principal,
  principalOf,
  type TargetUser,
} from '../permissions/permissions';
import { type Actor, actorIdOf, type CommandContext, type Decider, type Role } from '../shared/decider';
import { reject } from '../shared/errors';

/** Everything that identifies a person. It only ever travels inside `personal`, sealed at rest. */
export const personalSchema = z.object({
  username: z.string().trim().min(3),
  email: z
    .string()
    .nullish()
    .transform((v) => v || null),
  firstName: z.string().trim().min(1),
  lastName: z.string().trim().min(1),
  notificationEmail: z
    .string()
    .nullish()
    .transform((v) => v || null),
  profileImageUrl: z
    .string()
    .nullish()
    .transform((v) => v || null),
});
export type PersonalData = z.infer<typeof personalSchema>;

export interface RegisterUserData {
  userId: string;
  role: Role;
  superAdmin: boolean;
  emailNotificationsEnabled: boolean;
  assignedResidenceId?: string | null;
  personal: z.input<typeof personalSchema> & { passwordHash: string };
}

export interface UpdateUserData {
  userId: string;
  role?: Role;
  superAdmin?: boolean;
  emailNotificationsEnabled?: boolean;
  personal: Omit<z.input<typeof personalSchema>, 'profileImageUrl'>;
}

export type UserCommand =
  | { type: 'RegisterUser'; data: RegisterUserData }
  | { type: 'UpdateUser'; data: UpdateUserData }
  | {
      type: 'ChangeOwnPassword';
      data: { userId: string; currentPasswordMatches: boolean; newPasswordHash: string };
    }
  | { type: 'ResetPassword'; data: { userId: string; newPasswordHash: string } }
  | { type: 'UpgradePasswordHash'; data: { userId: string; newPasswordHash: string } }
  | { type: 'AssignResidence'; data: { userId: string; residenceId: string | null } }
  | { type: 'DeleteUser'; data: { userId: string } }
  | { type: 'SetNotificationPreference'; data: { userId: string; enabled: boolean } }
  | { type: 'RecordSignIn'; data: { userId: string } }
  | { type: 'RecordSignOut'; data: { userId: string } };

type Sealed<T> = T | null;
type On<T extends string, D> = { type: T; data: D & { userId: string; at: string } };

export type UserEvent =
  | On<
      'UserRegistered',
      {
        role: Role;
        superAdmin: boolean;
        emailNotificationsEnabled: boolean;
        assignedResidenceId: string | null;
        personal: Sealed<PersonalData & { passwordHash: string }>;
      }
    >
  | On<
      'UserUpdated',
      {
        role: Role;
        superAdmin: boolean;
        emailNotificationsEnabled: boolean;
        personal: Sealed<Omit<PersonalData, 'profileImageUrl'>>;
      }
    >
  | On<'PasswordChanged', { personal: Sealed<{ passwordHash: string }> }>
  | On<'PasswordReset', { byUserId: string; personal: Sealed<{ passwordHash: string }> }>
  /** The same password hashed again at today's cost, at a sign-in that proved it. */
  | On<'PasswordRehashed', { personal: Sealed<{ passwordHash: string }> }>
  | On<'ResidenceAssigned', { residenceId: string | null }>
  | On<'UserDeleted', Record<never, never>>
  | On<'NotificationPreferenceChanged', { enabled: boolean }>
  | On<'UserSignedIn', Record<never, never>>
  | On<'UserSignedOut', Record<never, never>>;

export interface UserState {
  status: 'none' | 'active' | 'deleted';
  userId: string;
  role: Role;
  superAdmin: boolean;
  emailNotificationsEnabled: boolean;
  assignedResidenceId: string | null;
  /** Null once the person's data has been erased. */
  personal: (PersonalData & { passwordHash: string }) | null;
  erased: boolean;
  createdAt: string | null;
  updatedAt: string | null;
}

export function initialUserState(): UserState {
  return {
    status: 'none',
    userId: '',
    role: 'staff',
    superAdmin: false,
    emailNotificationsEnabled: true,
    assignedResidenceId: null,
    personal: null,
    erased: false,
    createdAt: null,
    updatedAt: null,
  };
}

function target(state: UserState): TargetUser {
  return { userId: state.userId, role: state.role, superAdmin: state.superAdmin };
}

function principal(context: CommandContext): Principal | 'system' {
  return principalOf(context.actor);
}

function isSelf(context: CommandContext, userId: string): boolean {
  return context.actor.kind === 'user' && context.actor.userId === userId;
}

function allowed(context: CommandContext, rule: (p: Principal) => boolean): boolean {
  const p = principal(context);
  return p === 'system' || rule(p);
}

const forbidden = (message: string): never => reject('forbidden', message);

/**
 * Refuses creating this account when the actor may not. The decider asks it, and the API asks it
 * before hashing the password, so a refused request costs no hashing.
 */
export function checkMayCreateUser(actor: Actor, account: { role: Role; superAdmin: boolean }): void {
  const { role } = account;
  const superAdmin = role === 'admin' && account.superAdmin;
  const p = principalOf(actor);
  if (p !== 'system' && !canCreateUser(p, { role, superAdmin })) {
    forbidden(
      `You don't have permission to create ${role === 'admin' && superAdmin ? 'super admin' : role} accounts`,
    );
  }
}

/** Refuses resetting this user's password when the actor may not; asked before any hashing too. */
export function checkMayResetPassword(actor: Actor, state: UserState): void {
  if (actor.kind === 'user' && actor.userId === state.userId) {
    reject('self_action', 'Use Change Password to change your own password');
  }
  const p = principalOf(actor);
  if (p !== 'system' && !canResetPassword(p, target(state))) {
    forbidden("You don't have permission to change this user's password");
  }
}

export function decideUser(command: UserCommand, state: UserState, context: CommandContext): UserEvent[] {
  const at = context.now.toISOString();
  const userId = command.data.userId;

  if (command.type === 'RegisterUser') {
    if (state.status !== 'none') reject('already_exists', 'User already exists');
    const { role, emailNotificationsEnabled } = command.data;
    const superAdmin = role === 'admin' && command.data.superAdmin;
    checkMayCreateUser(context.actor, { role, superAdmin });
    const parsed = personalSchema.safeParse(command.data.personal);
    if (!parsed.success) reject('invalid', parsed.error.issues[0]?.message ?? 'Invalid user');
    const personal = {
      ...parsed.data,
      notificationEmail: parsed.data.notificationEmail ?? parsed.data.email,
      passwordHash: command.data.personal.passwordHash,
    };
    return [
      {
        type: 'UserRegistered',
        data: {
          userId,
          role,
          superAdmin,
          emailNotificationsEnabled,
          assignedResidenceId: role === 'admin' ? (command.data.assignedResidenceId ?? null) : null,
          personal,
          at,
        },
      },
    ];
  }

  if (state.status !== 'active') reject('not_found', 'User not found');

  switch (command.type) {
    case 'UpdateUser': {
      const self = isSelf(context, userId);
      if (!self && !allowed(context, (p) => canEditUser(p, target(state)))) {
        forbidden("You don't have permission to edit this user");
      }
      const role = command.data.role ?? state.role;
      const superAdmin = role === 'admin' && (command.data.superAdmin ?? state.superAdmin);
      if (!allowed(context, (p) => canChangeRole(p, target(state), { role, superAdmin }))) {
        forbidden("You don't have permission to change this user's role");
      }
      const emailNotificationsEnabled =
        command.data.emailNotificationsEnabled ?? state.emailNotificationsEnabled;
      if (
        emailNotificationsEnabled !== state.emailNotificationsEnabled &&
        !allowed(context, (p) => p.role === 'developer')
      ) {
        forbidden('Only developers can change e-mail notification settings of other users');
      }
      const parsed = personalSchema.omit({ profileImageUrl: true }).safeParse(command.data.personal);
      if (!parsed.success) reject('invalid', parsed.error.issues[0]?.message ?? 'Invalid user');
      return [
        {
          type: 'UserUpdated',
          data: { userId, role, superAdmin, emailNotificationsEnabled, personal: parsed.data, at },
        },
      ];
    }
    case 'ChangeOwnPassword':
      if (!isSelf(context, userId)) forbidden('You can only change your own password here');
      if (!command.data.currentPasswordMatches) reject('wrong_password', 'Current password is incorrect');
      return [
        {
          type: 'PasswordChanged',
          data: { userId, personal: { passwordHash: command.data.newPasswordHash }, at },
        },
      ];
    case 'ResetPassword': {
      checkMayResetPassword(context.actor, state);
      const byUserId = actorIdOf(context.actor);
      return [
        {
          type: 'PasswordReset',
          data: { userId, byUserId, personal: { passwordHash: command.data.newPasswordHash }, at },
        },
      ];
    }
    case 'UpgradePasswordHash':
      if (!isSelf(context, userId))
        forbidden('Only the account holder signing in upgrades their password hash');
      return [
        {
          type: 'PasswordRehashed',
          data: { userId, personal: { passwordHash: command.data.newPasswordHash }, at },
        },
      ];
    case 'AssignResidence':
      if (state.role !== 'admin') reject('not_an_admin', 'Residences can only be assigned to admin users');
      if (!allowed(context, (p) => canAssignResidence(p, target(state)))) {
        forbidden('Only super admins and developers can assign residences');
      }
      if (command.data.residenceId === state.assignedResidenceId) return [];
      return [{ type: 'ResidenceAssigned', data: { userId, residenceId: command.data.residenceId, at } }];
    case 'DeleteUser':
      if (isSelf(context, userId)) reject('self_action', 'You cannot delete your own account');
      if (!allowed(context, (p) => canDeleteUser(p, target(state)))) {
        forbidden("You don't have permission to delete this user");
      }
      return [{ type: 'UserDeleted', data: { userId, at } }];
    case 'SetNotificationPreference':
      if (!isSelf(context, userId) && !allowed(context, (p) => canEditUser(p, target(state)))) {
        forbidden("You don't have permission to edit this user");
      }
      if (command.data.enabled === state.emailNotificationsEnabled) return [];
      return [{ type: 'NotificationPreferenceChanged', data: { userId, enabled: command.data.enabled, at } }];
    case 'RecordSignIn':
    case 'RecordSignOut':
      if (!isSelf(context, userId) && !actorCan(context.actor, 'developerTools'))
        forbidden('Not your session');
      return [
        { type: command.type === 'RecordSignIn' ? 'UserSignedIn' : 'UserSignedOut', data: { userId, at } },
      ];
  }
}

export function evolveUser(state: UserState, event: UserEvent): UserState {
  const touched = { ...state, updatedAt: event.data.at };
  switch (event.type) {
    case 'UserRegistered': {
      const { personal, at, ...rest } = event.data;
      return {
        ...initialUserState(),
        ...rest,
        status: 'active',
        personal,
        erased: personal === null,
        createdAt: at,
        updatedAt: at,
      };
    }
    case 'UserUpdated': {
      const { personal, at: _at, userId: _id, ...rest } = event.data;
      if (personal === null || touched.personal === null)
        return { ...touched, ...rest, personal: null, erased: true };
      return { ...touched, ...rest, personal: { ...touched.personal, ...personal } };
    }
    case 'PasswordChanged':
    case 'PasswordReset':
    case 'PasswordRehashed': {
      const { personal } = event.data;
      if (personal === null || touched.personal === null) return { ...touched, personal: null, erased: true };
      return { ...touched, personal: { ...touched.personal, passwordHash: personal.passwordHash } };
    }
    case 'ResidenceAssigned':
      return { ...touched, assignedResidenceId: event.data.residenceId };
    case 'UserDeleted':
      return { ...touched, status: 'deleted' };
    case 'NotificationPreferenceChanged':
      return { ...touched, emailNotificationsEnabled: event.data.enabled };
    case 'UserSignedIn':
    case 'UserSignedOut':
      return state;
  }
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  decide: decideUser,
  evolve: evolveUser,
  initialState: initialUserState,
};
