import { randomUUID } from 'node:crypto';
import type { CommandService } from '@shiftcover/command-api';
import {
  type Actor,
  DomainError,
  type ShiftCommand,
  type ShiftPriority,
  type ShiftType,
} from '@shiftcover/domain';

/** The demo's three daily slots. */
export const slots: Array<{ startTime: string; endTime: string; type: ShiftType }> = [
  { startTime: '08:00', endTime: '16:00', type: 'AM' },
  { startTime: '16:00', endTime: '00:00', type: 'PM' },
  { startTime: '00:00', endTime: '08:00', type: 'Overnight' },
];

export function post(
  shiftId: string,
  location: string,
  date: string,
  slot: { startTime: string; endTime: string; type: ShiftType },
  status: ShiftPriority,
  requirement: string | null,
): ShiftCommand {
  return {
    type: 'PostShift',
    data: { shiftId, location, date, ...slot, status, requirements: requirement, notes: null },
  };
}

/** A demo step that the rules refuse (an overlap, a shift already started) is simply left out. */
export async function attempt(
  service: CommandService,
  command: ShiftCommand,
  context: { actor: Actor; now: Date },
): Promise<boolean> {
  try {
    await service.shift(command, context, trace());
    return true;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}

export function trace() {
  return { commandId: randomUUID() };
}
