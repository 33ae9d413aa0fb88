import { readFile } from 'node:fs/promises';
import { easternToday } from '@shiftcover/domain';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo';
import { axeViolations } from './axe';
import { DESKTOP, type E2E, PHONE, startE2E } from './browser';

describe('User Management, Audit Logs, Analytics and Developer tools in a real browser', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  async function openTab(username: string, tab: string, viewport = DESKTOP): Promise<Page> {
    const page = await (await e2e.context(viewport)).newPage();
    await e2e.signIn(page, username);
    await page.goto('/admin');
    await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
    return page;
  }

  const noSideScroll = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first().waitFor();
  /** Screenshots start at the top, so the sticky header sits where it belongs. */
  async function shot(page: Page, name: string) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await e2e.screenshot(page, name);
  }
  const users = (page: Page) => page.getByRole('list', { name: 'Users' });

  it('lets a plain admin edit staff, with the role fixed, and leaves admins and developers alone', async () => {
    const page = await openTab('jamie.cole', 'User Management');
    await page.getByText(/^Showing 10 of 10 users$/).waitFor();
    await page.getByRole('button', { name: 'Edit Alex Rivera' }).waitFor();
    for (const name of ['Taylor Fox', 'Morgan Lee', 'Dana Okafor']) {
      expect(await page.getByRole('button', { name: `Edit ${name}` }).count()).toBe(0);
      expect(await page.getByRole('button', { name: `Delete ${name}` }).count()).toBe(0);
    }
    expect(await page.getByRole('button', { name: /^Change Password for/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Assign Residence to/ }).count()).toBe(0);

    await page.getByRole('button', { name: 'Edit Alex Rivera' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit User Account' });
    await dialog.getByText('Cannot be changed').waitFor();
    expect(await dialog.getByLabel('Role').count()).toBe(0);
    expect(await dialog.getByLabel('Email Notifications Enabled').count()).toBe(0);
    await dialog.getByLabel('Email').fill('not-an-address');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.getByText('Please enter a valid email address').waitFor();
    await dialog.getByLabel('Email').fill('alex.rivera@example.org');
    await dialog.getByLabel('Last Name').fill('Rivera-Stone');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'User Updated');
    await users(page).getByText('Alex Rivera-Stone').waitFor();

    // A plain admin creates staff accounts only.
    await page.getByRole('button', { name: 'Add User' }).click();
    const create = page.getByRole('dialog', { name: 'Create User Account' });
    await create.getByText('Cannot be changed').waitFor();
    expect(await create.getByLabel('Super Admin Privileges').count()).toBe(0);
  });

  it('lets a super admin create an admin, assign a residence, change a password and delete a user', async () => {
    const page = await openTab('morgan.lee', 'User Management');
    await page.getByText(/^Showing 10 of 10 users$/).waitFor();

    await page.getByRole('button', { name: 'Add User' }).click();
    const create = page.getByRole('dialog', { name: 'Create User Account' });
    await create.getByRole('button', { name: 'Create User' }).click();
    await create.getByText('Username must be at least 3 characters').waitFor();
    await create.getByText('First name is required').waitFor();
    await create.getByLabel('First Name').fill('Quinn');
    await create.getByLabel('Last Name').fill('Harper');
    await create.getByLabel('Username').fill('quinn.harper');
    await create.getByLabel('Email').fill('quinn.harper@example.org');
    await create.getByLabel('Password', { exact: true }).fill('harper-pass');
    await create.getByLabel('Confirm Password').fill('harper-typo');
    await create.getByLabel('Role').selectOption('admin');
    await create.getByLabel('Super Admin Privileges').waitFor();
    expect(await create.getByLabel('Email Notifications Enabled').count()).toBe(0);
    expect(await create.getByLabel('Role').locator('option').allInnerTexts()).toEqual(['Admin', 'Staff']);
    await create.getByRole('button', { name: 'Create User' }).click();
    await create.getByText("Passwords don't match").waitFor();
    await shot(page, 'create-user-dialog-desktop');
    await create.getByLabel('Confirm Password').fill('harper-pass');
    await create.getByRole('button', { name: 'Create User' }).click();
    await toast(page, 'User Created');
    await page.getByText(/^Showing 11 of 11 users$/).waitFor();

    await page.getByRole('button', { name: 'Assign Residence to Quinn Harper' }).click();
    const assign = page.getByRole('dialog', { name: 'Assign Residence' });
    await assign.getByRole('button', { name: 'Assign Residence' }).click();
    await assign.getByText('Please select a residence').waitFor();
    await assign.getByLabel('Residence').selectOption({ label: 'Cedar Grove' });
    await assign.getByRole('button', { name: 'Assign Residence' }).click();
    await toast(page, 'Residence Assigned');
    const quinn = users(page).getByRole('listitem').filter({ hasText: 'Quinn Harper' });
    await quinn.getByText('Cedar Grove').waitFor();

    await page.getByLabel('Residence', { exact: true }).selectOption({ label: 'Cedar Grove' });
    await page.getByText(/^Showing 1 of 11 users$/).waitFor();
    await page.getByLabel('Residence', { exact: true }).selectOption('all');
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await page.getByText(/^Showing 4 of 11 users$/).waitFor();
    await page.getByLabel('Role', { exact: true }).selectOption('all');

    await page.getByRole('button', { name: 'Change Password for Sam Patel' }).click();
    const password = page.getByRole('dialog', { name: 'Admin Change Password' });
    await password.getByLabel('New Password', { exact: true }).fill('fresh-pass-1');
    await password.getByLabel('Confirm New Password').fill('fresh-pass-2');
    await password.getByRole('button', { name: 'Change Password' }).click();
    await password.getByText("Passwords don't match").waitFor();
    await password.getByLabel('Confirm New Password').fill('fresh-pass-1');
    await password.getByRole('button', { name: 'Change Password' }).click();
    await toast(page, 'Password Changed');
    const sam = await e2e.server
      .anonymous()
      .post('/api/auth/login', { username: 'sam.patel', password: 'fresh-pass-1' });
    expect(sam.status).toBe(200);

    await page.getByRole('button', { name: 'Delete Drew Santos' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete User Account' });
    await confirm
      .getByText(
        "Are you sure you want to delete Drew Santos's account? This action cannot be undone and will permanently remove all their data.",
      )
      .waitFor();
    await confirm.getByRole('button', { name: 'Delete Account' }).click();
    await toast(page, 'User Deleted');
    await page.getByText(/^Showing 10 of 10 users$/).waitFor();
    expect(await users(page).getByText('Drew Santos').count()).toBe(0);
    await shot(page, 'users-desktop');

    const phone = await openTab('morgan.lee', 'User Management', PHONE);
    await users(phone).getByText('Quinn Harper').waitFor();
    expect(await noSideScroll(phone)).toBe(true);
    await shot(phone, 'users-phone');
  });

  it('filters the audit log by action, resets, shows details, and resends a new shift e-mail', async () => {
    const page = await openTab('morgan.lee', 'Audit Logs');
    const entries = page.getByRole('list', { name: 'Audit entries' }).getByRole('listitem');
    await entries.first().waitFor();
    const summary = page.getByText(/^Last 7 days · \d+ entries$/);
    const allText = await summary.innerText();
    await page.getByText(/^Showing \d+ of \d+ entries/).waitFor();

    await page.getByLabel('Action').selectOption('shift_created');
    // The filtered list replaces the full one once it has loaded: every entry shown is then a creation.
    await expect
      .poll(async () => {
        const shown = await entries.count();
        return shown > 0 && (await entries.filter({ hasText: 'Shift Created' }).count()) === shown;
      })
      .toBe(true);
    expect(await summary.innerText()).not.toBe(allText);
    await page.getByRole('button', { name: 'Reset Filters' }).click();
    await expect.poll(() => summary.innerText()).toBe(allText);
    expect(await page.getByLabel('Action').inputValue()).toBe('all');

    await page.getByLabel('Action').selectOption('shift_created');
    const first = entries.first();
    await first.getByText('View Technical Details').click();
    await first.locator('pre').waitFor();
    await shot(page, 'audit-logs-desktop');

    await first.getByRole('button', { name: 'Resend Email' }).click();
    const dialog = page.getByRole('dialog', { name: 'Select Recipients' });
    await dialog.getByLabel('Alex Rivera').waitFor();
    const send = dialog.getByRole('button', { name: /^Send to/ });
    expect(await send.innerText()).toBe('Send to 0 Recipients');
    expect(await send.isDisabled()).toBe(true);
    await dialog.getByLabel('Alex Rivera').check();
    await dialog.getByLabel('Sam Patel').check();
    expect(await send.innerText()).toBe('Send to 2 Recipients');
    expect(await send.isEnabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const phone = await openTab('morgan.lee', 'Audit Logs', PHONE);
    await phone.getByRole('list', { name: 'Audit entries' }).getByRole('listitem').first().waitFor();
    expect(await noSideScroll(phone)).toBe(true);
    await shot(phone, 'audit-logs-phone');
  });

  it('gives a developer the ticking Eastern clock and the e-mail notification mode switch', async () => {
    const page = await openTab('dana.dev', 'Developer tools');
    const clock = page.getByRole('timer', { name: 'Eastern time' });
    await clock.waitFor();
    const before = await clock.innerText();
    expect(before).toMatch(/^\d{1,2}:\d{2}:\d{2} (AM|PM)\s*E[SD]T$/);
    await expect.poll(() => clock.innerText(), { timeout: 3000 }).not.toBe(before);

    const mailingList = page.getByRole('radio', { name: /Mailing List/ });
    expect(await page.getByRole('radio', { name: /Individual/ }).isChecked()).toBe(true);
    await mailingList.check();
    await toast(page, 'Email Notification Mode Updated');
    expect(await mailingList.isChecked()).toBe(true);

    await page.getByLabel('Subject').fill('');
    await page.getByRole('button', { name: 'Send Test Email' }).click();
    await page.getByText('All fields are required').waitFor();
    await page.getByLabel('Email', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Run Diagnostic' }).click();
    await page.getByText('Email address is required for diagnostic').waitFor();
    await page.getByText('Email Queue Bulk Test').waitFor();
    await page.getByText(/^Total$/).waitFor();
    await shot(page, 'developer-tools-desktop');

    const phone = await openTab('dana.dev', 'Developer tools', PHONE);
    await expect.poll(() => phone.getByRole('radio', { name: /Mailing List/ }).isChecked()).toBe(true);
    await phone.getByRole('timer', { name: 'Eastern time' }).waitFor();
    expect(await noSideScroll(phone)).toBe(true);
  });

  it('shows a plain admin their residence’s coverage: charts, the table beside them, by keyboard, and a CSV', async () => {
    // The tab shows what the read models hold: first let them take in the whole demo history.
    const head = (await e2e.server.runtime.store.headPosition()).toString();
    const reader = e2e.server.anonymous();
    await reader.post('/api/auth/login', { username: 'jamie.cole', password: DEMO_PASSWORD });
    const caughtUp = () =>
      reader.call('GET', '/api/analytics/coverage?from=2026-01-01&to=2026-01-01', undefined, {
        'x-min-position': head,
      });
    await expect.poll(async () => (await caughtUp()).status, { timeout: 30_000 }).toBe(200);

    const page = await openTab('jamie.cole', 'Analytics');
    const table = page.getByRole('table', { name: 'Weekly figures by residence' });
    await table.getByRole('row').nth(2).waitFor();
    for (const chart of ['Shifts by week', 'Fill rate by residence', 'Hours by staff member'])
      await page.getByRole('img', { name: new RegExp(`^${chart}: `) }).waitFor();
    expect(await table.getByText('Maple House').count()).toBeGreaterThan(1);
    expect(await table.getByText('Oak Lodge').count()).toBe(0);
    expect(await page.getByRole('combobox', { name: 'Residence' }).count()).toBe(0);
    expect(await axeViolations(page, 'analytics')).toEqual([]);
    await shot(page, 'analytics-desktop');

    // From the tab, by keyboard alone, to the download.
    await page.getByRole('tab', { name: /^Analytics/ }).focus();
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    // A date field takes a stop for each of its month, day and year.
    for (let i = 0; i < 12 && (await focused()) !== 'Download CSV'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('Download CSV');
    const download = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    const csv = await readFile((await (await download).path())!, 'utf8');
    const lines = csv.split('\r\n').filter(Boolean);
    expect(lines[0]).toMatch(/^Week starting \(Monday\),Residence,Shifts posted/);
    expect(lines).toHaveLength(await table.getByRole('row').count());

    await page.getByLabel('From').fill('2030-02-01');
    await page.getByText('from must not be after to').waitFor();
  });

  it('pages the audit log a hundred entries at a time, keeping a press made while a change comes in live', async () => {
    // Past a hundred entries in the last seven days: 105 shifts posted, far ahead of the demo's.
    const admin = e2e.server.anonymous();
    expect(
      (await admin.post('/api/auth/login', { username: 'morgan.lee', password: DEMO_PASSWORD })).status,
    ).toBe(200);
    const date = easternToday(new Date(Date.now() + 200 * 86_400_000));
    const postShift = async (notes: string) => {
      const reply = await admin.post('/api/shifts', {
        location: 'Maple House',
        type: 'AM',
        date,
        startTime: '08:00',
        endTime: '12:00',
        notes,
      });
      expect(reply.status).toBe(201);
    };
    await Promise.all(
      Array.from({ length: 4 }, async (_, worker) => {
        for (let i = worker; i < 105; i += 4) await postShift(`Audited ${i}`);
      }),
    );

    const page = await openTab('morgan.lee', 'Audit Logs');
    const entries = page.getByRole('list', { name: 'Audit entries' }).getByRole('listitem');
    const footer = page.getByText(/^Showing \d+ of \d+ entries/);
    await page.getByText(/^Showing 100 of \d+ entries \(more available\)$/).waitFor();
    const total = Number(/of (\d+) entries/.exec(await footer.innerText())![1]);
    expect(total).toBeGreaterThan(100);

    // The next page is held on its way while a new shift is posted: the live refresh that follows
    // cancels that page and reads the first again, and the press must still bring the next page.
    let asked = () => {};
    let releaseNextPage = () => {};
    const nextPageAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    await page.route(
      (url) => url.pathname === '/api/audit-logs' && url.searchParams.get('offset') !== '0',
      async (route) => {
        asked();
        await new Promise<void>((release) => {
          releaseNextPage = release;
        });
        await route.continue().catch(() => undefined); // the browser may have let it go
      },
      { times: 1 },
    );
    await page.getByRole('button', { name: 'Load Next 100 Entries' }).focus();
    await page.keyboard.press('Enter');
    await nextPageAsked;
    await postShift('Posted while the next page loads');
    await page.getByText(new RegExp(`^Last 7 days · ${total + 1} entries$`)).waitFor();
    releaseNextPage();
    await expect.poll(() => entries.count()).toBe(Math.min(total + 1, 200));
    await footer.filter({ hasText: `Showing ${Math.min(total + 1, 200)} of ${total + 1} entries` }).waitFor();
  });
});
