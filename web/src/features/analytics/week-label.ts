import { easternInstant, formatEastern } from '@shiftcover/domain';

/** 'Nov 3': the Monday a week starts on, as the charts and the table name the week. */
export const weekLabel = (weekStart: string) => formatEastern(easternInstant(weekStart, '12:00'), 'MMM d');
