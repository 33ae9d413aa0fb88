import { z } from 'zod';
import { outreachChannels } from '../escalation/ladder';
import { escalationAudiences, escalationMarks } from '../escalation/policy';
import { positioned, timestamp } from './answers';

/** The escalation policy in force and its version (0: the default ladder, never set). */
export const escalationPolicyViewSchema = z.object({
  steps: z.array(
    z.object({
      hoursBeforeStart: z.number().nullable(),
      audience: z.enum(escalationAudiences),
      mark: z.enum(escalationMarks).nullable(),
    }),
  ),
  version: z.number(),
});
export type EscalationPolicyView = z.input<typeof escalationPolicyViewSchema>;
export const writtenEscalationPolicyViewSchema = positioned({
  ...escalationPolicyViewSchema.shape,
  message: z.string(),
});

/** One notice a step of the ladder gave: to whom (none named for the mailing list), how, when, at which step. */
export const outreachNoticeViewSchema = z.object({
  sentAt: timestamp,
  opening: z.number(),
  step: z.string(),
  stepLabel: z.string(),
  audience: z.enum(escalationAudiences),
  mark: z.enum(escalationMarks).nullable(),
  userId: z.string().nullable(),
  userName: z.string().nullable(),
  channel: z.enum(outreachChannels),
});
export type OutreachNoticeView = z.input<typeof outreachNoticeViewSchema>;
