import type { Plugin } from 'vite';

/**
 * Loads the app's first script (src/early.ts, its own entry in vite.config.ts) from index.html,
 * first in `<head>` and `async`, with modulepreloads for what it imports. A script tag written in
 * index.html would be bundled into the app's entry and run only once all of the app has loaded,
 * which is what the early socket exists to avoid (src/net/early-socket.ts).
 */
export function earlyScript(entry: string): Plugin {
  return {
    name: 'zcode-early-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.isEntry && c.name === entry);
        if (chunk?.type !== 'chunk') throw new Error(`early script: no entry chunk named ${entry}`);
        return [
          { tag: 'script', attrs: { type: 'module', async: true, crossorigin: true, src: `/${chunk.fileName}` }, injectTo: 'head-prepend' },
          ...chunk.imports.map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
            injectTo: 'head-prepend' as const,
          })),
        ];
      },
    },
  };
}
