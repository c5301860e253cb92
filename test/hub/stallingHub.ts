/**
 * A Hub on 127.0.0.1 that misbehaves in time, as issue 20's attack did:
 * it accepts the connection and never answers, or sends the headers (and a
 * first piece of the body) and then nothing. Requests it lets through are
 * answered by the recorded fake Hub. Every socket is destroyed on close, so
 * a test ends even while requests hang.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Socket } from "node:net";

export type Stall = "silent" | "headers-then-nothing";

export interface StallingHub {
  url: string;
  /** Requests seen, by path, in order. */
  paths: string[];
  close(): Promise<void>;
}

/** `stallOn(path)` picks which requests stall (and how); the others go to `pass`. */
export async function stallingHub(
  stallOn: (path: string) => Stall | null,
  pass?: { handle(request: Request): Promise<Response> },
): Promise<StallingHub> {
  const sockets = new Set<Socket>();
  const paths: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    paths.push(path);
    const stall = stallOn(path);
    if (stall === "silent") return; // accepted, never answered
    if (stall === "headers-then-nothing") {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100000" });
      res.write('{"id":"');
      return;
    }
    if (!pass) {
      res.writeHead(404).end();
      return;
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    pass
      .handle(new Request(`http://${req.headers.host}${req.url}`, { method: req.method ?? "GET", headers }))
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch(() => res.destroy());
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    close: () =>
      new Promise<void>((ok) => {
        for (const s of sockets) s.destroy();
        server.close(() => ok());
      }),
  };
}
