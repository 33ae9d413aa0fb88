import type { EscalationPolicy, EscalationPolicyView } from '@shiftcover/domain';
import { useMutation, useQueries, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../api/client';
import { keys } from '../../api/keys';
import { queryClient } from '../../api/query-client';
import type {
  Credential,
  CredentialType,
  Eligibility,
  TimeOff,
  WhatIfReport,
  WorkingTimeRules,
} from '../../api/types';
import { errorToast, toast } from '../toast/toast';

/**
 * docs/product.md §2.21's routes: the organisation's credential types and working-time rules, a
 * person's credentials and time off, and whether a person may take a shift.
 */

/** GET /api/shifts/{id}/eligibility for the signed-in person, or for `userId` (administrators). */
export function useEligibility(
  shiftId: string,
  { userId, enabled = true }: { userId?: string; enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: keys.eligibility(shiftId, userId),
    queryFn: () => api.get<Eligibility>(withQuery(`/api/shifts/${shiftId}/eligibility`, { userId })),
    enabled,
  });
}

/** Each person's eligibility for one shift, by user id (the assign dialog's marks); missing until answered. */
export function useEligibilityOf(shiftId: string, userIds: readonly string[], enabled: boolean) {
  return useQueries({
    queries: userIds.map((userId) => ({
      queryKey: keys.eligibility(shiftId, userId),
      queryFn: () => api.get<Eligibility>(withQuery(`/api/shifts/${shiftId}/eligibility`, { userId })),
      enabled,
    })),
    combine: (answers) =>
      new Map(userIds.flatMap((userId, i) => (answers[i]?.data ? [[userId, answers[i].data] as const] : []))),
  });
}

export function useCredentialTypes(enabled = true) {
  return useQuery({
    queryKey: keys.credentialTypes,
    queryFn: () => api.get<CredentialType[]>('/api/credential-types'),
    enabled,
  });
}

function invalidate(key: readonly unknown[]) {
  return queryClient.invalidateQueries({ queryKey: key });
}

export function useAddCredentialType() {
  return useMutation({
    mutationFn: (name: string) => api.post<CredentialType>('/api/credential-types', { name }),
    onSuccess: async (_type, name) => {
      toast({
        title: 'Credential Type Added',
        description: `${name} can now be recorded and required.`,
        variant: 'success',
      });
      await invalidate(keys.credentialTypes);
    },
    onError: (error) => errorToast(error, 'Failed to add credential type'),
  });
}

export function useDeleteCredentialType() {
  return useMutation({
    mutationFn: (type: CredentialType) => api.delete(`/api/credential-types/${type.id}`),
    onSuccess: async (_answer, type) => {
      toast({
        title: 'Credential Type Removed',
        description: `${type.name} is no longer offered.`,
        variant: 'success',
      });
      await invalidate(keys.credentialTypes);
    },
    onError: (error) => errorToast(error, 'Failed to remove credential type'),
  });
}

export function useCredentials(userId: string) {
  return useQuery({
    queryKey: keys.credentials(userId),
    queryFn: () => api.get<Credential[]>(`/api/users/${userId}/credentials`),
  });
}

export interface NewCredential {
  name: string;
  expiresOn?: string;
}

export function useAddCredential(userId: string) {
  return useMutation({
    mutationFn: (credential: NewCredential) =>
      api.post<Credential>(`/api/users/${userId}/credentials`, credential),
    onSuccess: async (_answer, credential) => {
      toast({
        title: 'Credential Recorded',
        description: `${credential.name} has been recorded.`,
        variant: 'success',
      });
      // Eligibility for every shift may have changed with it.
      await Promise.all([invalidate(keys.credentials(userId)), invalidate(['shifts', 'eligibility'])]);
    },
    onError: (error) => errorToast(error, 'Failed to record credential'),
  });
}

export function useRemoveCredential(userId: string) {
  return useMutation({
    mutationFn: (credential: Credential) => api.delete(`/api/users/${userId}/credentials/${credential.id}`),
    onSuccess: async (_answer, credential) => {
      toast({
        title: 'Credential Removed',
        description: `${credential.name} has been removed.`,
        variant: 'success',
      });
      await Promise.all([invalidate(keys.credentials(userId)), invalidate(['shifts', 'eligibility'])]);
    },
    onError: (error) => errorToast(error, 'Failed to remove credential'),
  });
}

/** A person's time off as their administrators see it. */
export function usePersonTimeOff(userId: string) {
  return useQuery({
    queryKey: keys.timeOff(userId),
    queryFn: () => api.get<TimeOff[]>(`/api/users/${userId}/time-off`),
  });
}

export function useMyTimeOff() {
  return useQuery({
    queryKey: keys.myTimeOff,
    queryFn: () => api.get<TimeOff[]>('/api/my-time-off'),
  });
}

export interface NewTimeOff {
  startDate: string;
  endDate: string;
  note?: string;
}

export function useAddTimeOff() {
  return useMutation({
    mutationFn: (timeOff: NewTimeOff) => api.post<TimeOff>('/api/my-time-off', timeOff),
    onSuccess: async () => {
      toast({
        title: 'Time Off Added',
        description: 'You will not be given shifts on those days.',
        variant: 'success',
      });
      await Promise.all([invalidate(keys.myTimeOff), invalidate(['shifts', 'eligibility'])]);
    },
    onError: (error) => errorToast(error, 'Failed to add time off'),
  });
}

export function useDeleteTimeOff() {
  return useMutation({
    mutationFn: (timeOff: TimeOff) => api.delete(`/api/my-time-off/${timeOff.id}`),
    onSuccess: async () => {
      toast({ title: 'Time Off Removed', variant: 'success' });
      await Promise.all([invalidate(keys.myTimeOff), invalidate(['shifts', 'eligibility'])]);
    },
    onError: (error) => errorToast(error, 'Failed to remove time off'),
  });
}

export function useWorkingTimeRules() {
  return useQuery({
    queryKey: keys.workingTimeRules,
    queryFn: () => api.get<WorkingTimeRules>('/api/working-time-rules'),
  });
}

export function useSaveWorkingTimeRules() {
  return useMutation({
    mutationFn: (rules: WorkingTimeRules) => api.put<WorkingTimeRules>('/api/working-time-rules', rules),
    onSuccess: async () => {
      toast({
        title: 'Working-Time Rules Saved',
        description: 'Claims and assignments now follow the new rules.',
        variant: 'success',
      });
      await Promise.all([invalidate(keys.workingTimeRules), invalidate(['shifts', 'eligibility'])]);
    },
    onError: (error) => errorToast(error, 'Failed to save working-time rules'),
  });
}

/** docs/product.md §11: the escalation ladder, read and set by super admins and developers. */
export function useEscalationPolicy() {
  return useQuery({
    queryKey: keys.escalationPolicy,
    queryFn: () => api.get<EscalationPolicyView>('/api/escalation-policy'),
  });
}

export function useSaveEscalationPolicy() {
  return useMutation({
    mutationFn: (policy: EscalationPolicy) => api.put<EscalationPolicyView>('/api/escalation-policy', policy),
    onSuccess: async () => {
      toast({
        title: 'Escalation Policy Saved',
        description: 'Shifts still open follow the new steps from the next check.',
        variant: 'success',
      });
      await invalidate(keys.escalationPolicy);
    },
    onError: (error) => errorToast(error, 'Failed to save the escalation policy'),
  });
}

/** Proposed rules over a period (instants); without them, the server takes the last 30 days. */
export interface WhatIfQuestion extends WorkingTimeRules {
  from?: string;
  until?: string;
}

/** Replays a past period under proposed rules; the server writes nothing. */
export function useWhatIf() {
  return useMutation({
    mutationFn: (question: WhatIfQuestion) =>
      api.post<WhatIfReport>('/api/working-time-rules/what-if', question),
    onError: (error) => errorToast(error, 'Failed to replay the period'),
  });
}
