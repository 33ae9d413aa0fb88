import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect, it } from 'vitest';
import { PLAYWRIGHT_DISABLED_FEATURES } from './chromium';

it('names every feature playwright-core turns off, since Chromium keeps only the last list it is given', () => {
  const library = path.dirname(createRequire(import.meta.url).resolve('playwright-core'));
  const source = readFileSync(path.join(library, 'lib', 'coreBundle.js'), 'utf8');
  const list = /disabledFeatures = \[([\s\S]*?)\]\.filter/.exec(source)?.[1];
  expect(list, "playwright-core's list of disabled features was not found").toBeDefined();
  const theirs = [...(list ?? '').matchAll(/"([A-Za-z0-9]+)"/g)].map((match) => match[1]);
  expect(theirs.length).toBeGreaterThan(0);
  expect(PLAYWRIGHT_DISABLED_FEATURES).toEqual(theirs);
});
