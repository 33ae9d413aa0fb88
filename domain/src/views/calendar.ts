import { z } from 'zod';
import { positioned, timestamp } from './answers';

/** A calendar feed just made: the secret address, shown this once (only its digest is kept). */
export const calendarFeedViewSchema = positioned({ url: z.url(), message: z.string() });

/** Whether the caller has a calendar feed, and since when. */
export const calendarFeedStatusViewSchema = z.object({
  active: z.boolean(),
  createdAt: timestamp.nullable(),
});
export type CalendarFeedView = z.input<typeof calendarFeedViewSchema>;
export type CalendarFeedStatusView = z.input<typeof calendarFeedStatusViewSchema>;
