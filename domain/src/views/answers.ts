import { z } from 'zod';

/**
 * A moment as the API writes it: an ISO 8601 string. The server may hold it as a `Date` (a read
 * model's column) or as the string an event recorded; both are written the same way.
 */
export const timestamp = z.codec(
  z.string().meta({ format: 'date-time' }),
  z.union([z.date(), z.string().meta({ format: 'date-time' })]),
  {
    decode: (text) => text,
    encode: (at) => (at instanceof Date ? at.toISOString() : at),
  },
);

/** Every refusal and failure: a message a person can read, and the rejection's code where it has one. */
export const errorAnswer = z.looseObject({
  message: z.string(),
  code: z.string().optional(),
  errorType: z.string().optional(),
  /** A refusal recorded in the log (a safety rule's, docs/product.md §10) names where, as a write does. */
  position: z.string().optional(),
});

/** A write's answer carries the global position of its last event, for reading one's own write. */
export const positioned = <Shape extends z.core.$ZodLooseShape>(shape: Shape) =>
  z.object({ ...shape, position: z.string() });

/** A write that answers with a sentence only. */
export const acknowledged = positioned({ message: z.string() });

/**
 * The `response` of a route's schema: its success shape under its status, and the one error shape
 * under every 4xx and 5xx status.
 */
export function answers<Success extends z.ZodType, Status extends 200 | 201 = 200>(
  success: Success,
  status: Status = 200 as Status,
) {
  return { [status]: success, '4xx': errorAnswer, '5xx': errorAnswer } as {
    [Code in Status]: Success;
  } & { '4xx': typeof errorAnswer; '5xx': typeof errorAnswer };
}
