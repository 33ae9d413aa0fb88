import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';

export type FormFactor = 'mobile' | 'desktop';

type Category = 'performance' | 'accessibility' | 'best-practices';

export interface LighthouseScore {
  path: string;
  /** Whether the page was read signed in. */
  signedIn: boolean;
  formFactor: FormFactor;
  /** 0–100, as Lighthouse reports them; a category not asked for scores 0. */
  performance: number;
  accessibility: number;
  bestPractices: number;
  /** Titles of the audits that failed in either category, to say why a score is short. */
  failed: string[];
}

/**
 * Lighthouse's scores of each path in `categories` (accessibility and best practices unless
 * told), on each form factor (mobile and desktop unless told), driving Debian's Chromium through
 * chrome-launcher. `cookie` signs the requests in.
 */
export async function lighthouseScores(
  baseUrl: string,
  pages: { path: string; cookie?: string }[],
  {
    categories = ['accessibility', 'best-practices'],
    formFactors = ['mobile', 'desktop'],
  }: { categories?: Category[]; formFactors?: FormFactor[] } = {},
): Promise<LighthouseScore[]> {
  const scores: LighthouseScore[] = [];
  for (const { path, cookie } of pages) {
    for (const formFactor of formFactors) {
      const result = await audit(`${baseUrl}${path}`, cookie, categories, formFactor);
      const { categories: scored, audits } = result.lhr;
      const failed = Object.values(scored)
        .flatMap((category) => category.auditRefs)
        .filter((ref) => ref.weight > 0 && audits[ref.id]?.score !== null && (audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => {
          const details = audits[ref.id]?.details;
          const items = details && 'items' in details ? JSON.stringify(details.items).slice(0, 400) : '';
          return `${ref.id}: ${audits[ref.id]?.title} ${items}`;
        });
      scores.push({
        path,
        signedIn: cookie !== undefined,
        formFactor,
        performance: Math.round((scored.performance?.score ?? 0) * 100),
        accessibility: Math.round((scored.accessibility?.score ?? 0) * 100),
        bestPractices: Math.round((scored['best-practices']?.score ?? 0) * 100),
        failed,
      });
    }
  }
  return scores;
}

/** Attempts of one audit: a Chromium that stops answering DevTools fails Lighthouse's run, not the page. */
const ATTEMPTS = 3;

/** One page audited in a Chromium of its own, tried again in a new one when Lighthouse's own run fails. */
async function audit(
  url: string,
  cookie: string | undefined,
  categories: Category[],
  formFactor: FormFactor,
) {
  for (let attempt = 1; ; attempt++) {
    // Chromium's own temporary folders go in one of ours, removed after it: killed, as
    // chrome-launcher ends it, Chromium cannot remove them itself.
    const scratch = await mkdtemp(path.join(tmpdir(), 'shiftcover-lighthouse-'));
    const chrome = await launch({
      envVars: { ...process.env, TMPDIR: scratch },
      chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      chromeFlags: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-dev-shm-usage',
      ],
      logLevel: 'silent',
    }).catch(async (error: unknown) => {
      await rm(scratch, { recursive: true, force: true });
      throw error;
    });
    try {
      const result = await lighthouse(
        url,
        {
          port: chrome.port,
          logLevel: 'error',
          onlyCategories: categories,
          extraHeaders: cookie ? { Cookie: cookie } : undefined,
        },
        formFactor === 'desktop' ? desktopConfig : undefined,
      );
      if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
      // A run Lighthouse could not score (no paint seen, a page it judged hung) reports its error in
      // the result and scores null, not 0: it is a failed attempt, never a score.
      const failure = result.lhr.runtimeError;
      if (failure) {
        throw Object.assign(
          new Error(`Lighthouse could not score ${url}: ${failure.code} ${failure.message}`),
          {
            lhrRuntimeError: true,
          },
        );
      }
      return result;
    } catch (error) {
      // A protocol timeout and its kind are Lighthouse's runtime errors; anything else is ours.
      if (!(error as { lhrRuntimeError?: boolean }).lhrRuntimeError || attempt >= ATTEMPTS) throw error;
    } finally {
      chrome.kill();
      await rm(scratch, { recursive: true, force: true });
    }
  }
}
