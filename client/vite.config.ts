import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** In development Vite serves the client and forwards API and socket traffic to the Koa server. */
const server = process.env.HELPDESK_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': server,
      '/socket.io': { target: server, ws: true },
    },
  },
  build: {
    manifest: true,
    sourcemap: true,
    chunkSizeWarningLimit: 600,
  },
});
