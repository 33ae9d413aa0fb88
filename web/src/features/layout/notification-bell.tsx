import type { NotificationsView } from '@shiftcover/domain';
import { easternDayTime } from '@shiftcover/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Bell } from 'lucide-react';
import { Popover } from 'radix-ui';
import { api } from '../../api/client';
import { keys } from '../../api/keys';
import { refresh } from '../../api/query-client';
import { Button } from '../../components/ui/button';

/** In-app notifications (docs/product.md §3): approvals, drops, transfers, new and urgent shifts. */
export function NotificationBell() {
  const { data } = useQuery({
    queryKey: keys.notifications,
    queryFn: () => api.get<NotificationsView>('/api/notifications'),
  });
  const markRead = useMutation({
    mutationFn: () => api.post('/api/notifications/read', {}),
    onSettled: () => refresh(['notifications']),
  });
  const unread = data?.unreadCount ?? 0;
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative"
          aria-label={`Notifications, ${unread} unread`}
        >
          <Bell className="size-5!" aria-hidden />
          {unread > 0 && (
            <span className="absolute top-1 right-1 grid min-w-4 place-items-center rounded-full bg-red-600 px-1 text-[10px] font-bold text-white">
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={8}
          className="z-50 flex max-h-[70vh] w-[min(22rem,calc(100vw-2rem))] flex-col rounded-lg border border-slate-200 bg-white shadow-lg"
        >
          <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
            <p className="font-semibold">Notifications</p>
            {unread > 0 && (
              <Button variant="link" size="sm" className="h-auto p-0" onClick={() => markRead.mutate()}>
                Mark all read
              </Button>
            )}
          </div>
          <ul className="overflow-y-auto">
            {(data?.notifications ?? []).length === 0 && (
              <li className="px-4 py-6 text-center text-sm text-slate-600">No notifications yet</li>
            )}
            {data?.notifications.map((n) => (
              <li key={n.id} className="border-b border-slate-100 px-4 py-3 last:border-0">
                <p className="flex items-center gap-2 text-sm font-medium text-slate-900">
                  {!n.read && (
                    <>
                      <span className="size-2 rounded-full bg-teal-600" aria-hidden />
                      <span className="sr-only">Unread:</span>
                    </>
                  )}
                  {n.title}
                </p>
                <p className="text-sm text-slate-600">{n.message}</p>
                <p className="mt-1 text-xs text-slate-500">{easternDayTime(n.createdAt)}</p>
              </li>
            ))}
          </ul>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
