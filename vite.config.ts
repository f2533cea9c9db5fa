import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { studioProxy } from './proxy.config.ts';

const proxy = studioProxy();

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: { port: 5173, strictPort: false, proxy },
  preview: { port: 4173, strictPort: false, proxy },
});
