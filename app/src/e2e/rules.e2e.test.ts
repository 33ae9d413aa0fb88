import { createCommandService } from '@shiftcover/command-api';
import { easternToday, nextDate } from '@shiftcover/domain';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo';
import type { Client } from '../testing/http';
import { AxeAudit, axeViolations } from './axe';
import { DESKTOP, type E2E, revealCard, SCREENSHOT_DIR, startE2E } from './browser';

/** Days ahead of today, past the three weeks the demo data fills, so these shifts meet nothing else. */
function daysAhead(days: number): string {
  let date = easternToday(new Date());
  for (let i = 0; i < days; i++) date = nextDate(date);
  return date;
}

describe('the rules on screen in a real browser', () => {
  let e2e: E2E;
  let admin: Client;
  const people = new Map<string, string>();

  async function postShift(shift: {
    notes: string;
    date: string;
    startTime?: string;
    endTime?: string;
    type?: string;
    requiredCredentials?: string[];
  }): Promise<string> {
    const reply = await admin.post('/api/shifts', {
      location: 'Oak Lodge',
      startTime: '08:00',
      endTime: '16:00',
      type: 'AM',
      status: 'open',
      ...shift,
    });
    expect(reply.status).toBe(201);
    return reply.body.id as string;
  }

  async function open(username: string, path = '/'): Promise<Page> {
    const page = await (await e2e.context(DESKTOP)).newPage();
    await e2e.signIn(page, username);
    if (path !== '/') await page.goto(path);
    return page;
  }

  /** A whole page from its top, so the sticky header sits where it belongs. */
  async function shot(page: Page, name: string) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await e2e.screenshot(page, name);
  }

  /** An open dialog alone, as the user sees it over the page. */
  async function dialogShot(page: Page, name: string) {
    await page.getByRole('dialog').screenshot({ path: `${SCREENSHOT_DIR}/${name}.png` });
  }

  const card = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text });
  const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first().waitFor();

  beforeAll(async () => {
    e2e = await startE2E();
    admin = e2e.server.anonymous();
    expect(
      (await admin.post('/api/auth/login', { username: 'morgan.lee', password: DEMO_PASSWORD })).status,
    ).toBe(200);
    const users = (await admin.get('/api/users')).body as unknown as { id: string; username: string }[];
    for (const user of users) people.set(user.username, user.id);
    expect((await admin.post('/api/credential-types', { name: 'Ventilator care' })).status).toBe(201);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('tells a staff member why they cannot claim a shift instead of offering the button', async () => {
    await postShift({
      notes: 'Needs ventilator care',
      date: daysAhead(30),
      requiredCredentials: ['Ventilator care'],
    });
    const page = await open('alex.rivera');
    const needing = await revealCard(page, 'Needs ventilator care');
    // A card asks only once it comes near the screen, as it does when the user scrolls to it.
    await needing.scrollIntoViewIfNeeded();
    await needing.getByText('You cannot claim this shift').waitFor();
    await needing.getByText('Missing credential:').waitFor();
    await needing
      .getByText(/Ventilator care/)
      .first()
      .waitFor();
    expect(await needing.getByRole('button', { name: 'Claim Shift' }).count()).toBe(0);
    await needing.screenshot({ path: `${SCREENSHOT_DIR}/rules-card-reasons.png` });

    const audit = new AxeAudit();
    await audit.checkBothWidths(page, 'Available Shifts with a refused card');
    expect(audit.problems).toEqual([]);
  });

  /** An administrator on Available Shifts with every status, so a shift stays in view once assigned. */
  async function openEveryStatus(): Promise<Page> {
    const page = await open('morgan.lee');
    await page.getByRole('complementary').getByLabel('Status').selectOption('all');
    return page;
  }

  /** The assign dialog of a shift, once the picker has marked `option`. */
  async function assignDialog(page: Page, notes: string, option: string) {
    await (await revealCard(page, notes)).getByRole('button', { name: 'Assign' }).click();
    const dialog = page.getByRole('dialog', { name: 'Assign Shift to Staff' });
    await dialog
      .getByLabel('Staff member')
      .locator('option', { hasText: option })
      .waitFor({ state: 'attached' });
    return dialog;
  }

  it('marks a staff member without the credential in the assign dialog, with no way round it', async () => {
    await postShift({
      notes: 'Needs a ventilator nurse',
      date: daysAhead(34),
      requiredCredentials: ['Ventilator care'],
    });
    const page = await openEveryStatus();
    const dialog = await assignDialog(
      page,
      'Needs a ventilator nurse',
      'Alex Rivera (@alex.rivera): not eligible, Missing credential',
    );
    await dialog.getByLabel('Staff member').selectOption(people.get('alex.rivera')!);
    await dialog.getByText('This staff member cannot take this shift').waitFor();
    await dialog.getByText('A missing credential or time off cannot be overridden.').waitFor();
    expect(await dialog.getByRole('button', { name: 'Assign Shift' }).isDisabled()).toBe(true);
    expect(await dialog.getByLabel('Assign anyway, against the working-time rules').count()).toBe(0);
    await dialogShot(page, 'rules-assign-credential');
    expect(await axeViolations(page, 'Assign dialog, missing credential')).toEqual([]);
  });

  it('assigns against a working-time rule only with a reason, which the history keeps', async () => {
    // Alex works until 23:00; a shift at 05:00 the next morning leaves 6 hours of rest.
    const evening = await postShift({
      notes: 'Late one',
      date: daysAhead(32),
      startTime: '15:00',
      endTime: '23:00',
      type: 'PM',
    });
    const alex = people.get('alex.rivera')!;
    expect((await admin.post(`/api/shifts/${evening}/assign`, { staffId: alex })).status).toBe(200);
    await postShift({
      notes: 'Early the next day',
      date: daysAhead(33),
      startTime: '05:00',
      endTime: '13:00',
    });

    const page = await openEveryStatus();
    const dialog = await assignDialog(
      page,
      'Early the next day',
      'Alex Rivera (@alex.rivera): not eligible, Rest between shifts',
    );
    await dialog.getByLabel('Staff member').selectOption(alex);
    await dialog.getByText('Rest between shifts:').waitFor();
    await dialog.getByLabel('Assign anyway, against the working-time rules').check();
    await dialog.getByRole('button', { name: 'Assign Anyway' }).click();
    await dialog.getByText('A reason is required to assign anyway').waitFor();
    await dialog.getByLabel('Reason for the override').fill('No one else holds the keys this week');
    await dialogShot(page, 'rules-assign-override');
    expect(await axeViolations(page, 'Assign dialog, override')).toEqual([]);
    await dialog.getByRole('button', { name: 'Assign Anyway' }).click();
    await toast(page, 'Shift Assigned');

    const early = await revealCard(page, 'Early the next day');
    await early.getByText('Assigned to').waitFor();
    await early.getByRole('button', { name: /^History of/ }).click();
    await page
      .getByRole('dialog', { name: 'Shift History' })
      .getByText(/against the working-time rules: No one else holds the keys this week/)
      .waitFor();
    await dialogShot(page, 'rules-history-override');
  });

  it('keeps a refused claim in the shift’s history', async () => {
    // The demo's medication round, which Jordan tried to claim with a lapsed certificate.
    const page = await open('morgan.lee');
    await (await revealCard(page, 'Morning medication round'))
      .getByRole('button', { name: /^History of/ })
      .click();
    const history = page.getByRole('dialog', { name: 'Shift History' });
    const refused = history.getByRole('listitem').filter({ hasText: 'Shift refused' });
    await refused.getByText('by Jordan Kim').waitFor();
    await refused.getByText(/missing_credential/).waitFor();
    await dialogShot(page, 'rules-history-refusal');
  });

  it('lets an administrator keep the credential list, record a credential and change the rules', async () => {
    const page = await open('morgan.lee', '/admin');
    await page.getByRole('tab', { name: /^Credentials & Rules/ }).click();
    const types = page.getByRole('list', { name: 'Credential types' });
    await types.getByText('Ventilator care').waitFor();
    await page.getByLabel('New credential type').fill('Lifting and handling');
    await page.getByRole('button', { name: 'Add Credential Type' }).click();
    await types.getByText('Lifting and handling').waitFor();
    const current = page.getByRole('form', { name: 'Current rules' });
    expect(await current.getByLabel('Minimum rest between shifts').inputValue()).toBe('8');
    expect(await current.getByLabel('Maximum hours per week').inputValue()).toBe('60');
    expect(await current.getByLabel('Maximum days in a row').inputValue()).toBe('6');

    // What if the rest were 12 hours: the override above would have broken it.
    const whatIf = page.getByRole('form', { name: 'Proposed rules' });
    await whatIf.getByLabel('Minimum rest between shifts').fill('12');
    await page.getByRole('button', { name: 'Replay Under These Rules' }).click();
    await page
      .getByRole('region', { name: 'What-if answer' })
      .or(page.getByText('No one would have broken these rules'))
      .waitFor();
    await shot(page, 'rules-tab-desktop');
    const audit = new AxeAudit();
    await audit.checkBothWidths(page, 'Credentials & Rules tab');

    await page.getByRole('tab', { name: /^User Management/ }).click();
    await page.getByRole('button', { name: 'Credentials and Time Off of Sam Patel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Credentials & Time Off' });
    await dialog.getByLabel('Credential', { exact: true }).selectOption('Ventilator care');
    await dialog.getByLabel('Expires on (optional)').fill(daysAhead(10));
    await dialog.getByRole('button', { name: 'Record' }).click();
    await toast(page, 'Credential Recorded');
    const recorded = dialog
      .getByRole('list', { name: 'Credentials of Sam Patel' })
      .getByRole('listitem')
      .filter({ hasText: 'Ventilator care' });
    await recorded.getByText('Expires soon').waitFor();
    await dialogShot(page, 'rules-person-credentials');
    await audit.check(page, 'Credentials & Time Off dialog');
    expect(audit.problems).toEqual([]);
  });

  it('shows staff their credentials and lets them add and delete time off by keyboard', async () => {
    const page = await open('sam.patel', '/my-shifts');
    const credentials = page.getByRole('list', { name: 'Credentials of you' });
    await credentials.getByText('Ventilator care').waitFor();
    // Recorded by an administrator elsewhere: the open screen shows it without a reload.
    const recorded = await admin.post(`/api/users/${people.get('sam.patel')}/credentials`, {
      name: 'Medication administration',
    });
    expect(recorded.status).toBe(201);
    await credentials.getByText('Medication administration').waitFor();

    await page.getByLabel('First day off').fill(daysAhead(40));
    await page.getByLabel('Last day off').fill(daysAhead(39));
    await page.getByRole('button', { name: 'Add Time Off' }).click();
    await page.getByText('End date cannot be before the start date').waitFor();
    await page.getByLabel('Last day off').fill(daysAhead(42));
    await page.getByLabel('Note (optional)').fill('Dentist in the city');
    await page.getByLabel('Note (optional)').press('Enter');
    await toast(page, 'Time Off Added');
    const timeOff = page.getByRole('list', { name: 'Your time off' });
    const added = timeOff.getByRole('listitem').filter({ hasText: 'Dentist in the city' });
    await added.waitFor();
    await shot(page, 'rules-my-time-off-desktop');
    const audit = new AxeAudit();
    await audit.checkBothWidths(page, 'My Shifts with time off and credentials');
    expect(audit.problems).toEqual([]);

    await added.getByRole('button', { name: /^Delete time off/ }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Time Off Removed');
    await added.waitFor({ state: 'detached' });
  });

  it('ranks the claims for one slot with their reasons, and opens the alternatives by keyboard', async () => {
    // Past the demo's time off, on a day after Sunday so the day before it is in the same week.
    let date = daysAhead(61);
    while (new Date(`${date}T12:00:00Z`).getUTCDay() === 0) date = nextDate(date);
    let dayBefore = daysAhead(60);
    while (nextDate(dayBefore) !== date) dayBefore = nextDate(dayBefore);
    const before = await postShift({ notes: 'Jordan the day before', date: dayBefore });
    expect(
      (await admin.post(`/api/shifts/${before}/assign`, { staffId: people.get('jordan.kim')! })).status,
    ).toBe(200);
    const claims = [
      ['jordan.kim', await postShift({ notes: 'Ranked opening one', date })],
      ['sam.patel', await postShift({ notes: 'Ranked opening two', date })],
    ] as const;
    for (const [username, shiftId] of claims) {
      const person = e2e.server.anonymous();
      expect((await person.post('/api/auth/login', { username, password: DEMO_PASSWORD })).status).toBe(200);
      const claimed = await person.post(`/api/shifts/${shiftId}/claim`);
      expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    }

    const page = await open('morgan.lee', '/admin');
    const panel = page.getByRole('region', { name: /^Pending Approvals/ });
    const sam = card(page, 'Ranked opening two');
    await sam.getByText('Rank 1 of 2 for this slot').waitFor();
    await sam.getByText('No other hours that week').waitFor();
    const jordan = card(page, 'Ranked opening one');
    await jordan.getByText('Rank 2 of 2 for this slot').waitFor();
    await jordan.getByText('8 h already that week').waitFor();
    await jordan.getByText('16 h rest before, over 48 h after').waitFor();
    const slot = await panel.getByRole('article').filter({ hasText: 'Ranked opening' }).allInnerTexts();
    expect(slot.map((text) => (text.includes('Ranked opening two') ? 'sam' : 'jordan'))).toEqual([
      'sam',
      'jordan',
    ]);

    const show = sam.getByRole('button', { name: 'Show alternatives to Sam Patel' });
    await show.focus();
    await page.keyboard.press('Enter');
    const alternatives = sam.getByRole('list', { name: 'Alternatives to Sam Patel' });
    await alternatives.getByRole('listitem').first().waitFor();
    expect(await alternatives.getByText('Jordan Kim').count()).toBe(0);
    expect(
      await sam.getByRole('button', { name: 'Hide alternatives to Sam Patel' }).getAttribute('aria-expanded'),
    ).toBe('true');
    await sam.screenshot({ path: `${SCREENSHOT_DIR}/pending-ranked-alternatives.png` });
    const audit = new AxeAudit();
    await audit.checkBothWidths(page, 'Pending Approvals with ranks and alternatives');
    expect(audit.problems).toEqual([]);
  });

  it('lets a super admin change the escalation ladder by keyboard, and shows whom a step told', async () => {
    const page = await open('morgan.lee', '/admin');
    await page.getByRole('tab', { name: /^Credentials & Rules/ }).click();
    const ladder = page.getByRole('form', { name: 'Escalation steps' });
    const second = ladder.getByRole('group', { name: 'Step 2' });
    expect(await second.getByLabel('Hours before the start').inputValue()).toBe('48');
    await second.getByLabel('Hours before the start').fill('72');
    // The card is audited at both widths with the rest of the tab above; its refusal here.
    const audit = new AxeAudit();
    // A step added last at more hours than the one before it is out of order, in plain words.
    await ladder.getByRole('button', { name: 'Add Step' }).press('Enter');
    await ladder.getByRole('group', { name: 'Step 5' }).getByLabel('Hours before the start').fill('100');
    await ladder.getByRole('button', { name: 'Save Policy' }).press('Enter');
    await ladder
      .getByRole('alert')
      .getByText(/^Steps must be in order/)
      .waitFor();
    await audit.check(page, 'Escalation policy refused');
    await ladder.getByRole('button', { name: 'Remove step 5' }).press('Enter');
    await ladder.getByRole('button', { name: 'Save Policy' }).press('Enter');
    await toast(page, 'Escalation Policy Saved');
    expect((await admin.get('/api/escalation-policy')).body).toMatchObject({ version: 1 });

    // A step of the ladder for a new shift, as the timers send it, then its outreach in the history.
    const shiftId = await postShift({ notes: 'Escalated overnight cover', date: daysAhead(31) });
    const { runtime } = e2e.server;
    await createCommandService(runtime.handler, runtime.vault).shift(
      {
        type: 'EscalateShift',
        data: {
          shiftId,
          opening: 1,
          step: { hoursBeforeStart: null, audience: 'eligible_staff', mark: null },
          notices: [
            { userId: people.get('sam.patel')!, channel: 'in_app' },
            { userId: people.get('sam.patel')!, channel: 'email' },
          ],
        },
      },
      { actor: { kind: 'system', name: 'timers' }, now: new Date() },
      { commandId: `Escalate:${shiftId}:1:posting` },
    );
    const shifts = await open('morgan.lee');
    const escalated = await revealCard(shifts, 'Escalated overnight cover');
    await escalated.scrollIntoViewIfNeeded();
    await escalated.getByRole('button', { name: /^History of/ }).click();
    const outreach = shifts
      .getByRole('dialog', { name: 'Shift History' })
      .getByRole('region', { name: 'Outreach' });
    await outreach.getByRole('row').filter({ hasText: 'Sam Patel' }).filter({ hasText: 'e-mail' }).waitFor();
    await outreach.getByText('At posting (Eligible staff)').first().waitFor();
    await dialogShot(shifts, 'rules-history-outreach');
    await audit.check(shifts, 'Shift History with outreach');
    expect(audit.problems).toEqual([]);
  });
});
