import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Every `import … from '…'` and `export … from '…'` specifier of a source file, type-only ones too. */
const SPECIFIER = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

const packages = readdirSync(ROOT).filter((name) => existsSync(path.join(ROOT, name, 'src')));

/** `@shiftcover/<package>[/<entry>]` to the file its package.json exports for it. */
function packageEntry(specifier: string): string | undefined {
  const [, name, ...rest] = specifier.split('/');
  const manifest = path.join(ROOT, name!, 'package.json');
  if (!existsSync(manifest)) return undefined;
  const exports: Record<string, string> = JSON.parse(readFileSync(manifest, 'utf8')).exports ?? {};
  const target = exports[rest.length === 0 ? '.' : `./${rest.join('/')}`];
  return target ? path.join(ROOT, name!, target) : undefined;
}

function relativeTarget(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

interface Imports {
  /** The project's own files each file imports, resolved. */
  edges: Map<string, string[]>;
  /** Each file's specifiers as written. */
  specifiers: Map<string, string[]>;
}

function importGraph(): Imports {
  const edges = new Map<string, string[]>();
  const specifiers = new Map<string, string[]>();
  for (const file of packages.flatMap((name) => sourceFiles(path.join(ROOT, name, 'src')))) {
    const written = [...readFileSync(file, 'utf8').matchAll(SPECIFIER)].map((match) => match[1]!);
    specifiers.set(file, written);
    const targets = written.flatMap((specifier) => {
      const target = specifier.startsWith('.')
        ? relativeTarget(file, specifier)
        : specifier.startsWith('@shiftcover/')
          ? packageEntry(specifier)
          : undefined;
      return target ? [target] : [];
    });
    edges.set(file, targets);
  }
  return { edges, specifiers };
}

/** The strongly connected groups of more than one file (Tarjan), and files importing themselves. */
function cycles(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || edges.get(file)?.includes(file)) found.push(group);
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return found.map((group) => group.map((file) => path.relative(ROOT, file)).sort());
}

describe('the seams between packages', () => {
  const graph = importGraph();

  it('reads the whole tree', () => {
    expect(graph.edges.size).toBeGreaterThan(300);
    expect(graph.edges.get(path.join(ROOT, 'app/src/server.ts'))).toContain(
      path.join(ROOT, 'command-api/src/index.ts'),
    );
  });

  it('has no import cycles between files', () => {
    expect(cycles(graph.edges)).toEqual([]);
  });

  it('keeps the domain pure: no other package of the project, nothing of Node (the web app runs it)', () => {
    const impure = [...graph.specifiers]
      .filter(([file]) => path.relative(ROOT, file).startsWith('domain/'))
      .filter(([, written]) => written.some((s) => s.startsWith('@shiftcover/') || s.startsWith('node:')))
      .map(([file]) => path.relative(ROOT, file));
    expect(impure).toEqual([]);
  });

  it('keeps processes and projections off command-api: they reach the write side through ports', () => {
    const offenders = [...graph.specifiers]
      .map(([file, written]) => [path.relative(ROOT, file), written] as const)
      .filter(([file]) => file.startsWith('processes/') || file.startsWith('projections/'))
      .filter(([file, written]) =>
        written.some(
          (specifier) =>
            specifier.startsWith('@shiftcover/command-api') ||
            (specifier.startsWith('.') &&
              relativeTarget(path.join(ROOT, file), specifier)?.includes('/command-api/')),
        ),
      )
      .map(([file]) => file);
    expect(offenders).toEqual([]);
  });
});
