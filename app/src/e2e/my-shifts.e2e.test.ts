import { easternTime, easternToday, formatShiftDate, nextDate } from '@shiftcover/domain';
import { until } from '@shiftcover/testing';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo';
import type { Client } from '../testing/http';
import { AxeAudit, axeViolations } from './axe';
import {
  DESKTOP,
  type E2E,
  PHONE,
  SCREENSHOT_DIR,
  startE2E,
  untilInPage,
  untilServiceWorkerInCharge,
} from './browser';

/** Days ahead of today, past the three weeks the demo data fills, so test shifts never overlap it. */
function daysAhead(days: number): string {
  let date = easternToday(new Date());
  for (let i = 0; i < days; i++) date = nextDate(date);
  return date;
}

describe('My Shifts, transfers and approvals in a real browser', () => {
  let e2e: E2E;
  let admin: Client;
  const staff = new Map<string, Client>();

  async function as(username: string): Promise<Client> {
    const known = staff.get(username);
    if (known) return known;
    const client = e2e.server.anonymous();
    const reply = await client.post('/api/auth/login', { username, password: DEMO_PASSWORD });
    expect(reply.status).toBe(200);
    staff.set(username, client);
    return client;
  }

  /** Posts a shift as the super admin; the notes make its card easy to find. */
  async function postShift(notes: string, date: string, startTime = '08:00', endTime = '16:00') {
    const reply = await admin.post('/api/shifts', {
      location: 'Maple House',
      date,
      startTime,
      endTime,
      type: 'AM',
      status: 'open',
      notes,
    });
    expect(reply.status).toBe(201);
    return String(reply.body.id);
  }

  async function claim(shiftId: string, username: string, approve = false) {
    expect((await (await as(username)).post(`/api/shifts/${shiftId}/claim`)).status).toBe(200);
    if (approve) expect((await admin.post(`/api/shifts/${shiftId}/approve`)).status).toBe(200);
    // Reads wait for the writes above, so the browser opens on up-to-date lists.
    await admin.get('/api/shifts');
  }

  async function openAs(username: string, path: string, viewport = DESKTOP): Promise<Page> {
    const page = await (await e2e.context(viewport)).newPage();
    await e2e.signIn(page, username);
    await page.goto(path);
    return page;
  }

  const card = (scope: Page | Locator, text: string) => scope.getByRole('article').filter({ hasText: text });
  // Evaluated in the page, where the DOM exists.
  const scrollsSideways = (page: Page) =>
    page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');
  const toastTitle = (page: Page, title: string) => page.getByText(title, { exact: true }).first();

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await as('morgan.lee');
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('shows a staff member their summary, upcoming shifts, transfer requests and history', async () => {
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const page = await openAs('alex.rivera', '/my-shifts', viewport);
      await page.getByRole('heading', { name: 'My Shifts', level: 1 }).waitFor();
      await page.getByText('Upcoming Shifts', { exact: true }).first().waitFor();
      await page.getByText('This Week', { exact: true }).waitFor();
      await page.getByText('Total Hours (Week)', { exact: true }).waitFor();
      await page.getByRole('heading', { name: 'Transfer Requests' }).waitFor();
      const history = page.getByRole('heading', { name: 'Shift History' });
      await history.waitFor();
      await page.getByText('COMPLETED').first().waitFor();
      expect(await page.getByText('COMPLETED').count()).toBeLessThanOrEqual(5);
      // Staff never see shift ids.
      expect(await page.getByText(/^ID: /).count()).toBe(0);
      expect(await scrollsSideways(page)).toBe(false);
      await e2e.screenshot(page, `my-shifts-${size}`);
    }
  });

  it('subscribes to a calendar feed from My Shifts by keyboard, copies it and revokes it', async () => {
    const page = await openAs('alex.rivera', '/my-shifts');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.baseUrl });
    const subscribe = page.getByRole('button', { name: 'Subscribe in your calendar' });
    await subscribe.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Subscribe in your calendar' });
    await dialog.getByRole('button', { name: 'Create address' }).waitFor();
    // The dialog opens on its first control, the one that makes the address.
    await page.keyboard.press('Enter');
    const address = dialog.getByLabel('Calendar address');
    await address.waitFor();
    const url = await address.inputValue();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(await dialog.getByRole('link', { name: 'Open in calendar app' }).getAttribute('href')).toBe(
      url.replace(/^http:/, 'webcal:'),
    );
    await page.screenshot({ path: `${SCREENSHOT_DIR}/calendar-feed-dialog-desktop.png` });
    const audit = new AxeAudit();
    await audit.checkBothWidths(page, 'calendar feed dialog');
    expect(audit.problems).toEqual([]);

    await dialog.getByRole('button', { name: 'Copy address' }).focus();
    await page.keyboard.press('Enter');
    await toastTitle(page, 'Address Copied').waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(url);
    const feed = await fetch(url);
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain('BEGIN:VCALENDAR');

    await dialog.getByRole('button', { name: 'Revoke' }).focus();
    await page.keyboard.press('Enter');
    await toastTitle(page, 'Calendar Feed Revoked').waitFor();
    // Focus stays in the dialog, on the button that makes a new address.
    await untilInPage(page, () => document.activeElement?.textContent === 'Create address');
    await dialog.getByRole('button', { name: 'Close' }).focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    // Focus goes back to the button that opened the dialog, a moment after the dialog is gone.
    await untilInPage(page, () => document.activeElement?.textContent === 'Subscribe in your calendar');
    await until(async () => (await fetch(url)).status === 404, 5_000, 'the revoked address ends');
  });

  it('lets an admin approve one claim and deny another in Pending Approvals', async () => {
    const approved = await postShift('Claim to approve', daysAhead(24));
    const denied = await postShift('Claim to deny', daysAhead(24), '16:00', '23:00');
    await claim(approved, 'alex.rivera');
    await claim(denied, 'sam.patel');

    const page = await openAs('morgan.lee', '/admin');
    const panel = page.getByRole('region', { name: /^Pending Approvals/ });
    await card(panel, 'Claim to approve').waitFor();
    await card(panel, 'Claim to approve').getByText('Alex Rivera').waitFor();
    await panel.getByLabel('Location').selectOption('Maple House');
    await card(panel, 'Claim to deny').getByText('Sam Patel').waitFor();
    await e2e.screenshot(page, 'pending-approvals-desktop');

    await card(panel, 'Claim to approve').getByRole('button', { name: 'Approve' }).click();
    await toastTitle(page, 'Shift Approved').waitFor();
    await card(panel, 'Claim to approve').waitFor({ state: 'detached' });
    await card(panel, 'Claim to deny').getByRole('button', { name: 'Deny' }).click();
    await toastTitle(page, 'Shift Denied').waitFor();
    await card(panel, 'Claim to deny').waitFor({ state: 'detached' });

    const alex = await openAs('alex.rivera', '/my-shifts');
    await card(alex, 'Claim to approve').getByText('Approved', { exact: true }).waitFor();
    await card(alex, 'Claim to approve').getByRole('button', { name: 'Request Transfer' }).waitFor();
    const sam = await openAs('sam.patel', '/my-shifts');
    await sam.getByRole('heading', { name: 'Upcoming Shifts' }).waitFor();
    await sam.getByRole('heading', { name: 'Transfer Requests' }).waitFor();
    expect(await card(sam, 'Claim to deny').count()).toBe(0);
  });

  it('shows the pending approvals panel on a phone without sideways scrolling', async () => {
    await claim(await postShift('Claim seen on a phone', daysAhead(25)), 'jordan.kim');
    const page = await openAs('morgan.lee', '/admin', PHONE);
    await card(page.getByRole('region', { name: /^Pending Approvals/ }), 'Claim seen on a phone').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await e2e.screenshot(page, 'pending-approvals-phone');
  });

  it('takes drop requests from My Shifts to the admin, who approves one and denies the other', async () => {
    const kept = await postShift('Drop to deny', daysAhead(26));
    const dropped = await postShift('Drop to approve', daysAhead(27));
    await claim(kept, 'jordan.kim', true);
    await claim(dropped, 'jordan.kim', true);

    const jordan = await openAs('jordan.kim', '/my-shifts');
    for (const notes of ['Drop to deny', 'Drop to approve']) {
      await card(jordan, notes).getByRole('button', { name: 'Request Drop' }).click();
      await card(jordan, notes).getByText('Drop Requested').waitFor();
    }

    const page = await openAs('morgan.lee', '/admin');
    await page.getByRole('tab', { name: /Drop Requests/ }).click();
    const panel = page.getByRole('region', { name: /^Drop Requests/ });
    await card(panel, 'Drop to approve').getByText('Jordan Kim').waitFor();
    await card(panel, 'Drop to approve')
      .getByText(/^Requested /)
      .waitFor();
    await e2e.screenshot(page, 'drop-requests-desktop');
    await card(panel, 'Drop to approve').getByRole('button', { name: 'Approve' }).click();
    await toastTitle(page, 'Drop Request Approved').waitFor();
    await card(panel, 'Drop to approve').waitFor({ state: 'detached' });
    await card(panel, 'Drop to deny').getByRole('button', { name: 'Deny' }).click();
    await toastTitle(page, 'Drop Request Denied').waitFor();
    await card(panel, 'Drop to deny').waitFor({ state: 'detached' });

    await jordan.reload();
    await card(jordan, 'Drop to deny').getByRole('button', { name: 'Request Drop' }).waitFor();
    expect(await card(jordan, 'Drop to approve').count()).toBe(0);
  });

  it('refuses a drop with less than 4 hours notice and shows an admin the shift id', async () => {
    const soon = new Date(Date.now() + 2 * 3_600_000);
    const date = easternToday(soon);
    const start = easternTime(soon);
    const end = easternTime(new Date(soon.getTime() + 3_600_000));
    const shiftId = await postShift('Starting soon', date, start, end);
    await claim(shiftId, 'taylor.fox', true);

    const page = await openAs('taylor.fox', '/my-shifts');
    await card(page, 'Starting soon').getByText(`ID: ${shiftId}`).waitFor();
    await card(page, 'Starting soon').getByRole('button', { name: 'Request Drop' }).click();
    await toastTitle(page, 'Insufficient Notice').waitFor();
    await card(page, 'Starting soon').getByRole('button', { name: 'Request Drop' }).waitFor();
  });

  it('sends a shift to a colleague, who accepts it into their own schedule', async () => {
    await claim(await postShift('Transfer to accept', daysAhead(28)), 'casey.nguyen', true);

    const casey = await openAs('casey.nguyen', '/my-shifts');
    await card(casey, 'Transfer to accept').getByRole('button', { name: 'Request Transfer' }).click();
    const dialog = casey.getByRole('dialog', { name: 'Request Shift Transfer' });
    await dialog.getByRole('button', { name: 'Send Request' }).click();
    await dialog.getByText('Please select a staff member to transfer the shift to').waitFor();
    await dialog.getByLabel('Staff member').selectOption({ label: 'Riley Brooks (@riley.brooks)' });
    await dialog.getByLabel('Message (optional)').fill('Could you cover this one for me?');
    expect(await dialog.getByText('Please select a staff member to transfer the shift to').count()).toBe(0);
    // The viewport alone: a full-page capture would stretch the page behind the modal.
    await casey.screenshot({ path: `${SCREENSHOT_DIR}/transfer-dialog-desktop.png` });
    await dialog.getByRole('button', { name: 'Send Request' }).click();
    await toastTitle(casey, 'Transfer Request Sent').waitFor();
    await card(casey, 'Transfer to accept').getByText('Transfer Requested').waitFor();
    await card(casey, 'Transfer to accept')
      .getByRole('button', { name: 'Cancel Transfer Request' })
      .waitFor();

    const riley = await openAs('riley.brooks', '/my-shifts');
    const offer = riley.getByRole('listitem').filter({ hasText: 'Could you cover this one for me?' });
    await offer.getByText('From Casey Nguyen').waitFor();
    await offer.getByRole('button', { name: 'Accept' }).click();
    await toastTitle(riley, 'Transfer Accepted').waitFor();
    await card(riley, 'Transfer to accept').getByText('Approved', { exact: true }).waitFor();
    await offer.getByText('accepted').waitFor();

    await casey.reload();
    await casey.getByRole('heading', { name: 'Upcoming Shifts' }).waitFor();
    await casey.getByRole('heading', { name: 'Transfer Requests' }).waitFor();
    expect(await card(casey, 'Transfer to accept').count()).toBe(0);
  });

  it('keeps My Shifts readable offline, marked as such, refuses writes until the connection is back, and forgets it all on logout', async () => {
    await claim(await postShift('Read without a connection', daysAhead(30)), 'sam.patel', true);
    const page = await openAs('sam.patel', '/my-shifts', PHONE);
    const shift = card(page, 'Read without a connection');
    await shift.waitFor();
    // The worker installs once it has cached the app's files: seen past 15 s on two busy cores.
    await untilServiceWorkerInCharge(page);
    // Chromium's own verdict on the manifest, the icons and the worker. A test's browser context is
    // incognito, where Chromium never installs an app; nothing else may stand in the way.
    const devtools = await page.context().newCDPSession(page);
    const { installabilityErrors } = await devtools.send('Page.getInstallabilityErrors');
    // Left open, this session keeps the page out of the offline emulation below.
    await devtools.detach();
    expect(installabilityErrors.map((error) => error.errorId).filter((id) => id !== 'in-incognito')).toEqual(
      [],
    );
    // The worker that took over reads the screen's data again and keeps it: every read, since the
    // reload below draws the screen from these alone (on busy cores they arrive one by one).
    await untilInPage(
      page,
      () =>
        caches.open('shiftcover-data').then(async (cache) => {
          const kept = (await cache.keys()).map((request) => new URL(request.url).pathname);
          const reads = ['/api/auth/user', '/api/my-shifts', '/api/transfer-requests', '/api/my-time-off'];
          return (
            [...reads, '/api/notifications'].every((read) => kept.includes(read)) &&
            kept.some((read) => read.endsWith('/credentials'))
          );
        }),
      30_000,
    );

    await page.context().setOffline(true);
    await page.reload();
    await shift.waitFor();
    const banner = page.getByRole('status').filter({ hasText: 'You are offline.' });
    expect(await banner.textContent()).toMatch(
      /^You are offline\. Showing your shifts as of \d{1,2}:\d{2} [AP]M\. Changes need a connection\.$/,
    );
    expect(await axeViolations(page, '[My Shifts offline]')).toEqual([]);
    await e2e.screenshot(page, 'my-shifts-offline-phone');

    await shift.getByRole('button', { name: 'Request Drop' }).click();
    await toastTitle(page, 'Offline').waitFor();
    await page.getByText('You are offline. Requesting a drop needs a connection.', { exact: true }).waitFor();

    await page.context().setOffline(false);
    await banner.waitFor({ state: 'detached' });
    await shift.getByRole('button', { name: 'Request Drop' }).click();
    await shift.getByText('Drop Requested').waitFor();

    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('link', { name: 'Sign In to Continue' }).waitFor();
    expect(await page.evaluate<boolean>('caches.has("shiftcover-data")')).toBe(false);

    // Nothing kept says who is signed in: the page says it needs the connection, not that the
    // visitor signed out, and reads again by itself once the connection is back.
    await page.context().setOffline(true);
    await page.reload();
    await page.getByRole('alert').getByText('You are offline. Loading this needs a connection.').waitFor();
    const tryAgain = page.getByRole('button', { name: 'Try Again' });
    await tryAgain.waitFor();
    expect(await axeViolations(page, '[session unavailable offline]')).toEqual([]);
    // Tried again by keyboard without a connection: the same message, the focus where it was.
    await tryAgain.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText('You are offline. Loading this needs a connection.').waitFor();
    await tryAgain.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Try Again');
    await e2e.screenshot(page, 'session-unavailable-offline-phone');
    // Back online, it reads again: at the connection's return, or by itself soon after should
    // that first read still find no network.
    await page.context().setOffline(false);
    await page.getByRole('link', { name: 'Sign In to Continue' }).waitFor();
  });

  it('lets the sender cancel a transfer request they no longer want', async () => {
    const date = daysAhead(29);
    await claim(await postShift('Transfer to cancel', date), 'casey.nguyen', true);
    const casey = await openAs('casey.nguyen', '/my-shifts');
    const shift = card(casey, 'Transfer to cancel');
    await shift.getByRole('button', { name: 'Request Transfer' }).click();
    const dialog = casey.getByRole('dialog', { name: 'Request Shift Transfer' });
    await dialog.getByLabel('Staff member').selectOption({ label: 'Drew Santos (@drew.santos)' });
    await dialog.getByRole('button', { name: 'Send Request' }).click();
    await toastTitle(casey, 'Transfer Request Sent').waitFor();

    await shift.getByRole('button', { name: 'Cancel Transfer Request' }).click();
    await toastTitle(casey, 'Transfer Request Cancelled').waitFor();
    await shift.getByRole('button', { name: 'Request Transfer' }).waitFor();
    expect(await shift.getByText('Transfer Requested').count()).toBe(0);

    const drew = await openAs('drew.santos', '/my-shifts');
    await drew.getByRole('heading', { name: 'Transfer Requests' }).waitFor();
    await drew.getByRole('heading', { name: 'Shift History' }).waitFor();
    expect(await drew.getByText(formatShiftDate(date), { exact: false }).count()).toBe(0);
  });
});
