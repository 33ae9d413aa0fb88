import { type ClassValue, clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/**
 * Sets up class merging in a task of its own, after the first screen is asked to draw: done by the
 * first `cn` instead, it would lengthen the task that draws the screen the user waits for.
 */
export function prepareClassMerging(): void {
  setTimeout(() => cn('p-0', 'p-1'));
}
