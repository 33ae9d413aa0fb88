import { z } from 'zod';

/** One residence's week of coverage as GET /api/analytics/coverage answers (docs/product.md §2 Analytics). */
const coverageWeekViewSchema = z.object({
  residence: z.string(),
  weekStart: z.string(),
  posted: z.number(),
  filled: z.number(),
  unfilledAtStart: z.number(),
  fillRate: z.number(),
  medianHoursToFill: z.number().nullable(),
  p90HoursToFill: z.number().nullable(),
  lateDrops: z.number(),
  hoursByStaff: z.array(z.object({ userId: z.string(), name: z.string(), hours: z.number() })),
});

/** The weeks of the range asked for, with the range and the residences they cover. */
export const coverageViewSchema = z.object({
  from: z.string(),
  to: z.string(),
  residences: z.array(z.string()),
  weeks: z.array(coverageWeekViewSchema),
});
export type CoverageView = z.input<typeof coverageViewSchema>;
