import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo';
import { type E2E, startE2E } from './browser';
import { lighthouseScores } from './lighthouse';

describe('Lighthouse on the landing page, Available Shifts and the Admin Dashboard', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('scores accessibility 100 and best practices at least 95, on mobile and desktop', async () => {
    const login = await fetch(`${e2e.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'morgan.lee', password: DEMO_PASSWORD }),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const scores = await lighthouseScores(e2e.baseUrl, [
      { path: '/' },
      { path: '/', cookie },
      { path: '/admin', cookie },
    ]);
    // Performance is not asked for here (the bench measures it), so it is left out of the table.
    console.table(
      scores.map(({ failed, performance: _, ...score }) => ({ ...score, failed: failed.join(', ') })),
    );
    for (const score of scores) {
      expect(score, score.failed.join('\n')).toMatchObject({ accessibility: 100 });
      expect(score.bestPractices, score.failed.join('\n')).toBeGreaterThanOrEqual(95);
    }
  }, 600_000);
});
