import { stepKey } from '../../escalation/ladder';
import type { CommandContext } from '../../shared/decider';
import { reject } from '../../shared/errors';
import type { ShiftEvent } from '../events';
import { isClaimable } from '../rules';
import type { ShiftState } from '../state';
import { requireAdmin, type ShiftCommandOf, timing } from './guards';

const PRIORITY_RANK = { open: 0, urgent: 1, emergency: 2 } as const;

/**
 * Runs a step of the escalation ladder (docs/product.md §11) for the shift's current opening, once:
 * a step already run, or one of an earlier opening, changes nothing; a shift someone has taken or
 * that has ended is refused. A step that marks the shift raises its priority, never lowers it.
 */
export function escalateShift(
  command: ShiftCommandOf<'EscalateShift'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  requireAdmin(context, 'editShift');
  const { shiftId, opening, step, notices } = command.data;
  if (!isClaimable(state) || opening !== state.opening)
    reject('not_claimable', 'This shift is no longer open');
  if (timing(state, context).ended) reject('not_ended', 'This shift has ended');
  if (state.testData || state.escalatedSteps.includes(stepKey(step))) return [];
  const at = context.now.toISOString();
  const raise = step.mark !== null && PRIORITY_RANK[step.mark] > PRIORITY_RANK[state.priority];
  return [
    { type: 'ShiftEscalated', data: { shiftId, opening, step, notices, at } },
    ...(raise
      ? [
          {
            type: 'ShiftMarkedUrgent' as const,
            data: { shiftId, priority: step.mark!, escalated: true as const, at },
          },
        ]
      : []),
  ];
}
