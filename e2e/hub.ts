/**
 * The browser tests' network: the page's own files from the preview server,
 * the Hub from the recordings in test/fixtures/hub/ (the same fake Hub the
 * unit tests use, in the Hub's real shapes and status codes), and anything
 * else aborted and logged, so a test sees a request the page should never
 * make (static hosting: "no request but to the Hub").
 */
import type { BrowserContext } from "@playwright/test";
import { allRecordings, fakeHub, loadListRecordings } from "../test/hub/fakeHub.ts";

export const HUB = "https://huggingface.co";
/** The token the recorded gated repos accept (any hf_… token is well-formed; this one is approved). */
export const APPROVED_TOKEN = "hf_e2eApprovedToken";

export interface Network {
  /** Every Hub request the page made, in order. */
  hubRequests: string[];
  /** The Range header of each of those requests (null where there was none), in the same order. */
  hubRanges: (string | null)[];
  /** Requests to anywhere else but the page's own origin: each one is a defect. */
  blocked: string[];
}

export async function routeNetwork(context: BrowserContext, pageOrigin: string): Promise<Network> {
  const hub = fakeHub({ recordings: allRecordings(), lists: loadListRecordings(), approvedToken: APPROVED_TOKEN });
  const network: Network = { hubRequests: [], hubRanges: [], blocked: [] };
  await context.route("**/*", async (route) => {
    const request = route.request();
    const url = request.url();
    if (url.startsWith(pageOrigin)) return route.continue();
    if (!url.startsWith(`${HUB}/`)) {
      network.blocked.push(url);
      return route.abort("blockedbyclient");
    }
    network.hubRequests.push(url);
    network.hubRanges.push((await request.allHeaders())["range"] ?? null);
    const cors = {
      "access-control-allow-origin": pageOrigin,
      "access-control-allow-headers": "authorization, range, accept",
      "access-control-expose-headers": "*",
    };
    if (request.method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors });
    const response = await hub.handle(
      new Request(url, { method: request.method(), headers: await request.allHeaders() }),
    );
    const body = Buffer.from(await response.arrayBuffer());
    return route.fulfill({
      status: response.status,
      headers: { ...Object.fromEntries(response.headers), ...cors },
      body,
    });
  });
  return network;
}
