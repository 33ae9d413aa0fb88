import { describe, expect, it } from 'vitest';
import type { Actor } from '../shared/decider';
import {
  adminActor,
  developerActor,
  given,
  staffActor,
  superAdminActor,
  systemActor,
} from '../testing/specification';
import { now, personalOf, registered, registration, STAMP } from '../testing/user-fixtures';
import { type UserCommand, userDecider } from './user';

const as = (actor: Actor) => ({ actor, now });
const admin = as(adminActor('admin-1'));
const superAdmin = as(superAdminActor('super-1'));
const developer = as(developerActor('dev-1'));

describe('RegisterUser', () => {
  it('registers a staff member, the notification e-mail following the e-mail', () => {
    const data = registration('u1');
    const state = given(userDecider)
      .when(
        { type: 'RegisterUser', data: { ...data, personal: { ...data.personal, notificationEmail: null } } },
        admin,
      )
      .thenEmits([registered('u1')]);
    expect(state).toMatchObject({ status: 'active', role: 'staff', personal: { username: 'u1-login' } });
  });

  it('drops the Super Admin flag from anyone who is not an admin', () => {
    given(userDecider)
      .when({ type: 'RegisterUser', data: registration('u1', 'staff', true) }, developer)
      .thenEmits([registered('u1')]);
  });

  it('lets the operator CLI create any account', () => {
    given(userDecider)
      .when({ type: 'RegisterUser', data: registration('d1', 'developer') }, as(systemActor))
      .thenEmits([registered('d1', 'developer')]);
  });

  it.each([
    ['a plain admin creating an admin', adminActor(), 'admin', false],
    ['a super admin creating a developer', superAdminActor(), 'developer', false],
    ['a plain admin creating a super admin', adminActor(), 'admin', true],
    ['staff creating anyone', staffActor(), 'staff', false],
  ] as const)('refuses %s', (_, actor, role, superAdminFlag) => {
    given(userDecider)
      .when({ type: 'RegisterUser', data: registration('u1', role, superAdminFlag) }, as(actor))
      .thenRejects('forbidden');
  });

  it('refuses an existing account', () => {
    given(userDecider, [registered('u1')])
      .when({ type: 'RegisterUser', data: registration('u1') }, admin)
      .thenRejects('already_exists');
  });
});

describe('UpdateUser', () => {
  const update = (
    userId: string,
    role?: 'staff' | 'admin' | 'developer',
    superAdminFlag?: boolean,
  ): UserCommand => ({
    type: 'UpdateUser',
    data: {
      userId,
      role,
      superAdmin: superAdminFlag,
      personal: {
        username: 'renamed',
        email: 'new@example.org',
        firstName: 'Avery',
        lastName: 'Lee',
        notificationEmail: 'new@example.org',
      },
    },
  });

  it('a plain admin edits a staff member', () => {
    const state = given(userDecider, [registered('u1')])
      .when(update('u1'), admin)
      .thenEmits([
        {
          type: 'UserUpdated',
          data: {
            userId: 'u1',
            role: 'staff',
            superAdmin: false,
            emailNotificationsEnabled: true,
            personal: {
              username: 'renamed',
              email: 'new@example.org',
              firstName: 'Avery',
              lastName: 'Lee',
              notificationEmail: 'new@example.org',
            },
            at: STAMP,
          },
        },
      ]);
    expect(state.personal).toMatchObject({ username: 'renamed', passwordHash: 'scrypt$hash' });
  });

  it('refuses a plain admin editing an admin, or changing a role', () => {
    given(userDecider, [registered('a2', 'admin')])
      .when(update('a2'), admin)
      .thenRejects('forbidden');
    given(userDecider, [registered('u1')])
      .when(update('u1', 'admin'), admin)
      .thenRejects('forbidden');
  });

  it('a super admin promotes staff to super admin but cannot touch a developer', () => {
    given(userDecider, [registered('u1')])
      .when(update('u1', 'admin', true), superAdmin)
      .thenEmits([
        expect.objectContaining({
          type: 'UserUpdated',
          data: expect.objectContaining({ role: 'admin', superAdmin: true }),
        }),
      ]);
    given(userDecider, [registered('d2', 'developer')])
      .when(update('d2'), superAdmin)
      .thenRejects('forbidden');
  });

  it('refuses edits to a deleted user', () => {
    given(userDecider, [registered('u1'), { type: 'UserDeleted', data: { userId: 'u1', at: STAMP } }])
      .when(update('u1'), developer)
      .thenRejects('not_found');
  });
});

describe('passwords', () => {
  it('a user changes their own password after giving the current one', () => {
    given(userDecider, [registered('u1')])
      .when(
        {
          type: 'ChangeOwnPassword',
          data: { userId: 'u1', currentPasswordMatches: true, newPasswordHash: 'scrypt$new' },
        },
        as(staffActor('u1')),
      )
      .thenEmits([
        {
          type: 'PasswordChanged',
          data: { userId: 'u1', personal: { passwordHash: 'scrypt$new' }, at: STAMP },
        },
      ]);
  });

  it('refuses a wrong current password, and changing someone else’s this way', () => {
    const change = (matches: boolean): UserCommand => ({
      type: 'ChangeOwnPassword',
      data: { userId: 'u1', currentPasswordMatches: matches, newPasswordHash: 'scrypt$new' },
    });
    given(userDecider, [registered('u1')])
      .when(change(false), as(staffActor('u1')))
      .thenRejects('wrong_password', 'Current password is incorrect');
    given(userDecider, [registered('u1')])
      .when(change(true), as(staffActor('u2')))
      .thenRejects('forbidden');
  });

  it('a sign-in stores the same password hashed at today’s cost; only the account holder does', () => {
    const upgrade: UserCommand = {
      type: 'UpgradePasswordHash',
      data: { userId: 'u1', newPasswordHash: 'scrypt$131072$stronger' },
    };
    const state = given(userDecider, [registered('u1')])
      .when(upgrade, as(staffActor('u1')))
      .thenEmits([
        {
          type: 'PasswordRehashed',
          data: { userId: 'u1', personal: { passwordHash: 'scrypt$131072$stronger' }, at: STAMP },
        },
      ]);
    expect(state.personal?.passwordHash).toBe('scrypt$131072$stronger');
    given(userDecider, [registered('u1')])
      .when(upgrade, developer)
      .thenRejects('forbidden');
  });

  const reset = (userId: string): UserCommand => ({
    type: 'ResetPassword',
    data: { userId, newPasswordHash: 'scrypt$reset' },
  });

  it('a super admin resets a staff member’s password', () => {
    given(userDecider, [registered('u1')])
      .when(reset('u1'), superAdmin)
      .thenEmits([
        {
          type: 'PasswordReset',
          data: { userId: 'u1', byUserId: 'super-1', personal: { passwordHash: 'scrypt$reset' }, at: STAMP },
        },
      ]);
  });

  it('refuses resetting one’s own, a plain admin resetting, a super admin resetting a developer', () => {
    given(userDecider, [registered('super-1', 'admin', true)])
      .when(reset('super-1'), superAdmin)
      .thenRejects('self_action');
    given(userDecider, [registered('u1')])
      .when(reset('u1'), admin)
      .thenRejects('forbidden');
    given(userDecider, [registered('d2', 'developer')])
      .when(reset('d2'), superAdmin)
      .thenRejects('forbidden');
  });
});

describe('AssignResidence, DeleteUser, preferences, sign-ins', () => {
  const assign = (userId: string): UserCommand => ({
    type: 'AssignResidence',
    data: { userId, residenceId: 'r1' },
  });

  it('assigns a residence to an admin user', () => {
    given(userDecider, [registered('a2', 'admin')])
      .when(assign('a2'), developer)
      .thenEmits([{ type: 'ResidenceAssigned', data: { userId: 'a2', residenceId: 'r1', at: STAMP } }]);
  });

  it('refuses residences for staff users, and plain admins assigning', () => {
    given(userDecider, [registered('u1')])
      .when(assign('u1'), developer)
      .thenRejects('not_an_admin');
    given(userDecider, [registered('a2', 'admin')])
      .when(assign('a2'), admin)
      .thenRejects('forbidden');
  });

  it('deletes within the rules, never oneself', () => {
    const del = (userId: string): UserCommand => ({ type: 'DeleteUser', data: { userId } });
    given(userDecider, [registered('u1')])
      .when(del('u1'), admin)
      .thenEmits([{ type: 'UserDeleted', data: { userId: 'u1', at: STAMP } }]);
    given(userDecider, [registered('a2', 'admin')])
      .when(del('a2'), admin)
      .thenRejects('forbidden');
    given(userDecider, [registered('dev-1', 'developer')])
      .when(del('dev-1'), developer)
      .thenRejects('self_action');
    given(userDecider, [registered('s2', 'admin', true)])
      .when(del('s2'), superAdmin)
      .thenRejects('forbidden');
  });

  it('a user turns their own e-mail notifications off', () => {
    given(userDecider, [registered('u1')])
      .when(
        { type: 'SetNotificationPreference', data: { userId: 'u1', enabled: false } },
        as(staffActor('u1')),
      )
      .thenEmits([
        { type: 'NotificationPreferenceChanged', data: { userId: 'u1', enabled: false, at: STAMP } },
      ]);
  });

  it('records sign-in and sign-out for the audit log', () => {
    given(userDecider, [registered('u1')])
      .when({ type: 'RecordSignIn', data: { userId: 'u1' } }, as(staffActor('u1')))
      .thenEmits([{ type: 'UserSignedIn', data: { userId: 'u1', at: STAMP } }]);
  });
});

describe('erasure', () => {
  it('a replay whose personal data was shredded shows the user as erased', () => {
    const shredded = registered('u1');
    if (shredded.type === 'UserRegistered') shredded.data.personal = null;
    const state = given(userDecider, [
      shredded,
      { type: 'PasswordChanged', data: { userId: 'u1', personal: null, at: STAMP } },
      { type: 'UserDeleted', data: { userId: 'u1', at: STAMP } },
    ]).state;
    expect(state).toMatchObject({ status: 'deleted', personal: null, erased: true });
    expect(JSON.stringify(state)).not.toContain(personalOf('u1').email);
  });
});
