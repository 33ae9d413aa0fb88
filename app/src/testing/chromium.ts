import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { WEB_DIST } from '../web';

/** Debian's Chromium (`apt-get install chromium`), headless, without any network of its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The built web app is what the server serves; builds it when a run starts without it. */
export function ensureWebBuilt(): void {
  if (existsSync(`${WEB_DIST}/index.html`)) return;
  execFileSync('npx', ['vite', 'build', 'web'], {
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    stdio: 'inherit',
  });
}
