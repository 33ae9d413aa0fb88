import type { Decider } from '../shared/decider';
import { type RejectionCode, reject } from '../shared/errors';

export type UniqueKind = 'username' | 'email' | 'residence-name';

export type UniquenessCommand =
  | { type: 'ReserveValue'; data: { kind: UniqueKind; ownerId: string; staleOwnerId?: string | undefined } }
  | { type: 'ReleaseValue'; data: { kind: UniqueKind; ownerId: string } };

export type UniquenessEvent =
  | { type: 'ValueReserved'; data: { kind: UniqueKind; ownerId: string; at: string } }
  | { type: 'ValueReleased'; data: { kind: UniqueKind; ownerId: string; at: string } };

export interface UniquenessState {
  ownerId: string | null;
  reservedAt: string | null;
}

const taken: Record<UniqueKind, { code: RejectionCode; message: string }> = {
  username: { code: 'username_taken', message: 'Username already exists' },
  email: { code: 'email_taken', message: 'Email already exists' },
  'residence-name': { code: 'residence_name_taken', message: 'A residence with this name already exists' },
};

/** How a unique value is compared: surrounding spaces and letter case do not make it different. */
export function uniqueKey(_kind: UniqueKind, value: string): string {
  return value.trim().toLowerCase();
}

/** One stream per unique value; whoever reserves it first holds it until they release it. */
export const uniquenessDecider: Decider<UniquenessCommand, UniquenessEvent, UniquenessState> = {
  initialState: () => ({ ownerId: null, reservedAt: null }),

  decide(command, state, context) {
    const at = context.now.toISOString();
    const { kind, ownerId } = command.data;
    if (command.type === 'ReleaseValue') {
      return state.ownerId === ownerId ? [{ type: 'ValueReleased', data: { kind, ownerId, at } }] : [];
    }
    if (state.ownerId === ownerId) return [];
    if (state.ownerId !== null && state.ownerId !== command.data.staleOwnerId) {
      reject(taken[kind].code, taken[kind].message);
    }
    return [{ type: 'ValueReserved', data: { kind, ownerId, at } }];
  },

  evolve(_state, event) {
    return event.type === 'ValueReserved'
      ? { ownerId: event.data.ownerId, reservedAt: event.data.at }
      : { ownerId: null, reservedAt: null };
  },
};
