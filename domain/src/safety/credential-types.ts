import { z } from 'zod';
import { cleanText } from '../forms/text';
import { requireActorCan } from '../permissions/refusals';
import type { Decider } from '../shared/decider';
import { reject } from '../shared/errors';

/** A credential type's name, as administrators add it to the organisation's list. */
export const credentialTypeSchema = z.object({
  name: cleanText({ label: 'Credential name', max: 100, required: 'Credential name is required' }),
});

export interface CredentialType {
  credentialTypeId: string;
  name: string;
}

export type CredentialTypeCommand =
  | { type: 'AddCredentialType'; data: CredentialType }
  | { type: 'RemoveCredentialType'; data: { credentialTypeId: string } };

export type CredentialTypeEvent =
  | { type: 'CredentialTypeAdded'; data: CredentialType & { at: string } }
  | { type: 'CredentialTypeRemoved'; data: CredentialType & { at: string } };

export interface CredentialTypesState {
  types: CredentialType[];
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The organisation's list of credential names (docs/product.md §10.1): one stream, names unique. */
export const credentialTypesDecider: Decider<
  CredentialTypeCommand,
  CredentialTypeEvent,
  CredentialTypesState
> = {
  initialState: () => ({ types: [] }),
  decide(command, state, context) {
    requireActorCan(context.actor, 'manageCredentials');
    const at = context.now.toISOString();
    if (command.type === 'AddCredentialType') {
      const name = command.data.name.trim();
      if (state.types.some((t) => sameName(t.name, name)))
        reject('already_exists', `The credential ${name} is already on the list`);
      return [
        { type: 'CredentialTypeAdded', data: { credentialTypeId: command.data.credentialTypeId, name, at } },
      ];
    }
    const found = state.types.find((t) => t.credentialTypeId === command.data.credentialTypeId);
    if (!found) reject('not_found', 'Credential type not found');
    return [{ type: 'CredentialTypeRemoved', data: { ...found, at } }];
  },
  evolve(state, event) {
    const others = state.types.filter((t) => t.credentialTypeId !== event.data.credentialTypeId);
    if (event.type === 'CredentialTypeRemoved') return { types: others };
    const { at: _at, ...type } = event.data;
    return { types: [...others, type] };
  },
};

/** The list's own spelling of a name, matched without regard to case; undefined when not listed. */
export function listedName(state: CredentialTypesState, name: string): string | undefined {
  return state.types.find((t) => sameName(t.name, name))?.name;
}
