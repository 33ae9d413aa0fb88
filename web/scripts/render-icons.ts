/**
 * Draws the app's PNG icons (web/public/icons/) from the favicon, in Chromium, so there is one
 * drawing of the logo. Run it again after changing web/public/favicon.svg:
 *
 *   npx tsx web/scripts/render-icons.ts
 *
 * The "any" icons keep the favicon's rounded corners on a transparent ground. The maskable icon
 * and the Apple touch icon fill the square with the logo's colour: a phone cuts its own shape out
 * of them, and the drawing already sits inside the safe circle of a maskable icon (80 % of the
 * side).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const publicDir = new URL('../public/', import.meta.url);
const favicon = readFileSync(new URL('favicon.svg', publicDir), 'utf8');
const ground = /<rect[^>]*fill="(#[0-9a-f]{6})"/i.exec(favicon)?.[1];
if (!ground) throw new Error('favicon.svg has no filled background rectangle');

const icons = [
  { file: 'icon-192.png', size: 192, fill: false },
  { file: 'icon-512.png', size: 512, fill: false },
  { file: 'maskable-512.png', size: 512, fill: true },
  { file: 'apple-touch-icon.png', size: 180, fill: true },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  for (const { file, size, fill } of icons) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const svg = favicon.replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(
      `<style>body{margin:0;background:${fill ? ground : 'transparent'}}svg{display:block}</style>${svg}`,
    );
    writeFileSync(
      new URL(`icons/${file}`, publicDir),
      await page.screenshot({ omitBackground: !fill, clip: { x: 0, y: 0, width: size, height: size } }),
    );
    await page.close();
  }
} finally {
  await browser.close();
}
