import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { lighthouseScores } from '../e2e/lighthouse';
import { launchChromium } from '../testing/chromium';
import { WEB_DIST } from '../web';

/**
 * JavaScript and CSS the landing page fetches in Chromium before it draws its sign-in link (the
 * entry, its preloaded chunks and what it imports on the way), raw and gzipped.
 */
export async function firstScreenAssets(baseUrl: string) {
  const browser = await launchChromium();
  let fetched: string[];
  try {
    const page = await browser.newPage({ viewport: { width: 375, height: 812 } });
    // Noted as the page is built, before any later code runs: the moment the link is first in it.
    await page.addInitScript(() => {
      const seen = new MutationObserver(() => {
        const link = [...document.querySelectorAll('a')].find((a) =>
          a.textContent?.includes('Sign In to Continue'),
        );
        if (!link) return;
        (window as unknown as { drawnAt: number }).drawnAt = performance.now();
        seen.disconnect();
      });
      seen.observe(document, { childList: true, subtree: true });
    });
    await page.goto(baseUrl);
    await page.getByRole('link', { name: 'Sign In to Continue' }).waitFor();
    fetched = await page.evaluate(() => {
      const { drawnAt } = window as unknown as { drawnAt: number };
      return performance
        .getEntriesByType('resource')
        .filter((entry) => entry.startTime <= drawnAt)
        .map((entry) => new URL(entry.name).pathname);
    });
  } finally {
    await browser.close();
  }
  const files = new Set(fetched.flatMap((path) => /^\/(assets\/[^?#]+\.(?:js|css))$/.exec(path)?.[1] ?? []));
  const sizes = { js: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 }, files: files.size };
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
      // The paint entry can be recorded a moment after the button is on screen: it is waited for.
      paints.push(
        await page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              new PerformanceObserver((list, observer) => {
                const paint = list.getEntriesByName('first-contentful-paint')[0];
                if (!paint) return;
                observer.disconnect();
                resolve(paint.startTime);
              }).observe({ type: 'paint', buffered: true });
              setTimeout(() => resolve(Number.NaN), 5_000);
            }),
        ),
      );
      await context.close();
    }
  } finally {
    await browser.close();
  }
  /** The median of the runs that measured it (NaN when none did). */
  const median = (values: number[]) => {
    const measured = values.filter(Number.isFinite).sort((a, b) => a - b);
    return measured.length === 0 ? Number.NaN : Math.round(measured[Math.floor(measured.length / 2)]!);
  };
  return { runs, firstContentfulPaintMs: median(paints), landingReadyMs: median(ready) };
}

/**
 * Runs of Lighthouse per screen: its score moves from run to run with whatever else the machine is
 * doing (on 2 cores, the server and Lighthouse itself), so each screen's figure is the median of
 * several runs, as Lighthouse's own guidance on variability advises.
 */
export const LIGHTHOUSE_RUNS = 5;

/** Lighthouse's mobile performance score of the landing page and of a staff member's Available Shifts. */
export async function firstScreenPerformance(baseUrl: string, staffCookie: string, runs = LIGHTHOUSE_RUNS) {
  const screens = [
    { screen: 'landing page', page: { path: '/' } },
    { screen: 'Available Shifts (signed in)', page: { path: '/', cookie: staffCookie } },
  ];
  const scores: { screen: string; performance: number | null; runs: number[]; failed: string[] }[] = [];
  for (const { screen, page } of screens) {
    const each: number[] = [];
    const failed: string[] = [];
    for (let run = 0; run < runs; run++) {
      try {
        const [score] = await lighthouseScores(baseUrl, [page], {
          categories: ['performance'],
          formFactors: ['mobile'],
        });
        each.push(score!.performance);
        if (failed.length === 0) failed.push(...score!.failed);
      } catch (error) {
        // Lighthouse's own run failed every attempt: the bench says so and goes on with its other figures.
        failed.push(`Lighthouse failed: ${(error as Error).message}`);
      }
    }
    const sorted = [...each].sort((a, b) => a - b);
    const median = sorted.length === 0 ? null : sorted[Math.floor(sorted.length / 2)]!;
    scores.push({ screen, performance: median, runs: each, failed });
  }
  return scores;
}

/** The scores as a line of BENCHMARKS.md, against the goal of 90. */
export function renderPerformance(scores: Awaited<ReturnType<typeof firstScreenPerformance>>): string {
  const each = scores.map(({ screen, performance, runs, failed }) =>
    performance === null
      ? `${screen} not measured (${failed.join('; ')})`
      : `${screen} ${performance} (${performance >= 90 ? 'met' : '**missed**'}; runs ${runs.join(', ')})`,
  );
  return `Lighthouse mobile performance (simulated slow 4G and a 4× slower CPU; the median of ${LIGHTHOUSE_RUNS} runs each), goal at least 90: ${each.join('; ')}.`;
}
