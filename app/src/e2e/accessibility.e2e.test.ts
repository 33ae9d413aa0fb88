import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo';
import { AxeAudit } from './axe';
import { DESKTOP, type E2E, PHONE, startE2E } from './browser';

describe('every screen passes axe-core (WCAG 2.2 AA) at 1280 px and 375 px, and works by keyboard', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  async function signedIn(username: string, viewport = DESKTOP): Promise<Page> {
    const page = await (await e2e.context(viewport)).newPage();
    await e2e.signIn(page, username);
    return page;
  }

  /** What has keyboard focus, as a screen reader would name it; 'BODY' when focus is lost. */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const active = document.activeElement;
      if (!active || active === document.body) return 'BODY';
      const label = active.getAttribute('aria-label') ?? active.textContent ?? '';
      return `${active.tagName} ${label.replace(/\s+/g, ' ').trim()}`.trim();
    });
  const focusInMain = (page: Page) => page.evaluate(() => Boolean(document.activeElement?.closest('main')));

  /** Presses Tab until focus is on a control whose name matches, at most `limit` times; returns the count. */
  async function tabTo(page: Page, name: RegExp, limit = 40): Promise<number> {
    for (let presses = 1; presses <= limit; presses++) {
      await page.keyboard.press('Tab');
      if (name.test(await focused(page))) return presses;
    }
    throw new Error(`${name} not reached in ${limit} Tab presses (focus on ${await focused(page)})`);
  }

  it('signed out: landing, sign-in and not-found', async () => {
    const audit = new AxeAudit();
    const page = await (await e2e.context()).newPage();
    await page.goto('/');
    await page
      .getByRole('link', { name: /Sign In/ })
      .first()
      .waitFor();
    await audit.checkBothWidths(page, 'landing');
    await page.goto('/login');
    await page.getByLabel('Username').waitFor();
    await audit.checkBothWidths(page, 'sign in');
    const missing = await page.goto('/no-such-page');
    expect(missing?.status()).toBe(404);
    await page.getByRole('heading', { name: /not found/i }).waitFor();
    await audit.checkBothWidths(page, 'not found');
    expect(audit.problems).toEqual([]);
  });

  it('staff: Available Shifts (list and calendar), My Shifts, the account menu and the drawer', async () => {
    const audit = new AxeAudit();
    const page = await signedIn('alex.rivera');
    await page.getByRole('article').first().waitFor();
    await audit.checkBothWidths(page, 'available shifts');
    await page.getByRole('button', { name: 'Calendar' }).click();
    await page.getByRole('button', { name: 'Next month' }).waitFor();
    // The days of the month before are drawn muted in the first week: a month that starts on a
    // Sunday has none, so the next one is checked instead (of three months in a row, one has them).
    const firstCell = page.getByRole('button', { name: /^Sun, / }).first();
    for (let i = 0; i < 2; i++) {
      const label = await firstCell.getAttribute('aria-label');
      if (!/^Sun, \w+ 1, /.test(label ?? '')) break;
      await page.getByRole('button', { name: 'Next month' }).click();
      await expect.poll(() => firstCell.getAttribute('aria-label')).not.toBe(label);
    }
    await audit.checkBothWidths(page, 'calendar');
    await page.getByRole('button', { name: 'List' }).click();

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menu').waitFor();
    await audit.check(page, 'account menu');
    await page.getByRole('menuitem', { name: 'Change Password' }).click();
    await page.getByRole('dialog', { name: 'Change Password' }).waitFor();
    await audit.checkBothWidths(page, 'change password');
    await page.keyboard.press('Escape');

    await page.goto('/my-shifts');
    await page.getByRole('heading', { name: 'My Shifts', level: 1 }).waitFor();
    await audit.checkBothWidths(page, 'my shifts');
    await page
      .getByRole('button', { name: /Transfer/ })
      .first()
      .click();
    await page.getByRole('dialog', { name: /Transfer/ }).waitFor();
    await audit.checkBothWidths(page, 'request transfer');
    await page.keyboard.press('Escape');

    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).waitFor();
    await audit.check(page, 'drawer');
    await page.keyboard.press('Escape');
    await page.goto('/');
    await page
      .getByRole('button', { name: /Filters/ })
      .first()
      .click();
    await page.getByRole('dialog').waitFor();
    await audit.check(page, 'filters sheet');
    expect(audit.problems).toEqual([]);
  });

  it('developer: every Management Tools tab', async () => {
    const audit = new AxeAudit();
    const page = await signedIn('dana.dev');
    await page.goto('/admin');
    const tabs = page.getByRole('tab');
    await tabs.first().waitFor();
    for (let i = 0; i < (await tabs.count()); i++) {
      await tabs.nth(i).click();
      await page.getByRole('tabpanel').waitFor();
      const name = (await tabs.nth(i).innerText()).split('\n')[0];
      await audit.checkBothWidths(page, `admin: ${name}`);
    }
    expect(audit.problems).toEqual([]);
  }, 300_000);

  it('admin: the shift dialogs', async () => {
    const audit = new AxeAudit();
    const page = await signedIn('morgan.lee');

    await page.goto('/');
    await page.getByRole('article').first().waitFor();
    await page.getByRole('button', { name: 'Create New Shift' }).click();
    await page.getByRole('dialog', { name: 'Create New Shift' }).waitFor();
    await audit.checkBothWidths(page, 'create shift');
    await page.keyboard.press('Escape');
    const first = page.getByRole('article').first();
    await first.getByRole('button', { name: /^Edit/ }).click();
    await page.getByRole('dialog', { name: 'Edit Shift' }).waitFor();
    await audit.checkBothWidths(page, 'edit shift');
    await page.keyboard.press('Escape');
    await first.getByRole('button', { name: /History/ }).click();
    await page.getByRole('dialog', { name: /History/ }).waitFor();
    await audit.checkBothWidths(page, 'shift history');
    await page.keyboard.press('Escape');
    await first.getByRole('button', { name: /^Delete/ }).click();
    await page.getByRole('alertdialog').waitFor();
    await audit.checkBothWidths(page, 'delete confirmation');
    await page.keyboard.press('Escape');
    expect(audit.problems).toEqual([]);
  });

  it('keyboard only: sign in, skip to the main content and claim a shift; focus stays on the screen', async () => {
    const page = await (await e2e.context()).newPage();
    await page.goto('/login');
    await page.getByLabel('Username').waitFor();
    expect(await tabTo(page, /^A Skip to main content$/)).toBe(1);
    await tabTo(page, /^INPUT/);
    await page.keyboard.type('alex.rivera');
    await page.keyboard.press('Tab');
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /Welcome back/ }).waitFor();
    await page.getByRole('article').first().waitFor();

    await tabTo(page, /^A Skip to main content$/);
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatch(/^MAIN/);
    await tabTo(page, /^BUTTON Claim Shift$/);
    await page.keyboard.press('Enter');
    await page.getByText('Shift claimed successfully', { exact: true }).first().waitFor();
    await expect.poll(() => focused(page)).not.toBe('BODY');
    expect(await focusInMain(page)).toBe(true);
  });

  it('keyboard only: an admin approves a claim and focus moves to the next request', async () => {
    const page = await signedIn('morgan.lee');
    await page.goto('/admin');
    await page.getByRole('tabpanel').getByRole('button', { name: 'Approve' }).first().waitFor();
    await tabTo(page, /^A Skip to main content$/);
    await page.keyboard.press('Enter');
    await tabTo(page, /^BUTTON Approve$/, 60);
    await page.keyboard.press('Enter');
    await page
      .getByText(/approved/i)
      .first()
      .waitFor();
    await expect.poll(() => focused(page)).not.toBe('BODY');
    expect(await focusInMain(page)).toBe(true);
  });

  it('opens dialogs on their first field and gives focus back to what opened them', async () => {
    const page = await signedIn('morgan.lee');
    await page.getByRole('article').first().waitFor();

    // Create New Shift is the first stop after the skip link.
    await tabTo(page, /^A Skip to main content$/);
    await page.keyboard.press('Enter');
    expect(await tabTo(page, /^BUTTON Create New Shift$/)).toBe(1);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Create New Shift' }).waitFor();
    expect(await focused(page)).toMatch(/^SELECT/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(
      await page.getByRole('dialog').getByLabel('Location').getAttribute('id'),
    );
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('BUTTON Create New Shift');

    const first = page.getByRole('article').first();
    for (const [button, dialog] of [
      [/^Edit$/, 'Edit Shift'],
      [/^History of/, /History/],
    ] as const) {
      await first.getByRole('button', { name: button }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: dialog }).waitFor();
      await page.keyboard.press('Escape');
      await expect
        .poll(() => focused(page))
        .toMatch(new RegExp(`^BUTTON ${button.source.replace(/[\^$]/g, '')}`));
    }
    await first.getByRole('button', { name: /^Delete$/ }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor();
    expect(await focused(page)).toBe('BUTTON Cancel');
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('BUTTON Delete');

    const account = page.getByRole('button', { name: /Account menu/ });
    await account.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Change Password' }).waitFor();
    await expect.poll(() => focused(page)).toMatch(/Change Password/);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Change Password' }).waitFor();
    expect(await focused(page)).toMatch(/^INPUT/);
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toMatch(/^BUTTON .*Account menu for Morgan Lee$/);

    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Open menu' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Menu' }).waitFor();
    expect(await focused(page)).toBe('A Dashboard');
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('BUTTON Open menu');
  });

  it('opens Request Transfer on the staff member, the required field', async () => {
    const page = await signedIn('alex.rivera');
    await page.goto('/my-shifts');
    const transfer = page.getByRole('button', { name: 'Request Transfer' }).first();
    await transfer.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: /Transfer/ }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(
      await page.getByLabel('Staff member').getAttribute('id'),
    );
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('BUTTON Request Transfer');
  });
});
