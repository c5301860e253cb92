/**
 * Reads a cluster inventory from a path or standard input, never more than
 * the importer would take (MAX_IMPORT_CHARS): `--cluster /dev/zero` took
 * 11 s and 694 MB before the importer refused it (issue 20), and a FIFO
 * with no writer hung forever. Only regular files are opened.
 */
import { open, stat } from "node:fs/promises";
import { MAX_IMPORT_CHARS } from "../../src/cluster/import.ts";

export class InputError extends Error {}

const TOO_BIG = `more than ${(MAX_IMPORT_CHARS / 2 ** 20).toFixed(0)} MiB; an inventory is far smaller: give only the tool's output`;

function kindOf(info: Awaited<ReturnType<typeof stat>>): string | null {
  if (info.isFile()) return null;
  if (info.isDirectory()) return "it is a directory, not a file";
  if (info.isFIFO()) return "it is a named pipe (FIFO), not a file: save the inventory to a file first";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "it is a device, not a file";
  if (info.isSocket()) return "it is a socket, not a file";
  return "it is not a regular file";
}

/** The text of a regular file of at most MAX_IMPORT_CHARS bytes; an InputError in words otherwise. */
export async function readInventoryFile(path: string): Promise<string> {
  // stat before open: opening a FIFO for reading blocks until something writes to it.
  const info = await stat(path).catch((err: NodeJS.ErrnoException) => {
    throw new InputError(
      err.code === "ENOENT"
        ? "no such file"
        : err.code === "EACCES"
          ? "permission denied"
          : `cannot read it (${err.code ?? String(err)})`,
    );
  });
  const kind = kindOf(info);
  if (kind) throw new InputError(kind);
  if (info.size > MAX_IMPORT_CHARS)
    throw new InputError(`it is ${info.size.toLocaleString("en-US")} bytes, ${TOO_BIG}`);
  const file = await open(path, "r");
  try {
    // Read one byte past the bound: a file that grew after stat is still refused, never read whole.
    const buffer = Buffer.alloc(MAX_IMPORT_CHARS + 1);
    let filled = 0;
    for (let got = -1; got !== 0 && filled < buffer.length; filled += got)
      got = (await file.read(buffer, filled, buffer.length - filled, filled)).bytesRead;
    if (filled > MAX_IMPORT_CHARS) throw new InputError(`it is ${TOO_BIG}`);
    return buffer.subarray(0, filled).toString("utf8");
  } finally {
    await file.close();
  }
}

/** Standard input, stopped as soon as it passes MAX_IMPORT_CHARS bytes. */
export async function readInventoryStdin(stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    bytes += buffer.length;
    if (bytes > MAX_IMPORT_CHARS) throw new InputError(`standard input is ${TOO_BIG}`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
