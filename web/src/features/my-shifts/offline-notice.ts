import { easternDayTime, easternTime, easternToday, toTwelveHour } from '@shiftcover/domain';

/** '3:42 PM' for earlier today, 'Mar 5, 3:42 PM' before that: Eastern time, like every time shown. */
export function asOfLabel(asOf: Date, now: Date): string {
  return easternToday(asOf) === easternToday(now) ? toTwelveHour(easternTime(asOf)) : easternDayTime(asOf);
}

/**
 * docs/product.md §2.11: what My Shifts says when its shifts are not fresh from the server. The
 * device may be offline, or online with the server out of reach while the service worker answers.
 */
export function offlineNotice({ online, asOf, now }: { online: boolean; asOf: Date; now: Date }): string {
  const why = online ? 'The server cannot be reached.' : 'You are offline.';
  return `${why} Showing your shifts as of ${asOfLabel(asOf, now)}. Changes need a connection.`;
}
