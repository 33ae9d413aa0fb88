import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../testing/chromium';
import { WEB_DIST } from '../web';

/** JavaScript and CSS the first screen loads (what index.html references), raw and gzipped. */
export async function firstScreenAssets() {
  const html = await readFile(`${WEB_DIST}/index.html`, 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const sizes = { js: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 } };
  for (const file of files) {
    const content = await readFile(`${WEB_DIST}/${file}`);
    const kind = file.endsWith('.css') ? 'css' : 'js';
    sizes[kind].raw += content.length;
    sizes[kind].gzip += gzipSync(content, { level: 9 }).length;
  }
  return sizes;
}

/** First contentful paint and time until the landing page's button is on screen, median of `runs`. */
export async function timeToFirstRender(baseUrl: string, runs = 5) {
  const browser = await launchChromium();
  const paints: number[] = [];
  const ready: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
      const page = await context.newPage();
      const started = Date.now();
      await page.goto(baseUrl);
      await page.getByRole('link', { name: 'Sign In to Continue' }).waitFor();
      ready.push(Date.now() - started);
      paints.push(
        await page.evaluate(
          () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
        ),
      );
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const median = (values: number[]) =>
    Math.round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!);
  return { runs, firstContentfulPaintMs: median(paints), landingReadyMs: median(ready) };
}
