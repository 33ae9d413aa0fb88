import { z } from 'zod';
import { positioned, timestamp } from './answers';

/** A credential a person holds, as they and their admins read it (docs/product.md §10.1). */
export const credentialViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The last day it is valid; null when it does not expire. */
  expiresOn: z.string().nullable(),
  /** Whether its last day is already past, Eastern time. */
  expired: z.boolean(),
  recordedAt: timestamp,
});
export type CredentialView = z.input<typeof credentialViewSchema>;
export const writtenCredentialViewSchema = positioned({ ...credentialViewSchema.shape, message: z.string() });

/** A name on the organisation's list of credentials. */
export const credentialTypeViewSchema = z.object({ id: z.string(), name: z.string() });
export type CredentialTypeView = z.input<typeof credentialTypeViewSchema>;
export const writtenCredentialTypeViewSchema = positioned({
  ...credentialTypeViewSchema.shape,
  message: z.string(),
});

/** A stretch of days a person cannot work, first and last day included (docs/product.md §10.4). */
export const timeOffViewSchema = z.object({
  id: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  note: z.string().nullable(),
  recordedAt: timestamp,
});
export type TimeOffView = z.input<typeof timeOffViewSchema>;
export const writtenTimeOffViewSchema = positioned({ ...timeOffViewSchema.shape, message: z.string() });

/** The working-time rules in force and their version (0: the defaults, never set). */
export const workingTimeRulesViewSchema = z.object({
  minRestHours: z.number(),
  maxHoursPerWeek: z.number(),
  maxConsecutiveDays: z.number(),
  version: z.number(),
});
export type WorkingTimeRulesView = z.input<typeof workingTimeRulesViewSchema>;
export const writtenWorkingTimeRulesViewSchema = positioned({
  ...workingTimeRulesViewSchema.shape,
  message: z.string(),
});

/** One reason a person may not take a shift: the code and words the command would refuse with. */
export const eligibilityReasonSchema = z.object({ code: z.string(), message: z.string() });

/** Whether a person may take a shift now, and if not, every reason why. */
export const eligibilityViewSchema = z.object({
  eligible: z.boolean(),
  reasons: z.array(eligibilityReasonSchema),
});
export type EligibilityView = z.input<typeof eligibilityViewSchema>;

const figures = z.record(z.string(), z.union([z.string(), z.number()]));

/** A past period replayed under proposed working-time rules: who would have broken which rule, where. */
export const whatIfViewSchema = z.object({
  from: timestamp,
  until: timestamp,
  rules: workingTimeRulesViewSchema.omit({ version: true }),
  violations: z.array(
    z.object({
      userId: z.string(),
      userName: z.string(),
      shiftId: z.string(),
      shift: z.object({ location: z.string(), date: z.string(), startTime: z.string(), endTime: z.string() }),
      code: z.string(),
      message: z.string(),
      figures,
    }),
  ),
  byRule: z.record(z.string(), z.number()),
  byPerson: z.array(z.object({ userId: z.string(), userName: z.string(), violations: z.number() })),
});
export type WhatIfView = z.input<typeof whatIfViewSchema>;
