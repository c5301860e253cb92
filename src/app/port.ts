/**
 * A worker's two ends as the page's clients use them (planClient.ts, calibrationClient.ts): a port that posts
 * requests and hears replies, or hears that it cannot answer. The same port can be the worker's own replies
 * made on this thread, a task later, across the same structured clone: the fallback where a worker cannot
 * start (a CSP without worker-src, a chunk the network lost), and the tests' worker.
 */
export interface Port<Request, Reply> {
  post(request: Request): void;
  listen(on: PortListener<Reply>): void;
}

export interface PortListener<Reply> {
  reply(reply: Reply): void;
  /** The port cannot answer (a worker that did not start); nothing sent to it is answered. */
  fail(why: string): void;
}

/** A started module worker as a port: an error in starting it, or a reply that cannot be read, ends it. */
export function workerPort<Request, Reply>(worker: Worker): Port<Request, Reply> {
  return {
    post: (request) => worker.postMessage(request),
    listen(on) {
      worker.onmessage = (e: MessageEvent<Reply>) => on.reply(e.data);
      worker.onerror = (e) => {
        e.preventDefault();
        worker.terminate();
        on.fail(e.message || "it did not start");
      };
      worker.onmessageerror = () => {
        worker.terminate();
        on.fail("a reply could not be read");
      };
    },
  };
}

/** The worker's replier run on this thread: loaded when the port opens (its code is a chunk of its own). */
export function inlinePort<Request, Reply>(replier: Promise<(request: Request) => Reply>): Port<Request, Reply> {
  let listener: PortListener<Reply> | null = null;
  return {
    post(request) {
      const sent = structuredClone(request);
      void replier.then(
        (reply) => setTimeout(() => listener?.reply(structuredClone(reply(sent))), 0),
        (e: unknown) => listener?.fail(e instanceof Error ? e.message : String(e)),
      );
    },
    listen(on) {
      listener = on;
      void replier.catch((e: unknown) => on.fail(e instanceof Error ? e.message : String(e)));
    },
  };
}
