import { fileURLToPath } from 'node:url';
import { lingui } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react-swc';
import MagicString from 'magic-string';
import { defineConfig, type Plugin } from 'vite';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
const server = process.env.VITE_API_TARGET ?? 'http://localhost:3000';
const clientRoot = `${repoRoot}src/client/`;

/**
 * The messages /i/recent shows first, per language (issue 22, target 6): `virtual:shell-catalog/<locale>`
 * holds only the catalogue entries whose ids appear in the code of the first download (main.tsx,
 * the recent list and the chat shell, with everything they import statically). i18n.ts activates
 * it at start; the whole catalogue loads before any other chunk runs, because every dynamic
 * import of the app waits for it (transform below). The dev server serves the whole one.
 */
const SHELL_ROOTS = ['main.tsx', 'features/recent/RecentLayout.tsx', 'features/chat/ChatShell.tsx'].map((f) => `${clientRoot}${f}`);
function shellCatalog(command: 'build' | 'serve'): Plugin {
  const PREFIX = 'virtual:shell-catalog/';
  return {
    name: 'atende:shell-catalog',
    resolveId: (id) => (id.startsWith(PREFIX) ? `\0${id}` : null),
    async load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      const po = `${clientRoot}locales/${id.slice(PREFIX.length + 1)}/messages.po`;
      if (command === 'serve') return `export { messages } from ${JSON.stringify(po)};`;
      const ids = new Set<string>();
      const seen = new Set<string>();
      const walk = async (moduleId: string): Promise<void> => {
        if (seen.has(moduleId) || !moduleId.startsWith(clientRoot) || moduleId.includes('/node_modules/')) return;
        seen.add(moduleId);
        const info = await this.load({ id: moduleId, resolveDependencies: true });
        for (const m of (info.code ?? '').matchAll(/["'`]([A-Za-z0-9+/]{6})["'`]/g)) ids.add(m[1]!);
        await Promise.all(info.importedIds.map(walk));
      };
      await Promise.all(SHELL_ROOTS.map(walk));
      const compiled = (await this.load({ id: po })).code ?? '';
      const all = new Function(compiled.replace(/export\s+const\s+messages\s*=/, 'return '))() as Record<string, unknown>;
      const shell = Object.fromEntries(Object.entries(all).filter(([key]) => ids.has(key)));
      return `export const messages = JSON.parse(${JSON.stringify(JSON.stringify(shell))});`;
    },
    // Every `import('…')` of our code, but those of the catalogues and the first download's own
    // parts, first waits for the whole catalogue. Rolldown has no renderDynamicImport hook, so this
    // is done on the sources (the libraries' own dynamic imports never render our texts). The
    // template-literal import of the .po files (i18n.ts) is not matched and does not wait. It runs
    // after SWC (enforce 'pre'), so type-only `typeof import('…')` are gone by then.
    async transform(code, id) {
      if (command !== 'build' || !id.startsWith(clientRoot) || id.includes('/node_modules/') || !code.includes('import(')) return null;
      const out = new MagicString(code);
      for (const m of code.matchAll(/\bimport\(\s*(['"])([^'"\n]+)\1\s*\)/g)) {
        const target = (await this.resolve(m[2]!, id))?.id;
        if (!target || /\/locales\/[^/]+\/messages\.po$/.test(target) || target.startsWith(`\0${PREFIX}`) || SHELL_ROOTS.includes(target)) continue;
        out.prependRight(m.index, '(globalThis.__fullCatalog?.() ?? Promise.resolve()).then(() => ');
        out.appendLeft(m.index + m[0].length, ')');
      }
      return out.hasChanged() ? { code: out.toString(), map: out.generateMap({ hires: true, source: id }) } : null;
    },
  };
}

/**
 * The browser app. Sources live in src/client; the build lands in dist/client, which the Node
 * server serves with a history-mode fallback (src/server/http.ts).
 */
export default defineConfig(({ command }) => ({
  root: 'src/client',
  plugins: [
    shellCatalog(command),
    // SWC compiles TypeScript, JSX and the Lingui macros (Rust; Babel's macro pass was ~10 % of the
    // build). useLinguiV5IdGeneration: the ids of Lingui 5 (standard base64), as `lingui extract`
    // writes them into the .po files; the v6 plugin's default alphabet would miss every id with + or /.
    react({ plugins: [['@lingui/swc-plugin', { useLinguiV5IdGeneration: true }]] }),
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
    // The chat's sounds are files fetched when one plays, not base64 in the first download's
    // JavaScript (~3 KiB gzip that does not compress; issue 22, target 6).
    assetsInlineLimit: (file: string) => (/\.(mp3|ogg)$/.test(file) ? false : undefined),
    rolldownOptions: {
      output: {
        // Libraries change less often than our screens: separate chunks stay cached across releases.
        manualChunks(id) {
          if (!id.includes('/node_modules/')) return undefined;
          if (/\/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser)\//.test(id)) return 'react';
          if (/\/node_modules\/(@tanstack|@trpc|superjson|copy-anything|is-what)\//.test(id)) return 'trpc';
          if (/\/node_modules\/@lingui\//.test(id)) return 'lingui';
          // React Aria, lucide and zod are not grouped: Rollup splits them by who imports them, so the
          // first page gets only the pieces its screens use (one 'aria' chunk put 95 KiB gzip of
          // menus, dialogs and tables in every first download; issue 22, target 6).
          return undefined;
        },
        // Chunk names say what they hold, from the modules in them (chunk.moduleIds):
        //   features/<area>/pages.tsx                -> <area>-<hash>.js (an area's screens)
        //   another entry of a feature (React.lazy)   -> <area>-<File>-<hash>.js (calls-CallOverlay)
        //   code shared by screens of one area        -> <area>-shared-<hash>.js
        //   code shared across areas                  -> shared-<area>-<area>-<hash>.js (ui, guard… count as areas)
        //   locales/<locale>/messages.po              -> messages-<locale>-<hash>.js
        //   virtual:shell-catalog/<locale>            -> messages-shell-<locale>-<hash>.js
        chunkFileNames(chunk) {
          const facade = chunk.facadeModuleId ?? '';
          const locale = facade.match(/\/locales\/([^/]+)\/messages\.po$/)?.[1];
          if (locale) return `assets/messages-${locale}-[hash].js`;
          const shellLocale = facade.match(/shell-catalog\/([^/]+)$/)?.[1];
          if (shellLocale) return `assets/messages-shell-${shellLocale}-[hash].js`;
          const areaOf = (id: string) => id.match(/\/src\/client\/features\/([^/]+)\//)?.[1] ?? id.match(/\/src\/client\/([^/]+)\//)?.[1] ?? null;
          const pagesOf = facade.match(/\/features\/([^/]+)\/pages\.tsx$/)?.[1];
          if (pagesOf) return `assets/${pagesOf}-[hash].js`;
          const ours = chunk.moduleIds.filter((id) => id.includes('/src/client/') && !id.includes('/node_modules/'));
          // A dynamic entry that Rollup merged with code other chunks import has no facade of its own.
          const screens = [...new Set(ours.map((id) => id.match(/\/features\/([^/]+)\/pages\.tsx$/)?.[1]).filter((a): a is string => !!a))];
          if (screens.length === 1) return `assets/${screens[0]}-[hash].js`;
          if (facade && ours.includes(facade)) {
            const file = facade.match(/([^/]+)\.[jt]sx?$/)?.[1] ?? chunk.name;
            const area = areaOf(facade);
            return `assets/${area && area !== file ? `${area}-${file}` : file}-[hash].js`;
          }
          // A dynamic entry merged with the code it shares (features/recent/RecentLayout.tsx and
          // service parts): still named after its entry, recent-RecentLayout-<hash>.js.
          const entry = chunk.isDynamicEntry ? ours.find((id) => id.match(/([^/]+)\.[jt]sx?$/)?.[1] === chunk.name) : undefined;
          if (entry) return `assets/${areaOf(entry) ?? 'app'}-${chunk.name}-[hash].js`;
          const areas = [...new Set(ours.map(areaOf).filter((a): a is string => !!a))].sort();
          if (areas.length === 1) return `assets/${areas[0]}-shared-[hash].js`;
          if (areas.length > 1) return `assets/shared-${areas.slice(0, 3).join('-')}-[hash].js`;
          return `assets/${chunk.name}-[hash].js`;
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
