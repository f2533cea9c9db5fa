import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { studioProxy } from './proxy.config.ts';

const proxy = studioProxy();

// No CORS: the studio calls its own origin only, and Vite's default answered any localhost origin (a page on
// another local port could then read what the proxy, holding the engine's key, answers). Keep `allowedHosts`
// at its default: it stops DNS-rebound names before the proxy (see proxy.config.ts).
export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: { port: 5173, strictPort: false, proxy, cors: false },
  preview: { port: 4173, strictPort: false, proxy, cors: false },
});
