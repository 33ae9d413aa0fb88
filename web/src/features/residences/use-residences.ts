import type { ResidenceDetails } from '@shiftcover/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { keys } from '../../api/keys';
import { refresh } from '../../api/query-client';
import type { Residence } from '../../api/types';
import type { Option } from '../../components/ui/form';
import { errorToast, toast } from '../toast/toast';

export function useResidences(enabled = true) {
  return useQuery({
    queryKey: keys.residences,
    queryFn: () => api.get<Residence[]>('/api/residences'),
    enabled,
  });
}

/** The choices of a location filter: every location, or one residence by name. */
export function locationFilterOptions(residences: readonly Residence[] = []): Option[] {
  return [
    { value: 'all', label: 'All locations' },
    ...residences.map((r) => ({ value: r.name, label: r.name })),
  ];
}

/** Create (no id) or update a residence; the residence lists refresh afterwards. */
export function useSaveResidence(onSaved: () => void) {
  return useMutation({
    mutationFn: ({ id, details }: { id?: string; details: ResidenceDetails }) =>
      id ? api.put(`/api/residences/${id}`, details) : api.post('/api/residences', details),
    onSuccess: async (_answer, { id, details }) => {
      toast({
        title: id ? 'Residence updated' : 'Residence created',
        description: `${details.name} has been saved.`,
        variant: 'success',
      });
      onSaved();
      await refresh(['residences']);
    },
    onError: (error, { id }) =>
      errorToast(error, id ? 'Failed to update residence' : 'Failed to create residence'),
  });
}

export function useDeleteResidence(onDeleted: () => void) {
  return useMutation({
    mutationFn: (residence: Residence) => api.delete(`/api/residences/${residence.id}`),
    onSuccess: async (_answer, residence) => {
      toast({ title: 'Residence deleted', description: `${residence.name} has been removed.` });
      onDeleted();
      await refresh(['residences']);
    },
    onError: (error) => errorToast(error, 'Failed to delete residence'),
  });
}
