import { z } from 'zod';
import { cleanText, optionalCleanText } from '../forms/text';
import { requireActorCan } from '../permissions/refusals';
import type { Decider } from '../shared/decider';
import { reject } from '../shared/errors';

/** The residence form (docs/product.md §5): a trimmed, required name and an optional description. */
export const residenceSchema = z.object({
  name: cleanText({ label: 'Residence name', max: 200, required: 'Residence name is required' }),
  description: optionalCleanText({ label: 'Description', max: 2000, multiline: true }),
  address: optionalCleanText({ label: 'Address', max: 500 }),
});
export type ResidenceDetails = z.infer<typeof residenceSchema>;

export type ResidenceCommand =
  | { type: 'CreateResidence'; data: ResidenceDetails & { residenceId: string } }
  | { type: 'UpdateResidence'; data: ResidenceDetails & { residenceId: string } }
  | { type: 'DeleteResidence'; data: { residenceId: string } };

export type ResidenceEvent =
  | { type: 'ResidenceCreated'; data: ResidenceDetails & { residenceId: string; at: string } }
  | { type: 'ResidenceUpdated'; data: ResidenceDetails & { residenceId: string; at: string } }
  | { type: 'ResidenceDeleted'; data: { residenceId: string; name: string; at: string } };

export interface ResidenceState {
  status: 'none' | 'active' | 'deleted';
  residenceId: string;
  name: string;
  description: string | null;
  address: string | null;
}

function details(input: unknown): ResidenceDetails {
  const parsed = residenceSchema.safeParse(input);
  if (!parsed.success) reject('invalid', parsed.error.issues[0]?.message ?? 'Residence name is required');
  return parsed.data;
}

export const residenceDecider: Decider<ResidenceCommand, ResidenceEvent, ResidenceState> = {
  initialState: () => ({ status: 'none', residenceId: '', name: '', description: null, address: null }),

  decide(command, state, context) {
    requireActorCan(context.actor, 'manageResidences');
    const at = context.now.toISOString();
    if (command.type === 'CreateResidence') {
      if (state.status !== 'none') reject('already_exists', 'Residence already exists');
      return [
        {
          type: 'ResidenceCreated',
          data: { ...details(command.data), residenceId: command.data.residenceId, at },
        },
      ];
    }
    if (state.status !== 'active') reject('not_found', 'Residence not found');
    if (command.type === 'DeleteResidence') {
      return [{ type: 'ResidenceDeleted', data: { residenceId: state.residenceId, name: state.name, at } }];
    }
    const next = details(command.data);
    if (
      next.name === state.name &&
      next.description === state.description &&
      next.address === state.address
    ) {
      return [];
    }
    return [{ type: 'ResidenceUpdated', data: { ...next, residenceId: state.residenceId, at } }];
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ResidenceCreated':
      case 'ResidenceUpdated': {
        const { at: _at, ...details } = event.data;
        return { ...state, ...details, status: 'active' };
      }
      case 'ResidenceDeleted':
        return { ...state, status: 'deleted' };
    }
  },
};
