import type { EmailModeView, EmailNotificationMode, EmailQueueStatusView } from '@shiftcover/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { keys, shiftViews } from '../../api/keys';
import { refresh } from '../../api/query-client';
import { errorToast, toast } from '../toast/toast';

export type EmailMode = EmailNotificationMode;

export type QueueStatus = EmailQueueStatusView;

/** docs/product.md §9: the e-mail mode is refetched every 30 s. */
const EMAIL_MODE_REFETCH_MS = 30_000;

const done = (title: string, description: string) => toast({ title, description, variant: 'success' });
const said = (answer: unknown, fallback: string) =>
  answer && typeof answer === 'object' && 'message' in answer && typeof answer.message === 'string'
    ? answer.message
    : fallback;

export function useEmailMode() {
  return useQuery({
    queryKey: keys.emailMode,
    queryFn: () => api.get<EmailModeView>('/api/system-config/email-notification-mode'),
    refetchInterval: EMAIL_MODE_REFETCH_MS,
  });
}

export function useSetEmailMode() {
  return useMutation({
    mutationFn: (mode: EmailMode) => api.post('/api/system-config/email-notification-mode', { mode }),
    onSuccess: async (_answer, mode) => {
      done(
        'Email Notification Mode Updated',
        mode === 'mailing_list'
          ? 'All notifications now go to the shared mailing list.'
          : "Notifications now go to each user's own notification e-mail.",
      );
      await refresh(['config']);
    },
    onError: (error) => errorToast(error, 'Failed to update email notification mode'),
  });
}

export function useEmailQueueStatus() {
  return useQuery({
    queryKey: keys.emailQueue,
    queryFn: () => api.get<QueueStatus>('/api/email-queue/status'),
  });
}

export function useClearQueue() {
  return useMutation({
    mutationFn: () => api.post<{ message?: string }>('/api/email-queue/clear'),
    onSuccess: async (answer) => {
      done('Queue Cleared', said(answer, 'The e-mail queue is empty.'));
      await refresh(['config']);
    },
    onError: (error) => errorToast(error, 'Failed to clear queue'),
  });
}

export function useSendTestEmail() {
  return useMutation({
    mutationFn: (mail: { email: string; subject: string; message: string }) =>
      api.post('/api/test-email', mail),
    onSuccess: (answer, mail) =>
      done('Test Email Sent', said(answer, `A test e-mail is on its way to ${mail.email}.`)),
    onError: (error) => errorToast(error, 'Failed to send test email'),
  });
}

export function useEmailDiagnostic() {
  return useMutation({
    mutationFn: (email: string) => api.post<unknown>('/api/email-diagnostic', { email }),
    onError: (error) => errorToast(error, 'Failed to run email diagnostic test'),
  });
}

export function useTestReminders() {
  return useMutation({
    mutationFn: () => api.post<{ message?: string }>('/api/test-reminders'),
    onSuccess: (answer) => done('Test Reminders Sent', said(answer, 'Shift reminders have been sent.')),
    onError: (error) => errorToast(error, 'Failed to send test reminders'),
  });
}

export function useBulkTest() {
  return useMutation({
    mutationFn: (count: number) =>
      api.post<{ shiftsCreated: number; emailsQueued: number }>('/api/bulk-test-emails', { count }),
    onSuccess: async (answer) => {
      done(
        'Bulk Test Started',
        `${answer.shiftsCreated} shifts created, ${answer.emailsQueued} e-mails queued.`,
      );
      await refresh([...shiftViews, 'config']);
    },
    onError: (error) => errorToast(error, 'Failed to start bulk test'),
  });
}
