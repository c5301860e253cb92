/**
 * A Vite build plugin: the entry's stylesheet goes into index.html as a <style>, in place of the <link> Vite
 * writes. A linked stylesheet blocks the first paint until a second request is answered; inline, the header
 * index.html draws (and React's first screen) paints once the HTML is in (issue 19: first contentful paint).
 * index.html's CSP allows inline styles ('unsafe-inline' in style-src), not inline scripts. The styles are
 * ~15 KB (~4 KB gzipped). The file stays: Vite's preload of a lazy chunk (the accuracy view) names its
 * importers' styles, and applying the same rules again changes nothing on screen.
 */
import type { Plugin } from "vite";

export function inlineEntryCss(): Plugin {
  return {
    name: "modelplan:inline-entry-css",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        return html.replace(/<link rel="stylesheet"[^>]*href="\.?\/?([^"]+\.css)"[^>]*>/g, (tag, fileName: string) => {
          const asset = bundle[fileName];
          if (asset?.type !== "asset") return tag;
          return `<style>${String(asset.source)}</style>`;
        });
      },
    },
  };
}
