import { z } from 'zod';
import { requireActorCan } from '../permissions/refusals';
import type { Decider } from '../shared/decider';

export const emailNotificationModes = ['individual', 'mailing_list'] as const;
export type EmailNotificationMode = (typeof emailNotificationModes)[number];

export const emailNotificationModeSchema = z.object({
  mode: z.enum(emailNotificationModes, { error: 'Mode must be individual or mailing_list' }),
  mailingListAddress: z
    .email('Invalid email format')
    .max(254, 'Email must be at most 254 characters')
    .optional(),
});

export type ConfigCommand = {
  type: 'SetEmailNotificationMode';
  data: z.infer<typeof emailNotificationModeSchema>;
};
export type ConfigEvent = {
  type: 'EmailNotificationModeSet';
  data: { mode: EmailNotificationMode; mailingListAddress: string | null; at: string };
};
export interface ConfigState {
  mode: EmailNotificationMode;
  mailingListAddress: string | null;
}

export const configDecider: Decider<ConfigCommand, ConfigEvent, ConfigState> = {
  initialState: () => ({ mode: 'individual', mailingListAddress: null }),
  decide(command, state, context) {
    requireActorCan(context.actor, 'changeEmailNotificationMode');
    const mailingListAddress = command.data.mailingListAddress ?? state.mailingListAddress;
    if (command.data.mode === state.mode && mailingListAddress === state.mailingListAddress) return [];
    return [
      {
        type: 'EmailNotificationModeSet',
        data: { mode: command.data.mode, mailingListAddress, at: context.now.toISOString() },
      },
    ];
  },
  evolve: (_state, event) => ({ mode: event.data.mode, mailingListAddress: event.data.mailingListAddress }),
};
