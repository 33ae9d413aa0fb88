import {
  easternToday,
  type ShiftDetails,
  type ShiftPriority,
  type ShiftType,
  schedulingProblem,
  shiftDetailsSchema,
  shiftPresets,
  shiftPriorities,
} from '@shiftcover/domain';
import type { Shift } from '../../api/types';
import { fieldErrors } from '../../lib/form-errors';

/** What the create and edit dialogs hold while the user types (docs/product.md §5). */
export interface ShiftFormValues {
  location: string;
  date: string;
  startTime: string;
  endTime: string;
  type: ShiftType;
  status: ShiftPriority;
  requirements: string;
  notes: string;
  /** Credential type names a person must hold, unexpired, to take the shift. */
  requiredCredentials: string[];
}

export type PresetKey = keyof typeof shiftPresets;

export type CheckedShift =
  | { details: ShiftDetails; errors?: never }
  | { details?: never; errors: Record<string, string> };

/** docs/product.md §9: a new shift is today (Eastern), 08:00 to 16:00, AM, open. */
export function newShiftForm(now: Date): ShiftFormValues {
  return {
    location: '',
    date: easternToday(now),
    startTime: '08:00',
    endTime: '16:00',
    type: 'AM',
    status: 'open',
    requirements: '',
    notes: '',
    requiredCredentials: [],
  };
}

/** A preset fills the times and type only; it is never sent. */
export function withPreset(values: ShiftFormValues, preset: PresetKey): ShiftFormValues {
  const { startTime, endTime, type } = shiftPresets[preset];
  return { ...values, startTime, endTime, type };
}

export function shiftForm(shift: Shift): ShiftFormValues {
  return {
    location: shift.location,
    date: shift.date,
    startTime: shift.startTime,
    endTime: shift.endTime,
    type: shift.type,
    status: shift.priority,
    requirements: shift.requirements ?? '',
    notes: shift.notes ?? '',
    requiredCredentials: shift.requiredCredentials,
  };
}

export function checkShiftForm(values: ShiftFormValues): CheckedShift {
  const parsed = shiftDetailsSchema.safeParse(values);
  return parsed.success ? { details: parsed.data } : { errors: fieldErrors(parsed.error) };
}

/** The edit dialog's checks plus docs/product.md §5's scheduling rules for a new shift. */
export function checkNewShift(values: ShiftFormValues, now: Date): CheckedShift {
  const checked = checkShiftForm(values);
  if (checked.errors) {
    const { location, ...others } = checked.errors;
    return { errors: location ? { ...others, location: 'Location is required to create a shift' } : others };
  }
  const problem = schedulingProblem(checked.details, now);
  if (!problem) return checked;
  const field = problem.includes('overnight') ? 'startTime' : problem.includes('past') ? 'date' : 'location';
  return { errors: { [field]: problem } };
}

/**
 * docs/product.md §5: Emergency is offered to every shift creator, but when editing only to super admins;
 * a shift that already is an emergency keeps the choice so the form shows its real priority.
 */
export function priorityChoices(emergencyAllowed: boolean, current: ShiftPriority = 'open'): ShiftPriority[] {
  return shiftPriorities.filter((p) => p !== 'emergency' || emergencyAllowed || current === 'emergency');
}
