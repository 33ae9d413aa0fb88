import { z } from 'zod';
import { requireActorCan } from '../permissions/refusals';
import type { Decider } from '../shared/decider';

/** The organisation's working-time rules (docs/product.md §10.2). */
export const workingTimeRulesSchema = z.object({
  minRestHours: z
    .number({ error: 'Minimum rest must be a number of hours' })
    .min(0, 'Minimum rest must be between 0 and 48 hours')
    .max(48, 'Minimum rest must be between 0 and 48 hours'),
  maxHoursPerWeek: z
    .number({ error: 'Weekly hours must be a number' })
    .min(1, 'Weekly hours must be between 1 and 168')
    .max(168, 'Weekly hours must be between 1 and 168'),
  maxConsecutiveDays: z
    .number({ error: 'Consecutive days must be a whole number' })
    .int('Consecutive days must be a whole number')
    .min(1, 'Consecutive days must be between 1 and 31')
    .max(31, 'Consecutive days must be between 1 and 31'),
});
export type WorkingTimeRules = z.infer<typeof workingTimeRulesSchema>;

/** The rules until the organisation sets its own. */
export const DEFAULT_WORKING_TIME_RULES: WorkingTimeRules = {
  minRestHours: 8,
  maxHoursPerWeek: 60,
  maxConsecutiveDays: 6,
};

/** The rules in force and their version: how many times they were set (0: the defaults). */
export interface VersionedRules extends WorkingTimeRules {
  version: number;
}

export type WorkingTimeRulesCommand = { type: 'SetWorkingTimeRules'; data: WorkingTimeRules };
export type WorkingTimeRulesEvent = {
  type: 'WorkingTimeRulesSet';
  data: WorkingTimeRules & { version: number; previous: WorkingTimeRules; at: string };
};

const sameRules = (a: WorkingTimeRules, b: WorkingTimeRules) =>
  a.minRestHours === b.minRestHours &&
  a.maxHoursPerWeek === b.maxHoursPerWeek &&
  a.maxConsecutiveDays === b.maxConsecutiveDays;

/** The working-time rules as one stream: every change is an event, its version counts the changes. */
export const workingTimeRulesDecider: Decider<
  WorkingTimeRulesCommand,
  WorkingTimeRulesEvent,
  VersionedRules
> = {
  initialState: () => ({ ...DEFAULT_WORKING_TIME_RULES, version: 0 }),
  decide(command, state, context) {
    requireActorCan(context.actor, 'changeWorkingTimeRules');
    const { version, ...previous } = state;
    if (sameRules(previous, command.data)) return [];
    const { minRestHours, maxHoursPerWeek, maxConsecutiveDays } = command.data;
    return [
      {
        type: 'WorkingTimeRulesSet',
        data: {
          minRestHours,
          maxHoursPerWeek,
          maxConsecutiveDays,
          version: version + 1,
          previous,
          at: context.now.toISOString(),
        },
      },
    ];
  },
  evolve: (_state, event) => {
    const { minRestHours, maxHoursPerWeek, maxConsecutiveDays, version } = event.data;
    return { minRestHours, maxHoursPerWeek, maxConsecutiveDays, version };
  },
};
