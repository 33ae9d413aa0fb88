import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';
import { PAGE_PATHS_FILE, pagePaths } from './src/page-paths';

// The API runs on `npm start` (port 3000); the dev server proxies to it.
const api = process.env.API_URL ?? 'http://localhost:3000';

/** Writes the route tree's page paths beside index.html, for the server's 404s. */
const pagePathsManifest: Plugin = {
  name: 'page-paths',
  generateBundle() {
    this.emitFile({
      type: 'asset',
      fileName: PAGE_PATHS_FILE,
      source: JSON.stringify(Object.values(pagePaths)),
    });
  },
};

const WEB_ROOT = fileURLToPath(new URL('.', import.meta.url));
const PUBLIC_DIR = join(WEB_ROOT, 'public');
/** The public files a page uses: the favicon, the icons and the web app manifest (not robots.txt). */
const SHELL_PUBLIC_FILE = /\.(?:svg|png|webmanifest)$/;

/**
 * Builds the service worker (src/service-worker/sw.ts) into `sw.js` at the root, so its scope is
 * the whole app, with the files of the app shell it keeps (index.html, every built script and
 * style sheet, the icons and the manifest) and a digest of their contents that names its cache:
 * a deploy that changes any of them installs a new worker with a new cache.
 */
const serviceWorker: Plugin = {
  name: 'service-worker',
  apply: 'build',
  async generateBundle(_options, bundle) {
    const contents = new Map<string, string | Uint8Array>();
    for (const [fileName, output] of Object.entries(bundle)) {
      if (fileName !== PAGE_PATHS_FILE)
        contents.set(fileName, output.type === 'chunk' ? output.code : output.source);
    }
    for (const file of await readdir(PUBLIC_DIR, { recursive: true })) {
      if (SHELL_PUBLIC_FILE.test(file)) contents.set(file, await readFile(join(PUBLIC_DIR, file)));
    }
    const digest = createHash('sha256');
    for (const name of [...contents.keys()].sort()) digest.update(name).update(contents.get(name)!);
    const shell = {
      version: digest.digest('hex').slice(0, 16),
      // index.html is kept under '/', the path the worker asks for it by.
      files: [...contents.keys()].filter((name) => name !== 'index.html').map((name) => `/${name}`),
    };
    const built = await build({
      configFile: false,
      root: WEB_ROOT,
      logLevel: 'warn',
      publicDir: false,
      define: { __SHELL__: JSON.stringify(shell) },
      build: {
        write: false,
        lib: { entry: 'src/service-worker/sw.ts', formats: ['es'], fileName: () => 'sw.js' },
      },
    });
    const [output] = Array.isArray(built) ? built : [built];
    const code = output && 'output' in output ? output.output[0].code : undefined;
    if (!code) throw new Error('The service worker build gave no code');
    this.emitFile({ type: 'asset', fileName: 'sw.js', source: code });
  },
};

const COMPRESSIBLE = /\.(?:js|css|html|svg|json|txt|webmanifest)$/;
const toBrotli = promisify(brotliCompress);
const toGzip = promisify(gzip);

/**
 * Writes `.br` and `.gz` beside every text file of the build, at the strongest settings, so the
 * server sends them as they are (`preCompressed`) instead of compressing on each request. A file
 * that would not get smaller keeps only its plain form.
 */
const precompress: Plugin = {
  name: 'precompress',
  apply: 'build',
  async writeBundle({ dir }) {
    if (!dir) return;
    const files = await readdir(dir, { recursive: true });
    await Promise.all(
      files
        .filter((file) => COMPRESSIBLE.test(file))
        .map(async (file) => {
          const path = join(dir, file);
          const plain = await readFile(path);
          const compressed = {
            br: await toBrotli(plain, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
              },
            }),
            gz: await toGzip(plain, { level: constants.Z_BEST_COMPRESSION }),
          };
          for (const [extension, body] of Object.entries(compressed)) {
            if (body.length < plain.length) await writeFile(`${path}.${extension}`, body);
          }
        }),
    );
  },
};

export default defineConfig({
  plugins: [react(), tailwindcss(), pagePathsManifest, serviceWorker, precompress],
  server: {
    port: 5173,
    proxy: { '/api': { target: api, changeOrigin: false } },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
