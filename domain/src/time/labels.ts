import { format } from 'date-fns/format';
import { parseISO } from 'date-fns/parseISO';
import { dayNumber } from './eastern';

/** '13:05' → '1:05 PM'; '00:30' → '12:30 AM'; '' → ''. */
export function toTwelveHour(time: string): string {
  if (!time) return '';
  const [hours = '0', minutes = '00'] = time.split(':');
  const h = Number(hours);
  const suffix = h >= 12 ? 'PM' : 'AM';
  const twelve = h % 12 === 0 ? 12 : h % 12;
  return `${twelve}:${minutes} ${suffix}`;
}

export function durationLabel(hours: number): string {
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * '2024-03-05' → 'Tue, Mar 5, 2024'. Every audit entry and notice about a shift names its day, so
 * a real calendar date is spelled out from its day count, without a parse and a format of it.
 */
export function formatShiftDate(date: string): string {
  const day = dayNumber(date);
  if (day === undefined) return format(parseISO(date), 'EEE, MMM d, yyyy');
  // 1970-01-01, day 0, was a Thursday.
  const weekday = WEEKDAYS[(((day + 4) % 7) + 7) % 7];
  return `${weekday}, ${MONTHS[Number(date.slice(5, 7)) - 1]} ${Number(date.slice(8, 10))}, ${date.slice(0, 4)}`;
}

/** '8:00 AM – 4:00 PM'. */
export function timeRangeLabel(startTime: string, endTime: string): string {
  return `${toTwelveHour(startTime)} – ${toTwelveHour(endTime)}`;
}

/** 'Tue, Mar 5, 2024, 8:00 AM – 4:00 PM': a shift's day and hours, in Eastern wall-clock time. */
export function shiftTimeLabel(date: string, startTime: string, endTime: string): string {
  return `${formatShiftDate(date)}, ${timeRangeLabel(startTime, endTime)}`;
}

/** 'AM shift at Maple House on Tue, Mar 5, 2024, 8:00 AM – 4:00 PM': the audit log's and notifications' name for a shift. */
export function shiftLabel(shift: {
  type: string;
  location: string;
  date: string;
  startTime: string;
  endTime: string;
}): string {
  return `${shift.type} shift at ${shift.location} on ${shiftTimeLabel(shift.date, shift.startTime, shift.endTime)}`;
}
