import type { EventData, Projection } from '../projection';

type Personal = {
  username?: string;
  email?: string | null;
  firstName?: string;
  lastName?: string;
  notificationEmail?: string | null;
  profileImageUrl?: string | null;
} | null;

/** Accounts, with their personal data as long as it exists; an erased person reads as "Deleted user". */
export const usersProjection: Projection = {
  name: 'users',
  awaitedByWriters: true,
  version: 1,
  tables: ['users'],
  schema: (t) => `
    create table ${t('users')} (
      id text primary key,
      username text,
      email text,
      first_name text not null,
      last_name text not null,
      profile_image_url text,
      notification_email text,
      role text not null,
      super_admin boolean not null,
      email_notifications_enabled boolean not null,
      assigned_residence_id text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index on ${t('users')} (lower(username));`,

  async apply(tx, event, t) {
    const d = event.data as EventData;
    const users = tx(t('users'));
    const personal = (d.personal ?? null) as Personal;
    const at = d.at as string;
    switch (event.type) {
      case 'UserRegistered':
        await tx`insert into ${users} (id, username, email, first_name, last_name, profile_image_url, notification_email,
            role, super_admin, email_notifications_enabled, assigned_residence_id, created_at, updated_at)
          values (${d.userId}, ${personal?.username ?? null}, ${personal?.email ?? null},
            ${personal?.firstName ?? 'Deleted'}, ${personal?.lastName ?? 'user'}, ${personal?.profileImageUrl ?? null},
            ${personal?.notificationEmail ?? personal?.email ?? null}, ${d.role}, ${d.superAdmin},
            ${d.emailNotificationsEnabled}, ${d.assignedResidenceId}, ${at}, ${at})`;
        return;
      case 'UserUpdated':
        await tx`update ${users} set role = ${d.role}, super_admin = ${d.superAdmin},
            email_notifications_enabled = ${d.emailNotificationsEnabled}, updated_at = ${at} where id = ${d.userId}`;
        if (personal) {
          await tx`update ${users} set username = ${personal.username ?? null}, email = ${personal.email ?? null},
              first_name = ${personal.firstName ?? ''}, last_name = ${personal.lastName ?? ''},
              notification_email = ${personal.notificationEmail ?? personal.email ?? null}
            where id = ${d.userId}`;
        }
        return;
      case 'ResidenceAssigned':
        await tx`update ${users} set assigned_residence_id = ${d.residenceId}, updated_at = ${at} where id = ${d.userId}`;
        return;
      case 'NotificationPreferenceChanged':
        await tx`update ${users} set email_notifications_enabled = ${d.enabled}, updated_at = ${at} where id = ${d.userId}`;
        return;
      case 'UserDeleted':
        await tx`delete from ${users} where id = ${d.userId}`;
        return;
    }
  },
};
