import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Each program of the product, by the name of its built file in `app/dist/`. */
export const SERVER_ENTRIES = {
  main: 'app/src/main.ts',
  cli: 'app/src/cli.ts',
  'command-api': 'app/src/services/command-api.ts',
  'read-api': 'app/src/services/read-api.ts',
  projections: 'app/src/services/projections.ts',
  processes: 'app/src/services/processes.ts',
} as const;

/** Threads a program starts from a built file beside it (`app/src/projector-thread.ts`), not programs. */
export const THREAD_ENTRIES = {
  'projector-worker': 'app/src/projector-worker.ts',
} as const;

export const SERVER_OUTDIR = 'app/dist';

/**
 * Our workspaces are TypeScript sources, so they are bundled in. So is date-fns (with date-fns-tz,
 * which imports all of it): some 250 modules under a 199 KB package.json, which Node 22 and later
 * read again for each module they load, about 0.6 to 0.9 s for each program and thread at start on
 * the image's Node 24. Every other package stays an import, resolved from the production
 * `node_modules` at run time.
 */
const BUNDLED = /^(@shiftcover\/|date-fns(-tz)?(\/|$))/;

const packagesExternal: Plugin = {
  name: 'packages-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      BUNDLED.test(args.path) ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Compiles the server programs to JavaScript in `outdir` (`npm run build:server`). The output sits
 * at the depth of `app/src/`, so paths taken from `import.meta.url` (the built web app) still hold,
 * and packages resolve through `app/node_modules` first, as they do from the sources. Shared code
 * and lazily loaded modules (the embedded PostgreSQL) become chunks of their own, loaded only when
 * used.
 */
export async function buildServer(outdir = `${ROOT}/${SERVER_OUTDIR}`): Promise<void> {
  await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(
      Object.entries({ ...SERVER_ENTRIES, ...THREAD_ENTRIES }).map(([name, source]) => [
        name,
        `${ROOT}/${source}`,
      ]),
    ),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    chunkNames: 'chunk-[hash]',
    plugins: [packagesExternal],
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer(process.argv[2]);
