/**
 * A second release of the built site without a second build: a copy of dist/ served by a plain static
 * server of the test's own, then changed in place as the next `vite build` would change it. The service
 * worker then sees what it sees on a real host: a byte-different sw.js whose precache manifest names
 * new chunks and a new index.html revision, and a host that no longer has the old version's chunks.
 */
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};

export interface Site {
  /** http://127.0.0.1:<port>, a port the system picked: no clash with the preview server or another checkout. */
  origin: string;
  /** The served copy of dist/. */
  dir: string;
  close(): Promise<void>;
}

/** Serves a fresh copy of dist/ as plain files: no rewriting, no fallback, 404 for what is not there. */
export async function serveCopyOfDist(): Promise<Site> {
  const dir = mkdtempSync(join(tmpdir(), "modelplan-release-"));
  cpSync(DIST, dir, { recursive: true });
  const server: Server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
    const path = normalize(pathname === "/" ? "/index.html" : pathname);
    let body: Buffer;
    try {
      body = readFileSync(join(dir, path));
    } catch {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    // no-cache: each release is read from this copy as it is now, never from the browser's HTTP cache.
    response.writeHead(200, {
      "content-type": TYPES[extname(path)] ?? "application/octet-stream",
      "cache-control": "no-cache",
    });
    response.end(request.method === "HEAD" ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    dir,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        rmSync(dir, { recursive: true, force: true });
      }),
  };
}

/** The entry chunk's file name, from index.html's module script. */
function entryChunk(html: string): string {
  const name = /<script type="module"[^>]* src="\.\/assets\/([^"]+\.js)"/.exec(html)?.[1];
  if (name === undefined) throw new Error("index.html names no entry chunk");
  return name;
}

/**
 * Makes the served copy the next release: the entry chunk's code changes (it runs `code` last), and as in a
 * real build every chunk that names a changed chunk changes too, so each gets a new file name, and so does
 * the chunk that names it, up to index.html. sw.js's precache manifest then lists the new names and
 * index.html's new revision (Workbox's: the file's MD5), and the old names are gone from the host.
 * Returns the old version's file names that the release replaced.
 */
export function releaseNextVersion(dir: string, code: string): string[] {
  const assets = join(dir, "assets");
  const texts = new Map<string, string>();
  for (const name of readdirSync(assets))
    if (name.endsWith(".js") || name.endsWith(".css")) texts.set(name, readFileSync(join(assets, name), "utf8"));
  const html = readFileSync(join(dir, "index.html"), "utf8");
  const entry = entryChunk(html);
  texts.set(entry, `${texts.get(entry)}\n${code}\n`);

  // Rename the changed chunks, then every chunk naming a renamed one, until none is left.
  const renamed = new Map<string, string>();
  const namesAnyOf = (olds: string[]) =>
    [...texts]
      .filter(([name, text]) => !renamed.has(name) && olds.some((old) => text.includes(`/${old}`)))
      .map(([name]) => name);
  for (let changed = [entry]; changed.length > 0; changed = namesAnyOf(changed))
    for (const name of changed) renamed.set(name, name.replace(/\.(js|css)$/, "-next.$1"));
  // References are "./name" (chunks, index.html) or "assets/name" (sw.js): a leading "/" each time.
  const rewrite = (text: string) =>
    [...renamed].reduce((out, [old, next]) => out.split(`/${old}`).join(`/${next}`), text);

  for (const [old, next] of renamed) {
    rmSync(join(assets, old));
    writeFileSync(join(assets, next), rewrite(texts.get(old) ?? ""));
  }
  const nextHtml = rewrite(html);
  writeFileSync(join(dir, "index.html"), nextHtml);
  const sw = readFileSync(join(dir, "sw.js"), "utf8");
  const revision = createHash("md5").update(nextHtml).digest("hex");
  const nextSw = rewrite(sw).replace(/(\{url:"index\.html",revision:")[0-9a-f]+"/, `$1${revision}"`);
  if (!nextSw.includes(revision)) throw new Error("sw.js lists no index.html revision to change");
  writeFileSync(join(dir, "sw.js"), nextSw);
  return [...renamed.keys()];
}
