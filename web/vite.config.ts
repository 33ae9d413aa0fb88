import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
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

const COMPRESSIBLE = /\.(?:js|css|html|svg|json|txt)$/;
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
  plugins: [react(), tailwindcss(), pagePathsManifest, precompress],
  server: {
    port: 5173,
    proxy: { '/api': { target: api, changeOrigin: false } },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
