import { easternToday, formatShiftDate, nextDate } from '@shiftcover/domain';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo';
import type { Client } from '../testing/http';
import { DESKTOP, type E2E, PHONE, revealCard, startE2E } from './browser';

/** Days ahead of today, past the three weeks the demo data fills, so test shifts never overlap it. */
function daysAhead(days: number): string {
  let date = easternToday(new Date());
  for (let i = 0; i < days; i++) date = nextDate(date);
  return date;
}

describe('the Available Shifts screen in a real browser', () => {
  let e2e: E2E;
  let admin: Client;

  async function postShift(
    notes: string,
    date: string,
    hours: { startTime: string; endTime: string; type: string } = {
      startTime: '08:00',
      endTime: '16:00',
      type: 'AM',
    },
  ) {
    const reply = await admin.post('/api/shifts', {
      location: 'Oak Lodge',
      date,
      ...hours,
      status: 'open',
      notes,
    });
    expect(reply.status).toBe(201);
    await admin.get('/api/shifts');
  }

  async function openAs(username: string, viewport = DESKTOP): Promise<Page> {
    const page = await (await e2e.context(viewport)).newPage();
    await e2e.signIn(page, username);
    await page.getByRole('heading', { name: /Available Shifts/ }).waitFor();
    return page;
  }

  const card = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text });
  const toastTitle = (page: Page, title: string) => page.getByText(title, { exact: true }).first();
  const scrollsSideways = (page: Page) =>
    page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');

  beforeAll(async () => {
    e2e = await startE2E();
    admin = e2e.server.anonymous();
    expect(
      (await admin.post('/api/auth/login', { username: 'morgan.lee', password: DEMO_PASSWORD })).status,
    ).toBe(200);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('lets a staff member claim an open shift and see it pending', async () => {
    await postShift('Claim me from the list', daysAhead(24));
    const page = await openAs('alex.rivera');
    await page.getByText('Welcome back, Alex!').waitFor();
    await page.getByText('Quick Stats').first().waitFor();
    await card(page, 'Claim me from the list').waitFor();
    await e2e.screenshot(page, 'dashboard-desktop');

    // Everything, so the claimed shift stays in view once it is no longer open.
    await page.getByRole('complementary').getByLabel('Status').selectOption('all');
    const claimed = await revealCard(page, 'Claim me from the list');
    await claimed.getByRole('button', { name: 'Claim Shift' }).click();
    await toastTitle(page, 'Shift claimed successfully').waitFor();
    await claimed.getByText('Pending', { exact: true }).waitFor();
    await claimed.getByText('Assigned to').waitFor();
    expect(await claimed.getByRole('button', { name: 'Claim Shift' }).count()).toBe(0);

    const phone = await openAs('alex.rivera', PHONE);
    await phone.getByRole('article').first().waitFor();
    expect(await scrollsSideways(phone)).toBe(false);
    await e2e.screenshot(phone, 'dashboard-phone');
  });

  it('shows a shift across the night clocks fall back at its real length in a browser in India', async () => {
    // 01:30 happens twice that night; the shift starts at the first (daylight) one, so it lasts 9
    // hours. A browser whose zone is not whole hours off UTC once read it as the second: 8 hours.
    await postShift('Across the night clocks fall back', '2027-11-07', {
      startTime: '01:30',
      endTime: '09:30',
      type: 'Overnight',
    });
    const page = await (await e2e.context(DESKTOP, 'Asia/Kolkata')).newPage();
    await e2e.signIn(page, 'alex.rivera');
    const across = await revealCard(page, 'Across the night clocks fall back', 60_000);
    await across.getByText('(9 hours)').waitFor();
  });

  it('lets an admin create a shift through the confirmation step, edit it and delete it', async () => {
    const page = await openAs('morgan.lee');
    await page.getByRole('article').first().waitFor();
    await e2e.screenshot(page, 'dashboard-admin-desktop');

    await page.getByRole('button', { name: 'Create New Shift' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Create New Shift' }).waitFor();
    await dialog.getByRole('button', { name: 'Review Shift' }).click();
    await dialog.getByText('Location is required to create a shift').waitFor();
    await dialog.getByLabel('Location').selectOption('Maple House');
    await dialog.getByLabel('Preset').selectOption('day');
    expect(await dialog.getByLabel('Start Time').inputValue()).toBe('16:00');
    expect(await dialog.getByLabel('Shift Type').inputValue()).toBe('PM');
    await dialog.getByLabel('Date').fill(daysAhead(26));
    await dialog.getByLabel('Notes (optional)').fill('Created in the browser');
    await e2e.screenshot(page, 'create-shift-dialog-desktop');
    await dialog.getByRole('button', { name: 'Review Shift' }).click();
    await dialog.getByRole('heading', { name: 'Confirm Shift Creation' }).waitFor();
    await e2e.screenshot(page, 'create-shift-confirm-desktop');
    await dialog.getByRole('button', { name: 'Create Shift' }).click();
    await toastTitle(page, 'Shift created successfully').waitFor();
    const created = card(page, 'Created in the browser');
    await created.getByRole('heading', { name: 'Maple House PM Shift' }).waitFor();

    await created.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog');
    await edit.getByText('Update the shift details. Changes will be saved immediately.').waitFor();
    await edit.getByLabel('Notes (optional)').fill('Edited in the browser');
    await edit.getByRole('button', { name: 'Update Shift' }).click();
    await toastTitle(page, 'Shift updated successfully').waitFor();
    const edited = card(page, 'Edited in the browser');
    await edited.waitFor();

    // Its full history is one click away: who posted it and who changed what.
    await edited.getByRole('button', { name: /^History of/ }).click();
    const history = page.getByRole('dialog');
    await history.getByText('Shift posted', { exact: true }).waitFor();
    await history.getByText('Shift updated', { exact: true }).waitFor();
    await history.getByText(/notes: "Created in the browser" → "Edited in the browser"/).waitFor();
    expect(await history.getByText('by Morgan Lee').count()).toBe(2);
    await e2e.screenshot(page, 'shift-history-desktop');
    await page.keyboard.press('Escape');
    await history.waitFor({ state: 'detached' });

    await edited.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Are you sure you want to delete this shift?').waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toastTitle(page, 'Shift deleted successfully').waitFor();
    await edited.waitFor({ state: 'detached' });
  });

  it('shows the real hours of the nights clocks change, and refuses a time that does not exist', async () => {
    const overnight = { location: 'Oak Lodge', startTime: '00:00', endTime: '08:00', type: 'Overnight' };
    for (const [notes, date] of [
      ['Spring-forward night', '2027-03-14'],
      ['Fall-back night', '2027-11-07'],
    ] as const) {
      expect((await admin.post('/api/shifts', { ...overnight, date, notes })).status).toBe(201);
    }
    const skipped = await admin.post('/api/shifts', { ...overnight, date: '2027-03-14', startTime: '02:30' });
    expect(skipped).toMatchObject({
      status: 400,
      body: {
        message:
          '2:30 AM does not exist on Sun, Mar 14, 2027: clocks in Eastern time skip from 2:00 AM to 3:00 AM. Please choose another time.',
      },
    });
    await admin.get('/api/shifts');

    const page = await openAs('alex.rivera');
    await card(page, 'Spring-forward night').getByText('(7 hours)').waitFor();
    await card(page, 'Fall-back night').getByText('(9 hours)').waitFor();

    // The create form says the same before anything is sent.
    const creator = await openAs('morgan.lee');
    await creator.getByRole('button', { name: 'Create New Shift' }).click();
    const dialog = creator.getByRole('dialog');
    await dialog.getByLabel('Location').selectOption('Oak Lodge');
    await dialog.getByLabel('Date').fill('2027-11-07');
    await dialog.getByLabel('Start Time').fill('01:30');
    await dialog
      .getByText(
        '1:30 AM happens twice on Sun, Nov 7, 2027 as clocks fall back; the shift uses the first one (daylight time).',
      )
      .waitFor();
    await dialog.getByLabel('Date').fill('2027-03-14');
    await dialog.getByLabel('Start Time').fill('02:30');
    await dialog.getByRole('button', { name: 'Review Shift' }).click();
    await dialog.getByText(/^2:30 AM does not exist on Sun, Mar 14, 2027/).waitFor();
    await e2e.screenshot(creator, 'create-shift-dst-desktop');
  });

  it('draws a long list fifty cards at a time, the rest one keypress away', async () => {
    const CARDS_AT_ONCE = 50; // as web/src/features/shifts/available-shifts-screen.tsx draws them
    const page = await openAs('jamie.cole');
    await page.getByRole('article').first().waitFor();
    // Every shift, the month of demo history included: well over fifty.
    await page.getByRole('complementary').getByLabel('Status').selectOption('all');
    const heading = page.getByRole('heading', { name: /^Available Shifts \(\d+\)$/ });
    await expect
      .poll(async () => Number(/\((\d+)\)/.exec(await heading.innerText())?.[1]))
      .toBeGreaterThan(50);
    const total = Number(/\((\d+)\)/.exec(await heading.innerText())![1]);
    await expect.poll(() => page.getByRole('article').count()).toBe(CARDS_AT_ONCE);
    // Every card drawn is in Chromium's own accessibility tree, as a screen reader gets it, those far
    // below the screen too (a card the browser skips drawing off screen would not be).
    const cdp = await page.context().newCDPSession(page);
    const articlesInTree = async () => {
      const { nodes } = await cdp.send('Accessibility.getFullAXTree');
      return nodes.filter((node) => node.role?.value === 'article' && !node.ignored).length;
    };
    await expect.poll(articlesInTree).toBe(CARDS_AT_ONCE);
    await cdp.detach();
    const more = page.getByRole('button', { name: `Show More Shifts (${total - CARDS_AT_ONCE} remaining)` });
    await more.focus();
    // Back from Show More, the keyboard reaches the last card, drawn where it is.
    await page.keyboard.press('Shift+Tab');
    const last = page.getByRole('article').last();
    await expect.poll(() => last.evaluate((card) => card.contains(document.activeElement))).toBe(true);
    const shown = await last.evaluate((card) => {
      const { top, bottom } = card.getBoundingClientRect();
      return bottom > 0 && top < window.innerHeight;
    });
    expect(shown).toBe(true);
    await more.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('article').count()).toBe(Math.min(total, 2 * CARDS_AT_ONCE));
    // Another filter starts again from the first fifty.
    await page.getByRole('complementary').getByLabel('Status').selectOption('open');
    await expect.poll(() => page.getByRole('article').count()).toBeLessThanOrEqual(CARDS_AT_ONCE);
  });

  it('asks again whether a shift may be claimed only when that shift or the person’s own schedule changes', async () => {
    const asked: string[] = [];
    const context = await e2e.context();
    context.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (/^\/api\/shifts\/[^/]+\/eligibility$/.test(pathname)) asked.push(pathname);
    });
    const page = await context.newPage();
    await e2e.signIn(page, 'casey.nguyen');
    const heading = page.getByRole('heading', { name: /^Available Shifts \(\d+\)$/ });
    await heading.waitFor();
    await expect.poll(() => asked.length).toBeGreaterThan(2);
    await page.waitForTimeout(1_000);
    const seen = asked.length;
    // Someone else's change to another shift: the list is read again, the cards' answers are not.
    const before = await heading.innerText();
    await postShift('Posted while Casey looks', daysAhead(27));
    await expect.poll(() => heading.innerText()).not.toBe(before);
    await page.waitForTimeout(1_000);
    expect(asked.length - seen).toBeLessThanOrEqual(1);
    await context.close();
  });

  it('draws the first page of the list at once, counting the whole list, and reads the rest as it is wanted', async () => {
    // Pages of twenty, every page after the first held back until the test lets them through.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const asked: string[] = [];
    const context = await e2e.context();
    await context.route(
      (url) => url.pathname === '/api/shifts' && !url.searchParams.has('from'),
      async (route) => {
        const url = new URL(route.request().url());
        // Status 'all' is asked for without a status.
        if (!url.searchParams.has('status')) asked.push(url.search);
        if (url.searchParams.has('cursor')) await held;
        else url.searchParams.set('limit', '20');
        await route.continue({ url: url.toString() });
      },
    );
    const page = await context.newPage();
    await e2e.signIn(page, 'jamie.cole');
    await page.getByRole('complementary').getByLabel('Status').selectOption('all');
    // The heading counts the whole list from the first page's X-Total-Count.
    const heading = page.getByRole('heading', { name: /^Available Shifts \(\d+\)$/ });
    await heading.waitFor();
    const total = Number(/\((\d+)\)/.exec(await heading.innerText())![1]);
    expect(total).toBeGreaterThan(100);
    await expect.poll(() => page.getByRole('article').count()).toBe(20);
    // Fifty cards are drawn at first: the next page is asked for, and a spinner ends the list meanwhile.
    await page.getByText('Loading more shifts').waitFor();
    expect(await page.getByText('No shifts found').count()).toBe(0);

    release();
    await expect.poll(() => page.getByRole('article').count()).toBe(50);
    await page.getByRole('button', { name: `Show More Shifts (${total - 50} remaining)` }).waitFor();
    // The list holds the cards of one more Show More, and no more than that.
    await page.waitForTimeout(500);
    const cursors = asked.flatMap((search) => new URLSearchParams(search).get('cursor') ?? []);
    expect(new Set(cursors).size).toBe(1);
  });

  it('filters to urgent shifts on the server', async () => {
    const page = await openAs('jamie.cole');
    await page.getByRole('article').first().waitFor();
    await page.getByRole('complementary').getByLabel('Status').selectOption('urgent');
    await page.getByText('Urgent Coverage Needed').waitFor();
    await expect
      .poll(async () => {
        const texts = await page.getByRole('article').allTextContents();
        return texts.length > 0 && texts.every((t) => /Urgent|Emergency/.test(t));
      })
      .toBe(true);
    await page.getByRole('complementary').getByRole('button', { name: 'Clear' }).click();
    expect(await page.getByRole('complementary').getByLabel('Status').inputValue()).toBe('open');
  });

  it('shows the shifts on a calendar, a day’s shifts beside it', async () => {
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const page = await openAs('sam.patel', viewport);
      await page.getByRole('button', { name: 'Calendar' }).click();
      await page.getByRole('button', { name: 'Today' }).waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await e2e.screenshot(page, `calendar-${size}`);
      const busyDay = page.getByRole('button', { name: /: [1-9]\d* shifts?/ }).first();
      await busyDay.click();
      const sheet = page.getByRole('dialog');
      await sheet.getByRole('button', { name: 'Claim Shift' }).first().waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Next month' }).click();
      await page.getByRole('button', { name: 'Today' }).click();
    }
  });

  it('asks the server for the calendar month it shows, and no other days', async () => {
    const date = daysAhead(70);
    await postShift('Shown in its own month', date);
    const page = await openAs('sam.patel');
    const windows: { from: string | null; to: string | null }[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/shifts' && url.searchParams.has('from')) {
        windows.push({ from: url.searchParams.get('from'), to: url.searchParams.get('to') });
      }
    });
    await page.getByRole('button', { name: 'Calendar' }).click();
    await page.getByRole('button', { name: 'Today' }).waitFor();
    const day = page.getByRole('button', { name: `${formatShiftDate(date)}: 1 shift` });
    const monthIndex = (d: string) => Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7));
    for (let i = monthIndex(easternToday(new Date())); i < monthIndex(date); i++) {
      await page.getByRole('button', { name: 'Next month' }).click();
    }
    await day.click();
    await page.getByRole('dialog').getByText('Oak Lodge').first().waitFor();
    expect(windows.length).toBeGreaterThan(1);
    for (const { from, to } of windows) {
      // A month grid shows at most six weeks.
      const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
      expect(days).toBeGreaterThanOrEqual(27);
      expect(days).toBeLessThan(42);
    }
    expect(windows.some(({ from, to }) => from! <= date && date <= to!)).toBe(true);
    expect(windows[0]!.to! < date).toBe(true);
  });

  it('opens Filters & Locations on a phone and applies them', async () => {
    const page = await openAs('riley.brooks', PHONE);
    await page.getByRole('button', { name: 'Filters' }).click();
    const sheet = page.getByRole('dialog', { name: 'Filters & Locations' });
    await sheet.getByLabel('Location').selectOption('Oak Lodge');
    await e2e.screenshot(page, 'filters-phone');
    await sheet.getByRole('button', { name: 'Apply Filters' }).click();
    await sheet.waitFor({ state: 'detached' });
    await expect
      .poll(async () => {
        const titles = await page.getByRole('article').getByRole('heading').allTextContents();
        return titles.length > 0 && titles.every((t) => t.startsWith('Oak Lodge'));
      })
      .toBe(true);
  });
});
