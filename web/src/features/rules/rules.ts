import type { IneligibilityReason, WorkingTimeRules } from '../../api/types';

/**
 * docs/product.md §2.21: the reasons a person may not take a shift, and what an administrator may do
 * about them. Only the organisation's working-time rules can be overridden (with a recorded reason);
 * a missing credential or time off cannot.
 */
export const workingTimeCodes: ReadonlySet<string> = new Set([
  'rest_too_short',
  'weekly_hours_exceeded',
  'too_many_consecutive_days',
]);

const ruleLabels: Record<string, string> = {
  missing_credential: 'Missing credential',
  unavailable: 'Time off',
  rest_too_short: 'Rest between shifts',
  weekly_hours_exceeded: 'Hours per week',
  too_many_consecutive_days: 'Days in a row',
};

/** 'rest_too_short' → 'Rest between shifts'; undefined for a refusal that is not one of the rules (a shift already started). */
export function ruleLabel(code: string): string | undefined {
  return ruleLabels[code];
}

/** Whether an administrator may assign anyway: every reason is a working-time rule. */
export function canOverride(reasons: readonly IneligibilityReason[]): boolean {
  return reasons.length > 0 && reasons.every((reason) => workingTimeCodes.has(reason.code));
}

export type ExpiryState = 'never' | 'expired' | 'soon' | 'valid';

/** The days from one Eastern date to another (both 'YYYY-MM-DD'); dates have no clock changes. */
export function daysUntil(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** A credential is "soon" to expire within the 30 days in which its holder and admins are told. */
export function expiryState(expiresOn: string | null, today: string): ExpiryState {
  if (!expiresOn) return 'never';
  const days = daysUntil(today, expiresOn);
  if (days < 0) return 'expired';
  return days <= 30 ? 'soon' : 'valid';
}

export interface TimeOffForm {
  startDate: string;
  endDate: string;
  note: string;
}

/** The time-off form's messages, by field: both dates, the end not before the start. */
export function timeOffErrors({ startDate, endDate }: TimeOffForm): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!startDate) errors.startDate = 'Start date is required';
  if (!endDate) errors.endDate = 'End date is required';
  else if (startDate && endDate < startDate) errors.endDate = 'End date cannot be before the start date';
  return errors;
}

export type RulesForm = Record<keyof WorkingTimeRules, string>;

const ruleFields: (keyof WorkingTimeRules)[] = ['minRestHours', 'maxHoursPerWeek', 'maxConsecutiveDays'];

/** The rules typed into the form, or a message per field that is not a whole number of at least 1. */
export function checkRulesForm(
  form: RulesForm,
): { rules: WorkingTimeRules; errors?: never } | { rules?: never; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const rules = {} as WorkingTimeRules;
  for (const field of ruleFields) {
    const value = Number(form[field]);
    if (form[field].trim() === '' || !Number.isInteger(value) || value < 1) {
      errors[field] = 'Enter a whole number of at least 1';
    } else rules[field] = value;
  }
  return Object.keys(errors).length ? { errors } : { rules };
}

export function rulesForm(rules: WorkingTimeRules): RulesForm {
  return {
    minRestHours: String(rules.minRestHours),
    maxHoursPerWeek: String(rules.maxHoursPerWeek),
    maxConsecutiveDays: String(rules.maxConsecutiveDays),
  };
}
