import { z } from 'zod';
import { requireActorCan } from '../permissions/refusals';
import type { Decider } from '../shared/decider';
import { reject } from '../shared/errors';

/** Who a step of the escalation ladder tells (docs/product.md §11). */
export const escalationAudiences = [
  'eligible_staff',
  'all_staff',
  'residence_admins',
  'super_admins',
] as const;
export type EscalationAudience = (typeof escalationAudiences)[number];

/** How a step may raise the shift's priority; the ladder never lowers it. */
export const escalationMarks = ['urgent', 'emergency'] as const;
export type EscalationMark = (typeof escalationMarks)[number];

export const MAX_ESCALATION_STEPS = 10;
/** 30 days: a step further ahead than this would tell people of shifts not yet planned. */
export const MAX_ESCALATION_HOURS = 720;

const HOURS_MESSAGE = `Hours before the start must be a whole number between 0 and ${MAX_ESCALATION_HOURS}`;

export const escalationStepSchema = z.object({
  /** Hours before the shift's start; null for the step at posting (the moment the shift is open). */
  hoursBeforeStart: z
    .number({ error: HOURS_MESSAGE })
    .int(HOURS_MESSAGE)
    .min(0, HOURS_MESSAGE)
    .max(MAX_ESCALATION_HOURS, HOURS_MESSAGE)
    .nullable(),
  audience: z.enum(escalationAudiences, {
    error: 'Audience must be eligible_staff, all_staff, residence_admins or super_admins',
  }),
  mark: z.enum(escalationMarks, { error: 'A step marks a shift urgent or emergency, or nothing' }).nullable(),
});
export type EscalationStep = z.infer<typeof escalationStepSchema>;

/** Where a step stands in the ladder: the step at posting first, then the most hours before the start. */
const rank = (step: EscalationStep) => step.hoursBeforeStart ?? Number.POSITIVE_INFINITY;

export const escalationPolicySchema = z.object({
  steps: z
    .array(escalationStepSchema, { error: 'Steps must be a list' })
    .max(MAX_ESCALATION_STEPS, `A policy has at most ${MAX_ESCALATION_STEPS} steps`)
    .refine(
      (steps) => steps.every((step, i) => i === 0 || rank(steps[i - 1]!) > rank(step)),
      'Steps must be in order: the step at posting first, then from the most hours before the start to the fewest, each time once',
    ),
});
export type EscalationPolicy = z.infer<typeof escalationPolicySchema>;

/** The ladder until the organisation sets its own. */
export const DEFAULT_ESCALATION_POLICY: EscalationPolicy = {
  steps: [
    { hoursBeforeStart: null, audience: 'eligible_staff', mark: null },
    { hoursBeforeStart: 48, audience: 'all_staff', mark: null },
    { hoursBeforeStart: 24, audience: 'residence_admins', mark: 'urgent' },
    { hoursBeforeStart: 8, audience: 'super_admins', mark: 'emergency' },
  ],
};

/** The policy in force and its version: how many times it was set (0: the default). */
export interface VersionedEscalationPolicy extends EscalationPolicy {
  version: number;
}

export type EscalationPolicyCommand = { type: 'SetEscalationPolicy'; data: EscalationPolicy };
export type EscalationPolicyEvent = {
  type: 'EscalationPolicySet';
  data: EscalationPolicy & { version: number; at: string };
};

const sameSteps = (a: EscalationStep[], b: EscalationStep[]) =>
  a.length === b.length &&
  a.every(
    (step, i) =>
      step.hoursBeforeStart === b[i]!.hoursBeforeStart &&
      step.audience === b[i]!.audience &&
      step.mark === b[i]!.mark,
  );

/** The escalation policy as one stream: every change is an event, its version counts the changes. */
export const escalationPolicyDecider: Decider<
  EscalationPolicyCommand,
  EscalationPolicyEvent,
  VersionedEscalationPolicy
> = {
  initialState: () => ({ ...DEFAULT_ESCALATION_POLICY, version: 0 }),
  decide(command, state, context) {
    requireActorCan(context.actor, 'changeEscalationPolicy');
    const parsed = escalationPolicySchema.safeParse(command.data);
    if (!parsed.success) reject('invalid', parsed.error.issues[0]!.message);
    const { steps } = parsed.data;
    if (sameSteps(state.steps, steps)) return [];
    return [
      {
        type: 'EscalationPolicySet',
        data: { steps, version: state.version + 1, at: context.now.toISOString() },
      },
    ];
  },
  evolve: (_state, event) => ({ steps: event.data.steps, version: event.data.version }),
};
