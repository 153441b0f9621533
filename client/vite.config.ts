import react from '@vitejs/plugin-react';
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite';

/** In development Vite serves the client and forwards API and socket traffic to the Koa server. */
const server = process.env.HELPDESK_API ?? 'http://127.0.0.1:3000';

/**
 * The entry script imports the boot code dynamically (src/main.tsx), which Vite does not announce in
 * index.html: this links it, what it imports and its stylesheet there, so they download with the page.
 */
function linkBootCode(): Plugin {
  return {
    name: 'helpdesk:link-boot-code',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const chunks = Object.values(bundle ?? {}).filter((output) => output.type === 'chunk');
        const boot = chunks.find((chunk) => chunk.name === 'boot');
        if (!boot) throw new Error('the build has no boot chunk');
        const linked = (file: string) => html.includes(`/${file}"`);
        const tags: HtmlTagDescriptor[] = [boot.fileName, ...boot.imports.filter((file) => !linked(file))].map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
          injectTo: 'head',
        }));
        for (const css of boot.viteMetadata?.importedCss ?? []) {
          tags.push({ tag: 'link', attrs: { rel: 'stylesheet', crossorigin: true, href: `/${css}` }, injectTo: 'head' });
        }
        return tags;
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), linkBootCode()],
  server: {
    proxy: {
      '/api': server,
      '/socket.io': { target: server, ws: true },
    },
  },
  build: {
    manifest: true,
    // Every browser the app supports has modulepreload; the polyfill was a script of its own to fetch.
    modulePreload: { polyfill: false },
    sourcemap: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // A handful of chunks instead of ~140: on a phone each wave of small files costs round trips
        // (slow 4G, HTTP/1.1, six connections). A group named by one module takes it and everything it
        // imports, so: the boot code with the login page (the first visit to /login is one script), the
        // toast host, markdown (articles, comments) and zod with the schemas (forms) apart, then what
        // two or more pages share, libraries and app code separately; each page keeps its own chunk.
        codeSplitting: {
          groups: [
            // The entry script with the page table and early reads: tiny, so it starts the page's downloads early.
            {
              name: 'entry',
              test: /src[\\/]main\.tsx$|routing[\\/]pages\.ts$|api[\\/]earlyReads\.ts$|node_modules[\\/]regexparam[\\/]|preload-helper/,
              priority: 11,
            },
            // The password rule is a dependency of the zod schemas, but shared code names its characters.
            {
              name: 'boot',
              test: /src[\\/]boot\.tsx$|features[\\/]auth[\\/]LoginPage\.tsx$|protocol[\\/]src[\\/]passwordRule\.ts$/,
              priority: 10,
            },
            { name: 'toasts', test: /components[\\/]NotificationsHost\.tsx$/, priority: 9 },
            { name: 'markdown', test: /features[\\/]knowledge[\\/]MarkdownContent\.tsx$/, priority: 8 },
            {
              name: 'zod',
              test: /node_modules[\\/](zod|mantine-form-zod-resolver)[\\/]|protocol[\\/]src[\\/]api[\\/]|lib[\\/]schemaResolver/,
              priority: 7,
            },
            { name: 'ui', test: /node_modules/, minShareCount: 2, priority: 5 },
            { name: 'app', minShareCount: 2, priority: 4 },
          ],
        },
      },
    },
  },
});
