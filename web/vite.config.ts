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

export default defineConfig({
  plugins: [react(), tailwindcss(), pagePathsManifest],
  server: {
    port: 5173,
    proxy: { '/api': { target: api, changeOrigin: false } },
  },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 800 },
});
