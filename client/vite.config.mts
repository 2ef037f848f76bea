import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const server = process.env.PARLEY_SERVER_URL ?? 'http://localhost:3000';

/** Root is client/; the build lands in client/dist, which the server's WebModule serves. */
export default defineConfig({
  root,
  plugins: [react()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // The server's contracts (plain TS, no decorators): REST shapes, socket events, the offer table.
      '@contracts': fileURLToPath(new URL('../shared/contracts', import.meta.url)),
      // The checks the client and the server share (plain TS): the off-platform detector.
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Everything under static/ carries a content hash, so the server caches that folder as immutable.
    assetsDir: 'static',
    chunkSizeWarningLimit: 1200,
  },
  server: {
    // The Host header is passed on unchanged (changeOrigin: false): the server picks the instance by it and
    // refuses state-changing /api calls whose Origin is not that host (CSRF).
    proxy: {
      '/api': { target: server, changeOrigin: false },
      '/assets/config.json': server,
      '/instance': server,
      '/socket.io': { target: server, ws: true },
    },
  },
});
