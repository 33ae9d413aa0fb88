import {
  answers,
  can,
  cleanText,
  type EmailNotificationMode,
  emailModeViewSchema,
  notificationsViewSchema,
  type Role,
  residenceViewSchema,
  type ShiftTransfer,
  type ShiftType,
  transferRequestViewSchema,
  unreadCountViewSchema,
  userListViewSchema,
} from '@shiftcover/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readMarks } from './consistency';
import { type ReadApiDeps, reader, readModels } from './context';
import { ResponseCache, sendCached } from './response-cache';
import { inOneSnapshot } from './snapshot';

interface UserRow {
  id: string;
  username: string | null;
  email: string | null;
  first_name: string;
  last_name: string;
  profile_image_url: string | null;
  notification_email: string | null;
  role: Role;
  super_admin: boolean;
  email_notifications_enabled: boolean;
  assigned_residence_id: string | null;
  residence_name: string | null;
  created_at: Date;
  updated_at: Date;
}

const userFilters = z.object({
  role: z.enum(['all', 'developer', 'admin', 'staff']).optional(),
  sort: z.enum(['recency', 'alphabetical']).optional(),
  // A residence id, or `all` or `unassigned`.
  residence: cleanText({ label: 'Residence', max: 100 }).optional(),
});

// Answered transfers grow with a person's history: the list keeps the latest of them.
const TRANSFER_HISTORY_SIZE = 100;

export const peopleReadRoutes: FastifyPluginAsyncZod<ReadApiDeps> = async (app, deps) => {
  const { sql } = deps;

  const usersSchema = {
    tags: ['users'],
    summary: 'List users',
    description:
      'Administrators read the user accounts, filtered by role and residence and sorted by most recent or by name. Anyone else reads their colleagues, staff and admins other than themselves, by name only, to pick a transfer recipient.',
    querystring: userFilters,
    response: answers(userListViewSchema),
  };
  app.get('/api/users', { schema: usersSchema }, async (request) => {
    const who = await reader(request, deps, readModels.users);
    const rows = await sql<UserRow[]>`
      select u.*, r.name as residence_name from rm_users u left join rm_residences r on r.id = u.assigned_residence_id`;
    if (!can(who, 'manageUsers')) {
      // Staff need colleagues only to pick a transfer recipient: staff and admins, names only.
      return rows
        .filter((u) => u.id !== who.userId && (u.role === 'staff' || u.role === 'admin'))
        .sort((a, b) => a.first_name.localeCompare(b.first_name) || a.last_name.localeCompare(b.last_name))
        .map((u) => ({
          id: u.id,
          firstName: u.first_name,
          lastName: u.last_name,
          username: u.username,
          role: u.role,
        }));
    }
    const { role, sort, residence } = request.query;
    return rows
      .filter((u) => !role || role === 'all' || u.role === role)
      .filter((u) => {
        if (!residence || residence === 'all') return true;
        if (residence === 'unassigned') return u.assigned_residence_id === null;
        return u.assigned_residence_id === residence;
      })
      .sort((a, b) =>
        sort === 'alphabetical'
          ? a.first_name.localeCompare(b.first_name) || a.last_name.localeCompare(b.last_name)
          : b.created_at.getTime() - a.created_at.getTime(),
      )
      .map((u) => ({
        id: u.id,
        username: u.username,
        email: u.email,
        firstName: u.first_name,
        lastName: u.last_name,
        profileImageUrl: u.profile_image_url,
        notificationEmail: u.notification_email,
        role: u.role,
        superAdmin: u.super_admin,
        emailNotificationsEnabled: u.email_notifications_enabled,
        assignedResidenceId: u.assigned_residence_id,
        assignedResidenceName: u.residence_name,
        createdAt: u.created_at,
        updatedAt: u.updated_at,
      }));
  });

  const residencesSchema = {
    tags: ['residences'],
    summary: 'List residences',
    description: 'Any signed-in user reads the residences, by name.',
    response: answers(z.array(residenceViewSchema)),
  };
  app.get('/api/residences', { schema: residencesSchema }, async (request) => {
    await reader(request, deps, readModels.residences);
    const rows = await sql<
      {
        id: string;
        name: string;
        description: string | null;
        address: string | null;
        is_active: boolean;
        created_at: Date;
        updated_at: Date;
      }[]
    >`select * from rm_residences order by name`;
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      address: r.address,
      isActive: r.is_active,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    }));
  });

  const transfersSchema = {
    tags: ['transfers'],
    summary: 'Transfer requests',
    description:
      "The caller's transfers, the ones awaiting an answer first, then newest first: those offered to them and not cancelled (incoming) and those they offered (outgoing), each with its shift and sender; at most the 100 latest besides those awaiting an answer.",
    response: answers(z.array(transferRequestViewSchema)),
  };
  app.get('/api/transfer-requests', { schema: transfersSchema }, async (request) => {
    const who = await reader(request, deps, readModels.shifts);
    const rows = await sql<
      {
        id: string;
        shift_id: string;
        from_user_id: string;
        to_user_id: string;
        status: ShiftTransfer['status'];
        message: string | null;
        requested_at: Date;
        responded_at: Date | null;
        location: string;
        type: ShiftType;
        date: string;
        start_time: string;
        end_time: string;
        from_first: string | null;
        from_last: string | null;
        from_username: string | null;
        to_first: string | null;
        to_last: string | null;
      }[]
    >`
      select t.*, s.location, s.type, s.date, s.start_time, s.end_time,
        f.first_name as from_first, f.last_name as from_last, f.username as from_username,
        r.first_name as to_first, r.last_name as to_last
      from rm_transfer_requests t
      join rm_shifts s on s.id = t.shift_id
      left join rm_users f on f.id = t.from_user_id
      left join rm_users r on r.id = t.to_user_id
      where (t.to_user_id = ${who.userId} and t.status <> 'cancelled') or t.from_user_id = ${who.userId}
      order by t.status = 'pending' desc, t.requested_at desc
      limit (select count(*) from rm_transfer_requests p where p.status = 'pending'
        and (p.to_user_id = ${who.userId} or p.from_user_id = ${who.userId})) + ${TRANSFER_HISTORY_SIZE}`;
    return rows.map((t) => ({
      id: t.id,
      shiftId: t.shift_id,
      direction: t.to_user_id === who.userId ? ('incoming' as const) : ('outgoing' as const),
      status: t.status,
      message: t.message,
      requestedAt: t.requested_at,
      respondedAt: t.responded_at,
      shift: {
        id: t.shift_id,
        location: t.location,
        type: t.type,
        date: t.date,
        startTime: t.start_time,
        endTime: t.end_time,
      },
      fromUser: {
        firstName: t.from_first ?? 'Deleted',
        lastName: t.from_last ?? 'user',
        username: t.from_username,
      },
      toUser: { firstName: t.to_first ?? 'Deleted', lastName: t.to_last ?? 'user' },
    }));
  });

  const notificationsSchema = {
    tags: ['notifications'],
    summary: 'Notifications',
    description: "The caller's 100 most recent in-app notifications, newest first, and how many are unread.",
    response: answers(notificationsViewSchema),
  };
  // The bell is on every screen: its body is kept, compressed, until the read model moves.
  const bells = new ResponseCache();
  app.get('/api/notifications', { schema: notificationsSchema }, async (request, reply) => {
    const who = await reader(request, deps, readModels.notifications);
    const marks = await deps.positions.marks(readModels.notifications);
    const body = await bells.body(who.userId, marks, () =>
      inOneSnapshot(sql, async (tx) => {
        const [marks, rows, [count]] = await Promise.all([
          readMarks(tx, readModels.notifications),
          tx<
            {
              id: string;
              title: string;
              message: string;
              type: string;
              shift_id: string | null;
              read: boolean;
              created_at: Date;
            }[]
          >`select * from rm_notifications where user_id = ${who.userId} order by created_at desc, id limit 100`,
          tx<{ unread: number }[]>`
            select coalesce(sum(unread), 0)::int as unread from rm_notification_unread
            where user_id = ${who.userId}`,
        ]);
        const value = {
          notifications: rows.map((n) => ({
            id: n.id,
            userId: who.userId,
            title: n.title,
            message: n.message,
            type: n.type,
            shiftId: n.shift_id,
            read: n.read,
            createdAt: n.created_at,
          })),
          unreadCount: count?.unread ?? 0,
        };
        return { marks, value };
      }),
    );
    return sendCached(request, reply, body);
  });

  const unreadCountSchema = {
    tags: ['notifications'],
    summary: 'Unread notifications',
    description: "How many of the caller's in-app notifications are unread.",
    response: answers(unreadCountViewSchema),
  };
  app.get('/api/notifications/unread-count', { schema: unreadCountSchema }, async (request) => {
    const who = await reader(request, deps, readModels.notifications);
    const [count] = await sql<{ unread: number }[]>`
      select coalesce(sum(unread), 0)::int as unread from rm_notification_unread where user_id = ${who.userId}`;
    return { unreadCount: count?.unread ?? 0 };
  });

  app.get(
    '/api/system-config/email-notification-mode',
    {
      schema: {
        tags: ['system configuration'],
        summary: 'The e-mail notification mode',
        description:
          'Any signed-in user reads where notification e-mails go: `individual` or `mailing_list`, with the mailing-list address.',
        response: answers(emailModeViewSchema),
      },
    },
    async (request) => {
      await reader(request, deps, readModels.config);
      const [row] = await sql<{ value: EmailNotificationMode; mailing_list_address: string | null }[]>`
      select value, mailing_list_address from rm_system_config where key = 'email-notification-mode'`;
      return {
        key: 'email-notification-mode' as const,
        value: row?.value ?? 'individual',
        mailingListAddress: row?.mailing_list_address ?? null,
      };
    },
  );
};
