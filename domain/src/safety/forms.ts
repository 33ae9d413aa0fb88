import { z } from 'zod';
import { cleanText, optionalCleanText } from '../forms/text';
import { isCalendarDate } from '../time/eastern';

const calendarDate = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date (YYYY-MM-DD)`)
    .refine(isCalendarDate, `${label} must be a real date`);

/** A credential as an administrator records it for a person: a listed name, and when it expires. */
export const credentialFormSchema = z.object({
  name: cleanText({ label: 'Credential name', max: 100, required: 'Credential name is required' }),
  expiresOn: calendarDate('Expiry date').nullish(),
});

/** Time off as a person records it: first and last day, both included. */
export const timeOffFormSchema = z
  .object({
    startDate: calendarDate('Start date'),
    endDate: calendarDate('End date'),
    note: optionalCleanText({ label: 'Note', max: 500, multiline: true }),
  })
  .refine((t) => t.endDate >= t.startDate, {
    path: ['endDate'],
    message: 'The end date must be on or after the start date',
  });
