import type { AuditEntryView, AuditPageView } from '@shiftcover/domain';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { api, withQuery } from '../../api/client';
import { keys } from '../../api/keys';
import { refresh } from '../../api/query-client';
import { errorToast, toast } from '../toast/toast';
import { AUDIT_PAGE_SIZE, type AuditFilters } from './audit-filters';

export type AuditEntry = AuditEntryView;

/**
 * The audit log, 100 entries a page, each page appended. The filters are part of the key, so any
 * filter change starts again at offset 0 (docs/product.md §9).
 */
export function useAuditLogs(filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: keys.auditLogs({ ...filters }),
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      api.get<AuditPageView>(
        withQuery('/api/audit-logs', { ...filters, offset: pageParam, limit: AUDIT_PAGE_SIZE }),
      ),
    getNextPageParam: (last, pages) =>
      last.hasMore ? pages.reduce((count, page) => count + page.logs.length, 0) : undefined,
  });
}

export function useSendAuditReport() {
  return useMutation({
    mutationFn: () => api.post<{ message?: string }>('/api/admin/send-manual-report'),
    onSuccess: async (answer) => {
      toast({
        title: 'Audit Report Sent',
        description: answer?.message ?? 'The audit report has been sent to all super admins.',
        variant: 'success',
      });
      await refresh(['audit-logs']);
    },
    onError: (error) => errorToast(error, 'Failed to send audit report'),
  });
}

export function useResendShiftNotification(shiftId: string) {
  return useMutation({
    mutationFn: (recipients: string[]) =>
      api.post<{ message?: string }>(`/api/admin/resend-shift-notification/${shiftId}`, { recipients }),
    onSuccess: async (_answer, recipients) => {
      toast({
        title: 'Email Sent',
        description: `The shift notification is on its way to ${recipients.length} recipient${recipients.length === 1 ? '' : 's'}.`,
        variant: 'success',
      });
      await refresh(['audit-logs']);
    },
    onError: (error) => errorToast(error, 'Failed to send email'),
  });
}
