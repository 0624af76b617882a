import { fileURLToPath } from 'node:url';
import { lingui } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
const server = process.env.VITE_API_TARGET ?? 'http://localhost:3000';

/**
 * The browser app. Sources live in src/client; the build lands in dist/client, which the Node
 * server serves with a history-mode fallback (src/server/http.ts).
 */
export default defineConfig(({ command }) => ({
  root: 'src/client',
  plugins: [
    react({ babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }),
    // Compiles src/client/locales/*/messages.po when imported. A text without a pt/es/it/de
    // translation fails the build instead of reaching users in English; the dev server only
    // falls back to English, so a screen can be worked on before its texts are translated.
    lingui({ configPath: `${repoRoot}lingui.config.ts`, failOnMissing: command === 'build', failOnCompileError: true }),
  ],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    // Errors reported from the field then point at our sources, not at minified code.
    sourcemap: true,
    rollupOptions: {
      output: {
        // Libraries change less often than our screens: separate chunks stay cached across releases.
        manualChunks(id) {
          if (!id.includes('/node_modules/')) return undefined;
          if (/\/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser)\//.test(id)) return 'react';
          if (/\/node_modules\/(@tanstack|@trpc|superjson|copy-anything|is-what)\//.test(id)) return 'trpc';
          if (/\/node_modules\/@lingui\//.test(id)) return 'lingui';
          if (/\/node_modules\/zod\//.test(id)) return 'zod';
          return undefined;
        },
        // Readable chunk names: features/<area>/pages.tsx -> <area>-<hash>.js,
        // locales/<locale>/messages.po -> messages-<locale>-<hash>.js.
        chunkFileNames(chunk) {
          const id = chunk.facadeModuleId ?? '';
          const area = id.match(/\/features\/([^/]+)\/pages\.tsx$/)?.[1];
          const locale = id.match(/\/locales\/([^/]+)\/messages\.po$/)?.[1];
          const name = area ?? (locale ? `messages-${locale}` : '[name]');
          return `assets/${name}-[hash].js`;
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/trpc': server,
      '/socket.io': { target: server, ws: true },
      '/healthz': server,
      '/files': server,
    },
  },
  preview: { port: 4173 },
}));
