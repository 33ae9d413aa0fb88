import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { WEB_DIST } from '../web';

const INSTALL =
  "install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH to a Chromium executable";

/** Why the browser cannot be used, in one line that says what to do; no stack is shown with it. */
export class ChromiumUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChromiumUnavailable';
    this.stack = `${this.name}: ${message}`;
  }
}

/** The Chromium the browser tests and the bench drive: `CHROMIUM_PATH`, else Debian's. */
export function requireChromium(): string {
  const executable = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  try {
    accessSync(executable, constants.X_OK);
  } catch {
    throw new ChromiumUnavailable(`No Chromium at ${executable}: ${INSTALL}.`);
  }
  return executable;
}

/**
 * The features playwright-core turns off in every Chromium it starts (its `chromiumSwitches`), named
 * again because Chromium keeps only the last `--disable-features` it is given; chromium.test.ts
 * fails when a playwright-core upgrade changes its list.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The address bar's two popups, which Chromium draws as web pages of their own: two renderer
 * processes started with every browser context, for a window no headless test ever shows. Without
 * them eight contexts open in 3.6 s rather than 7.6 s and take 2 CPU seconds rather than 12.
 */
const UNSEEN_BROWSER_UI = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** Chromium, headless, without any network of its own; fails within 30 s when it cannot start. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = requireChromium();
  try {
    return await chromium.launch({
      executablePath,
      timeout: 30_000,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNSEEN_BROWSER_UI].join(',')}`,
      ],
    });
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new ChromiumUnavailable(`Chromium at ${executablePath} did not start (${reason}): ${INSTALL}.`);
  }
}

/**
 * The built web app is what the server serves; builds it when a run starts without it, as
 * `npm run build` does: a production build, whatever `NODE_ENV` the test runner set (under
 * Vitest's `test` React and the router would be built for development, half as large again).
 */
export function ensureWebBuilt(): void {
  if (existsSync(`${WEB_DIST}/index.html`)) return;
  execFileSync('npx', ['vite', 'build', 'web'], {
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
}
