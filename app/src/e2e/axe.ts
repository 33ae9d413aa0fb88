import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE } from './browser';

/** WCAG 2.0, 2.1 and 2.2, levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'];

/**
 * axe-core's WCAG violations on the page as it is now, one readable line per element:
 * "<where> <rule> (<impact>): <help> at <selector> – <what to fix>".
 */
export async function axeViolations(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${where} ${violation.id} (${violation.impact}): ${violation.help} at ${node.target.join(' ')} – ${(
          node.failureSummary ?? ''
        ).replace(/\s+/g, ' ')}`,
    ),
  );
}

/**
 * Collects violations over many screens of one test, so a run lists every problem at once, and
 * checks each screen at 1280 px and 375 px on the same page (resizing rather than reloading).
 */
export class AxeAudit {
  readonly problems: string[] = [];

  /** One axe pass at the page's current width. */
  async check(page: Page, where: string): Promise<void> {
    const width = page.viewportSize()?.width ?? 0;
    this.problems.push(...(await axeViolations(page, `[${where} @${width}px]`)));
  }

  /** One axe pass at each width, ending at the width the page had. */
  async checkBothWidths(page: Page, where: string): Promise<void> {
    const start = page.viewportSize() ?? DESKTOP;
    const other = start.width === DESKTOP.width ? PHONE : DESKTOP;
    await this.check(page, where);
    await page.setViewportSize(other);
    await this.check(page, where);
    await page.setViewportSize(start);
  }
}
