import { launch } from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';

export type FormFactor = 'mobile' | 'desktop';

export interface LighthouseScore {
  path: string;
  formFactor: FormFactor;
  /** 0–100, as Lighthouse reports them. */
  accessibility: number;
  bestPractices: number;
  /** Titles of the audits that failed in either category, to say why a score is short. */
  failed: string[];
}

/**
 * Lighthouse's accessibility and best-practices scores of each path, on mobile and desktop,
 * driving Debian's Chromium through chrome-launcher. `cookie` signs the requests in.
 */
export async function lighthouseScores(
  baseUrl: string,
  pages: { path: string; cookie?: string }[],
): Promise<LighthouseScore[]> {
  const chrome = await launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
    logLevel: 'silent',
  });
  const scores: LighthouseScore[] = [];
  try {
    for (const { path, cookie } of pages) {
      for (const formFactor of ['mobile', 'desktop'] as const) {
        const result = await lighthouse(
          `${baseUrl}${path}`,
          {
            port: chrome.port,
            logLevel: 'error',
            onlyCategories: ['accessibility', 'best-practices'],
            extraHeaders: cookie ? { Cookie: cookie } : undefined,
          },
          formFactor === 'desktop' ? desktopConfig : undefined,
        );
        if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
        const { categories, audits } = result.lhr;
        const failed = Object.values(categories)
          .flatMap((category) => category.auditRefs)
          .filter(
            (ref) => ref.weight > 0 && audits[ref.id]?.score !== null && (audits[ref.id]?.score ?? 1) < 1,
          )
          .map((ref) => {
            const details = audits[ref.id]?.details;
            const items = details && 'items' in details ? JSON.stringify(details.items).slice(0, 400) : '';
            return `${ref.id}: ${audits[ref.id]?.title} ${items}`;
          });
        scores.push({
          path,
          formFactor,
          accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
          bestPractices: Math.round((categories['best-practices']?.score ?? 0) * 100),
          failed,
        });
      }
    }
  } finally {
    chrome.kill();
  }
  return scores;
}
