import { format, parseISO } from 'date-fns';

/** '13:05' → '1:05 PM'; '00:30' → '12:30 AM'; '' → ''. */
export function toTwelveHour(time: string): string {
  if (!time) return '';
  const [hours = '0', minutes = '00'] = time.split(':');
  const h = Number(hours);
  const suffix = h >= 12 ? 'PM' : 'AM';
  const twelve = h % 12 === 0 ? 12 : h % 12;
  return `${twelve}:${minutes} ${suffix}`;
}

/** Wall-clock hours from start to end, to the nearest quarter hour; an earlier end is next day. */
export function durationHours(startTime: string, endTime: string): number {
  if (!startTime || !endTime) return 0;
  const minutes = (t: string) => {
    const [h = '0', m = '0'] = t.split(':');
    return Number(h) * 60 + Number(m);
  };
  let span = minutes(endTime) - minutes(startTime);
  if (span <= 0) span += 24 * 60;
  return Math.round((span / 60) * 4) / 4;
}

export function durationLabel(hours: number): string {
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

/** '2024-03-05' → 'Tue, Mar 5, 2024'. */
export function formatShiftDate(date: string): string {
  return format(parseISO(date), 'EEE, MMM d, yyyy');
}

/** '8:00 AM – 4:00 PM'. */
export function timeRangeLabel(startTime: string, endTime: string): string {
  return `${toTwelveHour(startTime)} – ${toTwelveHour(endTime)}`;
}
