import { easternTime, easternToday, nextDate } from '@shiftcover/domain';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo';
import type { Client } from '../testing/http';
import { axeViolations } from './axe';
import { DESKTOP, type E2E, PHONE, SCREENSHOT_DIR, startE2E } from './browser';

const everyAdminTab = [
  'Pending Approvals',
  'Shift Management',
  'Drop Requests',
  'Shifts in Progress',
  'User Management',
  'Credentials & Rules',
  'Analytics',
];

describe('the Admin Dashboard in a real browser', () => {
  let e2e: E2E;
  let superAdmin: Client;

  beforeAll(async () => {
    e2e = await startE2E();
    superAdmin = e2e.server.anonymous();
    const reply = await superAdmin.post('/api/auth/login', {
      username: 'morgan.lee',
      password: DEMO_PASSWORD,
    });
    expect(reply.status).toBe(200);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  async function openAdmin(username: string, viewport = DESKTOP): Promise<Page> {
    const page = await (await e2e.context(viewport)).newPage();
    await e2e.signIn(page, username);
    await page.goto('/admin');
    return page;
  }

  /** The tab names, without their count badges. */
  async function tabNames(page: Page): Promise<string[]> {
    const tabs = page.getByRole('tablist', { name: 'Management Tools' }).getByRole('tab');
    await tabs.first().waitFor();
    return (await tabs.allInnerTexts()).map((text) => text.replace(/\d[\s\S]*$/, '').trim());
  }

  async function openTab(page: Page, name: string) {
    await page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
  }

  // Evaluated in the page, where the DOM exists.
  const noSideScroll = (page: Page) =>
    page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');

  it('shows staff Access Denied', async () => {
    const page = await openAdmin('alex.rivera');
    await page.getByText('Access Denied', { exact: true }).first().waitFor();
    expect(await page.getByRole('heading', { name: 'Admin Dashboard' }).count()).toBe(0);
  });

  it('gives a plain admin the summary cards and only the everyday tabs, on desktop and phone', async () => {
    const page = await openAdmin('jamie.cole');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await page.getByText('Manage shifts, staff, and operations').waitFor();
    for (const label of ['Open Shifts', 'Covered Shifts', 'Total Shifts', 'This month']) {
      await page.getByText(label, { exact: true }).first().waitFor();
    }
    await page.getByText(/\d+ emergency, \d+ urgent/).waitFor();
    await page.getByText(/\d+% coverage/).waitFor();
    expect(await tabNames(page)).toEqual(everyAdminTab);
    await expect
      .poll(() => page.getByRole('tab', { selected: true }).innerText())
      .toMatch(/^Pending Approvals/);
    await page.getByRole('tabpanel').getByRole('heading', { name: 'Pending Approvals' }).waitFor();
    await e2e.screenshot(page, 'admin-desktop');

    const phone = await openAdmin('jamie.cole', PHONE);
    await phone.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await phone.getByRole('tab', { name: /^User Management/ }).waitFor();
    expect(await noSideScroll(phone)).toBe(true);
    await phone.getByRole('tab', { name: /^User Management/ }).focus();
    await phone.keyboard.press('ArrowLeft');
    await expect
      .poll(() => phone.getByRole('tab', { selected: true }).innerText())
      .toMatch(/^Shifts in Progress/);
    await e2e.screenshot(phone, 'admin-phone');
  });

  it('gives a super admin Residences, Completed Shifts and Audit Logs, but not Developer tools', async () => {
    const page = await openAdmin('morgan.lee');
    expect(await tabNames(page)).toEqual([...everyAdminTab, 'Residences', 'Completed Shifts', 'Audit Logs']);
  });

  it('filters Shift Management and shows it ten at a time', async () => {
    type Listed = { type: string; status: string }[];
    const managedOf = (shifts: Listed) =>
      shifts.filter((s) => s.status !== 'completed' && s.status !== 'expired');
    // The tab reads every status a server page at a time, the demo's month of history first.
    const pages: Listed[] = [];
    for (let next: string | undefined = '/api/shifts?status=all&limit=100'; next; ) {
      const reply = await superAdmin.get(next);
      pages.push(reply.body as unknown as Listed);
      next = /^<([^>]+)>; rel="next"$/.exec(reply.headers.get('link') ?? '')?.[1];
    }
    const managed = managedOf(pages.flat());
    const pm = managed.filter((s) => s.type === 'PM').length;
    expect(managed.length).toBeGreaterThan(20);
    const loaded = managedOf(pages[0]!).length;
    expect(loaded).toBeGreaterThan(10);

    const page = await openAdmin('jamie.cole');
    await openTab(page, 'Shift Management');
    await page.getByText(`Showing 10 of ${loaded} shifts`).waitFor();
    await page.getByRole('button', { name: `Load More Shifts (${loaded - 10} remaining)` }).click();
    await page.getByText(`Showing ${Math.min(20, loaded)} of ${loaded} shifts`).waitFor();
    // Load More hides while it fetches the next server page: click it whenever it is there, until all are shown.
    const everyShift = page.getByText(`Showing ${managed.length} of ${managed.length} shifts`);
    const loadMore = page.getByRole('button', { name: /^Load More Shifts/ });
    await expect
      .poll(
        async () => {
          if (await everyShift.isVisible()) return true;
          if (await loadMore.isVisible()) await loadMore.click();
          return false;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await page.getByRole('button', { name: 'Show Less' }).click();
    await page.getByText(`Showing 10 of ${managed.length} shifts`).waitFor();

    const panel = page.getByRole('tabpanel');
    await panel.getByLabel('Type', { exact: true }).selectOption('PM');
    await page.getByText(`Showing ${Math.min(10, pm)} of ${pm} shifts`).waitFor();
    await page.getByText(`(filtered from ${managed.length} total)`).waitFor();
    await panel.getByLabel('Date', { exact: true }).selectOption('past');
    await page.getByText('No shifts match your filters').waitFor();
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.getByText(`Showing 10 of ${managed.length} shifts`).waitFor();
    expect(await page.getByRole('button', { name: 'Clear Filters' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Create Shift' }).waitFor();
    await e2e.screenshot(page, 'shift-management-desktop');
  });

  it('brings Shift Management’s next server page with Load More, by keyboard, announced politely', async () => {
    /**
     * A read after the burst of posts below: on a loaded machine the read models may take longer
     * than a read waits for them (503, 'Please try again in a moment'), and it is asked again, as the
     * message says.
     */
    async function settledGet(path: string) {
      for (let attempt = 1; ; attempt++) {
        const reply = await superAdmin.get(path);
        if (reply.status !== 503 || attempt === 6) {
          expect(reply.status, JSON.stringify(reply.body)).toBe(200);
          return reply;
        }
      }
    }
    /** Every shift in every status, following the list's next links. */
    async function everyShift(path = '/api/shifts?status=all') {
      const shifts: { status: string }[] = [];
      for (let next: string | undefined = path; next; ) {
        const reply = await settledGet(next);
        shifts.push(...(reply.body as unknown as { status: string }[]));
        next = /^<([^>]+)>; rel="next"$/.exec(reply.headers.get('link') ?? '')?.[1];
      }
      return shifts;
    }
    const managed = (shifts: { status: string }[]) =>
      shifts.filter((s) => s.status !== 'completed' && s.status !== 'expired').length;
    const start = new Date(Date.now() + 45 * 86_400_000);
    await Promise.all(
      Array.from({ length: 4 }, async (_, worker) => {
        for (let i = worker; i < 60; i += 4) {
          const at = new Date(start.getTime() + i * 3_600_000);
          const end = new Date(at.getTime() + 4 * 3_600_000);
          const reply = await superAdmin.post('/api/shifts', {
            location: 'Maple House',
            type: 'AM',
            date: easternToday(at),
            startTime: easternTime(at),
            endTime: easternTime(end),
          });
          expect(reply.status).toBe(201);
        }
      }),
    );
    const firstReply = await settledGet('/api/shifts?status=all&limit=100');
    const firstPage = managed(firstReply.body as never);
    const total = managed(await everyShift());
    expect(total).toBeGreaterThan(firstPage);

    const page = await openAdmin('jamie.cole');
    await openTab(page, 'Shift Management');
    const summary = page.getByText(/^Showing \d+ of \d+ shifts/);
    await page.getByText(`Showing 10 of ${firstPage} shifts`).waitFor();
    expect(await summary.getAttribute('aria-live')).toBe('polite');
    while (await page.getByRole('button', { name: /^Load More Shifts \(/ }).isVisible()) {
      await page.getByRole('button', { name: /^Load More Shifts \(/ }).click();
    }
    await page.getByText(`Showing ${firstPage} of ${firstPage} shifts`).waitFor();
    const fromServer = page.getByRole('button', { name: 'Load More Shifts', exact: true });
    await fromServer.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => summary.innerText())
      .toMatch(new RegExp(`^Showing ${firstPage + 10} of \\d+ shifts`));
    expect(await axeViolations(page, 'Shift Management after Load More')).toEqual([]);
    for (let more = page.getByRole('button', { name: /^Load More Shifts/ }); await more.isVisible(); ) {
      await more.click();
    }
    await page.getByText(`Showing ${total} of ${total} shifts`).waitFor();
  });

  it('shows a shift being worked now with its progress', async () => {
    // A shift running from up to an hour ago to an hour from now, given to a staff member who is free.
    const now = new Date();
    const hour = Number(easternTime(now).slice(0, 2));
    const pad = (h: number) => `${String(h).padStart(2, '0')}:00`;
    const posted = await superAdmin.post('/api/shifts', {
      location: 'Cedar Grove',
      date: easternToday(now),
      startTime: pad(Math.max(0, hour - 1)),
      endTime: hour >= 23 ? '23:59' : pad(hour + 1),
      type: 'AM',
      status: 'open',
      notes: 'Running now',
    });
    expect(posted.status).toBe(201);
    const users = (await superAdmin.get('/api/users')).body as unknown as { id: string; role: string }[];
    let assigned = false;
    for (const user of users.filter((u) => u.role === 'staff')) {
      const reply = await superAdmin.post(`/api/shifts/${posted.body.id}/assign`, { staffId: user.id });
      if (reply.status === 200) {
        assigned = true;
        break;
      }
    }
    expect(assigned).toBe(true);
    await superAdmin.get('/api/shifts/in-progress');

    const page = await openAdmin('jamie.cole');
    await openTab(page, 'Shifts in Progress');
    await page.getByText('Shifts that are currently active and being worked by staff').waitFor();
    await page.getByText(/\d+ shift\(s\) currently active/).waitFor();
    const bar = page.getByRole('progressbar', { name: 'Cedar Grove progress' }).first();
    const value = Number(await bar.getAttribute('aria-valuenow'));
    expect(value).toBeGreaterThanOrEqual(0);
    expect(value).toBeLessThanOrEqual(100);
    await page.getByText(`${value}% complete`).first().waitFor();
    await page.getByText('In Progress', { exact: true }).first().waitFor();
    await e2e.screenshot(page, 'in-progress-desktop');
  });

  it('adds, edits and deletes a residence', async () => {
    const page = await openAdmin('morgan.lee');
    await openTab(page, 'Residences');
    await page.getByRole('heading', { name: 'Residence Management' }).waitFor();
    await page.getByText('Maple House', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add Residence' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('   ');
    await dialog.getByRole('button', { name: 'Add Residence' }).click();
    await dialog.getByText('Residence name is required').waitFor();
    await dialog.getByLabel('Name').fill('  Birch Cottage  ');
    await dialog.getByLabel('Description (optional)').fill('Two-bed respite home');
    await dialog.getByRole('button', { name: 'Add Residence' }).click();
    await page.getByRole('heading', { name: 'Birch Cottage', exact: true }).waitFor();
    await page.getByText('Two-bed respite home').waitFor();

    await page.getByRole('button', { name: 'Edit Birch Cottage' }).click();
    await expect.poll(() => dialog.getByLabel('Name').inputValue()).toBe('Birch Cottage');
    await dialog.getByLabel('Description (optional)').fill('Three-bed respite home');
    await dialog.getByLabel('Address (optional)').fill('7 Birch Road');
    await dialog.getByRole('button', { name: 'Update Residence' }).click();
    await page.getByText('Three-bed respite home').waitFor();
    await page.getByText('7 Birch Road').waitFor();
    await e2e.screenshot(page, 'residences-desktop');

    await page.getByRole('button', { name: 'Delete Birch Cottage' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Residence' }).click();
    await page.getByRole('heading', { name: 'Birch Cottage', exact: true }).waitFor({ state: 'detached' });
  });

  it('lists completed shifts with their filters', async () => {
    const records = (await superAdmin.get('/api/completed-shifts')).body as unknown as { location: string }[];
    expect(records.length).toBeGreaterThan(0);
    const maple = records.filter((r) => r.location === 'Maple House').length;
    const dayProgram = records.filter((r) => r.location === 'Day Program').length;

    const page = await openAdmin('morgan.lee');
    await openTab(page, 'Completed Shifts');
    const count = (label: string) =>
      page.getByText(label, { exact: true }).locator('xpath=following-sibling::p[1]').innerText();
    await expect.poll(() => count('Total Completed')).toBe(String(records.length));
    await expect.poll(() => count('Filtered Results')).toBe(String(records.length));
    await page
      .getByText(/Shift ID: /)
      .first()
      .waitFor();
    await page.getByText('How completed shifts work').waitFor();
    await page.getByRole('button', { name: 'Send Manual Report' }).waitFor();
    expect(await page.getByRole('button', { name: 'Clear All Records' }).count()).toBe(0);
    await e2e.screenshot(page, 'completed-shifts-desktop');

    const panel = page.getByRole('tabpanel');
    await panel.getByLabel('Location').selectOption('Maple House');
    await expect.poll(() => count('Filtered Results')).toBe(String(maple));
    await panel.getByLabel('Sort by').selectOption('duration');
    await panel.getByLabel('Location').selectOption('Day Program');
    await expect.poll(() => count('Filtered Results')).toBe(String(dayProgram));
    // The demo's history is completed by yesterday morning.
    await panel.getByLabel('Date range').selectOption('today');
    await page.getByText('No Matching Shifts').waitFor();
    await expect.poll(() => count('Total Completed')).toBe(String(records.length));
  });

  it('lets a developer send the report and clear every record, after confirming', async () => {
    const page = await openAdmin('dana.dev');
    expect(await tabNames(page)).toContain('Developer tools');
    await openTab(page, 'Completed Shifts');
    await page.getByText('Total Completed', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Clear All Records' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Clear All Records' }).click();
    await confirm.getByRole('button', { name: 'Clear All Records' }).click();
    await page.getByText('Records Cleared', { exact: true }).first().waitFor();
    await page
      .getByText(/\d+ completed shift records were cleared/)
      .first()
      .waitFor();
    await page.getByText('No Completed Shifts').waitFor();

    await page.getByRole('button', { name: 'Send Manual Report' }).click();
    await page.getByText('Report Sent', { exact: true }).first().waitFor();
  });
  it('shows Pending Approvals a hundred claims at a time, counting them all, and loads more by keyboard', async () => {
    // 104 claims by four people, each working every other day, past the days the other tests use.
    const people = ['riley.brooks', 'casey.nguyen', 'drew.santos', 'alex.rivera'];
    const claimants = await Promise.all(
      people.map(async (username) => {
        const client = e2e.server.anonymous();
        expect((await client.post('/api/auth/login', { username, password: DEMO_PASSWORD })).status).toBe(
          200,
        );
        return client;
      }),
    );
    let date = easternToday(new Date());
    for (let day = 0; day < 80; day++) date = nextDate(date);
    for (let round = 0; round < 26; round++) {
      await Promise.all(
        claimants.map(async (claimant, i) => {
          const posted = await superAdmin.post('/api/shifts', {
            location: 'Oak Lodge',
            date,
            startTime: '08:00',
            endTime: '12:00',
            type: 'AM',
            notes: `Paged claim ${round}-${i}`,
          });
          expect(posted.status).toBe(201);
          const claimed = await claimant.post(`/api/shifts/${posted.body.id}/claim`);
          expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
        }),
      );
      date = nextDate(nextDate(date));
    }
    const first = await superAdmin.get('/api/shifts/pending?limit=100');
    const total = Number(first.headers.get('x-total-count'));
    expect(total).toBeGreaterThanOrEqual(104);

    const page = await openAdmin('morgan.lee');
    const panel = page.getByRole('region', { name: /^Pending Approvals/ });
    const cards = panel.getByRole('article');
    await panel.getByLabel(`${total} waiting`).waitFor();
    await page.getByRole('tab', { name: new RegExp(`^Pending Approvals.*${total}`) }).waitFor();
    await expect.poll(() => cards.count()).toBe(100);
    const more = panel.getByRole('button', { name: `Load More Claims (${total - 100} remaining)` });
    await more.focus();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/pending-approvals-load-more.png` });
    // The next page is held on its way while a new claim comes in live: the refresh that follows
    // cancels that page and reads the first again, and the press must still bring the next page.
    let nextPageAsked = false;
    let releaseNextPage = () => {};
    await page.route(
      (url) => url.pathname === '/api/shifts/pending' && url.searchParams.has('cursor'),
      async (route) => {
        nextPageAsked = true;
        await new Promise<void>((release) => {
          releaseNextPage = release;
        });
        await route.continue().catch(() => undefined); // the browser may have let it go
      },
      { times: 1 },
    );
    // Pressed on the button itself: the live refreshes of the claims above may have drawn the list
    // again since it was focused.
    await more.press('Enter');
    await expect.poll(() => nextPageAsked).toBe(true);
    const late = await superAdmin.post('/api/shifts', {
      location: 'Oak Lodge',
      date,
      startTime: '08:00',
      endTime: '12:00',
      type: 'AM',
      notes: 'Claimed while the next page loads',
    });
    expect(late.status).toBe(201);
    expect((await claimants[0]!.post(`/api/shifts/${late.body.id}/claim`)).status).toBe(200);
    await panel.getByLabel(`${total + 1} waiting`).waitFor();
    releaseNextPage();
    await expect.poll(() => cards.count()).toBe(Math.min(total + 1, 200));
    if (total < 200) expect(await panel.getByRole('button', { name: /^Load More Claims/ }).count()).toBe(0);
    expect(await axeViolations(page, 'Pending Approvals after Load More Claims')).toEqual([]);
    // 208 requests to set up, and axe over 200 cards: on two busy cores, seen to take 40 s to
    // sign in and 90 s for axe; the browser tests' own limit (browser.ts) allows for it.
  });
});
