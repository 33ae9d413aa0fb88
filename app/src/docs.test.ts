import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

const WORKSPACES = [
  'domain',
  'eventstore',
  'platform',
  'command-api',
  'projections',
  'read-api',
  'processes',
  'app',
  'web',
];
const DOCUMENTS = readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));

const SECTION = String.raw`§(\d+(?:\.\d+)*)`;

/** The section numbers a document's headings carry: `## §4 States`, `### §4.3 Claimable`. */
function sectionsOf(document: string): Set<string> {
  const headings = read(`docs/${document}`).matchAll(new RegExp(String.raw`^#{1,6} ${SECTION}\s`, 'gm'));
  return new Set([...headings].map((match) => match[1]!));
}

const sections = new Map(DOCUMENTS.map((document) => [document, sectionsOf(document)]));

function sourceFiles(): string[] {
  return WORKSPACES.flatMap((workspace) =>
    readdirSync(path.join(ROOT, workspace, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => path.join(workspace, 'src', file)),
  );
}

interface Citation {
  file: string;
  document: string;
  section: string;
}

/**
 * The sections a markdown page cites: `[product.md](product.md) §4.3` and `[§4.3](product.md)`
 * name their document, a bare `§6` is the page's own, and `§4.3 and §4.4` or `§5 to §9` go on
 * with the document before.
 */
function citationsInPage(file: string, own: string | undefined): Citation[] {
  const text = read(file);
  const found: Citation[] = [];
  let previous: { document: string | undefined; end: number } | undefined;
  for (const match of text.matchAll(new RegExp(SECTION, 'g'))) {
    const before = text.slice(Math.max(0, match.index - 40), match.index);
    const after = text.slice(match.index + match[0].length, match.index + match[0].length + 80);
    const named =
      /([\w-]+\.md)\)?\s*$/.exec(before)?.[1] ?? /^\]\((?:[\w.-]*\/)*([\w-]+\.md)\)/.exec(after)?.[1];
    const between = previous ? text.slice(previous.end, match.index) : '';
    const continued = previous && /^\s*(?:,|and|or|to)\s*$/.test(between);
    const document = named ?? (continued ? previous!.document : own);
    previous = { document, end: match.index + match[0].length };
    if (document) found.push({ file, document, section: match[1]! });
  }
  return found;
}

describe('the documents in docs/', () => {
  it('number their sections so they can be cited', () => {
    for (const document of ['product.md', 'architecture.md', 'operations.md']) {
      expect(sections.get(document)?.size, document).toBeGreaterThan(0);
    }
  });

  it('hold every section the code cites as docs/<name>.md §n', () => {
    const cited: Citation[] = sourceFiles().flatMap((file) =>
      [...read(file).matchAll(new RegExp(String.raw`docs/([\w-]+\.md) ${SECTION}`, 'g'))].map((match) => ({
        file,
        document: match[1]!,
        section: match[2]!,
      })),
    );
    const missing = cited.filter((c) => !sections.get(c.document)?.has(c.section));
    expect(missing).toEqual([]);
  });

  it('hold every section the pages and the README cite', () => {
    const cited = [
      ...DOCUMENTS.flatMap((document) => citationsInPage(`docs/${document}`, document)),
      ...citationsInPage('README.md', undefined),
    ];
    expect(cited.length).toBeGreaterThan(0);
    const missing = cited.filter((c) => !sections.get(c.document)?.has(c.section));
    expect(missing).toEqual([]);
  });
});

const WALK = 'docs/follow-a-claim.md';
const FILE = /^(?:[\w.-]+\/)+[\w.-]+\.(?:ts|tsx|mjs|md|json|sql)$/;
const NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/**
 * The walk's places: each table row, and each paragraph line that starts with a file, with the
 * lines that follow it up to the next file, blank line or heading. Every name in backticks in a
 * place must occur in one of the files that place names.
 */
function placesOfTheWalk(): { text: string; files: string[]; names: string[] }[] {
  const places: string[] = [];
  let current: string[] | undefined;
  for (const line of read(WALK).split('\n')) {
    const startsWithFile = /^`[^`]+`:/.test(line) && FILE.test(line.slice(1, line.indexOf('`', 1)));
    if (line.startsWith('|') || startsWithFile || line.trim() === '' || line.startsWith('#')) {
      if (current) places.push(current.join('\n'));
      current = line.startsWith('|') || startsWithFile ? [line] : undefined;
    } else if (current) {
      current.push(line);
    }
  }
  if (current) places.push(current.join('\n'));
  return places.map((text) => {
    const quoted = [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
    return {
      text,
      files: quoted.filter((q) => FILE.test(q)),
      names: quoted.filter((q) => NAME.test(q)),
    };
  });
}

describe('the claim walk (docs/follow-a-claim.md)', () => {
  const places = placesOfTheWalk();

  it('names files that exist', () => {
    const named = [...read(WALK).matchAll(/`([^`]+)`/g)]
      .map((match) => match[1]!)
      .filter((q) => FILE.test(q));
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((file) => !existsSync(path.join(ROOT, file)))).toEqual([]);
  });

  it('names, beside each file, what that file holds', () => {
    const steps = places.filter((place) => place.files.length > 0);
    expect(steps.length).toBeGreaterThan(10);
    const absent = steps.flatMap(({ files, names }) => {
      const texts = files.filter((file) => existsSync(path.join(ROOT, file))).map(read);
      const holds = (part: string) => {
        const word = new RegExp(String.raw`(?<![\w$])${part.replaceAll('$', '\\$')}(?![\w$])`);
        return texts.some((text) => word.test(text));
      };
      return names
        .filter((name) => !name.split('.').every(holds))
        .map((name) => `${name} (beside ${files.join(', ')})`);
    });
    expect(absent).toEqual([]);
  });
});
