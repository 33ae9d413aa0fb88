import { formatShiftDate, timeRangeLabel } from '@shiftcover/domain';
import type { Shift } from '../../api/types';

/** 'Maple House · AM · Tue, Mar 5, 2024 · 8:00 AM – 4:00 PM', the shift a transfer is about. */
export function ShiftSummaryLine({
  shift,
}: {
  shift: Pick<Shift, 'location' | 'type' | 'date' | 'startTime' | 'endTime'>;
}) {
  return (
    <>
      {shift.location} · {shift.type} · {formatShiftDate(shift.date)} ·{' '}
      {timeRangeLabel(shift.startTime, shift.endTime)}
    </>
  );
}
