/// <reference lib="dom" />
// Tests evaluate functions inside the page, where the DOM is the global scope.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { onTestFinished, vi } from 'vitest';
import { DEMO_PASSWORD, seedDemo } from '../demo';
import { ensureWebBuilt, launchChromium } from '../testing/chromium';
import { startTestServer, type TestServer } from '../testing/http';

/**
 * How long one step in the browser (a navigation, a click, a wait for an element) may take, how long
 * a test waits for what it expects to see (`expect.poll`), and how long one test may take: generous,
 * for a machine whose two cores are shared by two test files, their Chromiums (one of them perhaps
 * Lighthouse's), their servers and PostgreSQL, and whose host may cap their speed. On such a machine
 * a page load was seen to take over 30 s, and a hundred more cards over 10 s to be drawn. What is
 * fast enough is measured by the bench, not here.
 */
const E2E_STEP_TIMEOUT_MS = 60_000;
vi.setConfig({ testTimeout: 300_000, expect: { poll: { timeout: 30_000 } } });

/** Where the end-to-end run saves its screenshots (named in the README). */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../../screenshots', import.meta.url));

export const PHONE = { width: 375, height: 812 };

/**
 * Waits until `predicate`, run in the page, holds. Playwright's `waitForFunction` compiles its
 * polling with `eval`, which the app's Content Security Policy refuses; `evaluate` is not subject
 * to it.
 */
export async function untilInPage(page: Page, predicate: () => unknown, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await page.evaluate(predicate))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${predicate}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits until the app's service worker is in charge of `page`. A worker whose install failed (one
 * of the shell's files not fetched, on a machine busy enough) is tried again only by a later load,
 * as on a visitor's next visit: the page is loaded again while none is in charge, every 15 s.
 */
export async function untilServiceWorkerInCharge(page: Page, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await untilInPage(page, () => navigator.serviceWorker.controller !== null, 15_000);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await page.reload();
    }
  }
}

export const DESKTOP = { width: 1280, height: 900 };

/**
 * The Available Shifts card holding `text`, drawn: Show More Shifts is pressed until it is, for a
 * list longer than the fifty cards drawn at first (the list may still be arriving).
 */
export async function revealCard(page: Page, text: string, ms = 20_000) {
  const wanted = page.getByRole('article').filter({ hasText: text });
  const more = page.getByRole('button', { name: /^Show More Shifts/ });
  const deadline = Date.now() + ms;
  while ((await wanted.count()) === 0) {
    if (Date.now() > deadline) throw new Error(`no shift card with '${text}' after ${ms} ms`);
    if ((await more.count()) > 0) await more.click();
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return wanted;
}

export interface E2E {
  server: TestServer;
  browser: Browser;
  baseUrl: string;
  /**
   * A fresh browser context (its own cookies) at the given viewport, in Eastern time unless told
   * another zone (a person reading the schedule from elsewhere). Closed when the test that opened it
   * ends.
   */
  context(viewport?: { width: number; height: number }, timezoneId?: string): Promise<BrowserContext>;
  /** Signs in through the login screen and waits for the dashboard. */
  signIn(page: Page, username: string, password?: string): Promise<void>;
  screenshot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real product in a real browser: the all-in-one server on a fresh database filled with the
 * demo data, and Debian's Chromium driven by playwright-core.
 */
export async function startE2E(options: { seed?: boolean; now?: Date } = {}): Promise<E2E> {
  ensureWebBuilt();
  // The browser first: without one the suite fails at once, with nothing else started.
  const browser = await launchChromium();
  // The projector on its thread, as `npm start` runs it.
  const server = await startTestServer({ projectorThread: true });
  if (options.seed ?? true) await seedDemo(server.runtime, options.now);
  const contexts: BrowserContext[] = [];
  return {
    server,
    browser,
    baseUrl: server.baseUrl,
    async context(viewport = DESKTOP, timezoneId = 'America/New_York') {
      const context = await browser.newContext({ viewport, baseURL: server.baseUrl, timezoneId });
      context.setDefaultTimeout(E2E_STEP_TIMEOUT_MS);
      contexts.push(context);
      // Closed when its test ends: a page left open goes on following the live updates, reading its
      // lists again on every change the later tests make, and slows them all on two cores.
      onTestFinished(() => context.close().catch(() => undefined));
      return context;
    },
    async signIn(page, username, password = DEMO_PASSWORD) {
      await page.goto('/login');
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByRole('button', { name: /Account menu/ }).waitFor();
    },
    async screenshot(page, name) {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png`, fullPage: true });
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await server.close();
    },
  };
}
