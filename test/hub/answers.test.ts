/**
 * Malformed Hub answers (issue 20): each is refused with a message that
 * names what is wrong, never a crash in the engine or an unbounded loop.
 */
import { describe, expect, test } from "vitest";
import { HubError } from "../../src/hub/errors.ts";
import { readRepo } from "../../src/hub/read.ts";
import { fakeHub, loadRecording } from "./fakeHub.ts";

const HUB = "https://hub.test";
const CODER = loadRecording("Qwen/Qwen2.5-Coder-32B-Instruct");

/** The fake Hub, with the model info's JSON (or config.json's text) replaced by the test's. */
function hubAnswering(info: (real: Record<string, unknown>) => unknown, configText?: string): typeof fetch {
  const hub = fakeHub({ recordings: [CODER] });
  return async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const res = await hub.fetch(input, init);
    if (url.includes("/api/models/"))
      return new Response(JSON.stringify(info((await res.json()) as Record<string, unknown>)), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    if (configText !== undefined && url.endsWith("/config.json"))
      return new Response(configText, { status: 200, headers: res.headers });
    return res;
  };
}

async function refusal(fetchFn: typeof fetch): Promise<HubError> {
  const err = await readRepo("Qwen/Qwen2.5-Coder-32B-Instruct", null, { hubUrl: HUB, fetch: fetchFn }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof HubError)) throw new Error(`expected a HubError, got ${String(err)}`);
  return err;
}

describe("a model info that is not what the Hub sends", () => {
  test.each([
    ["no file list", (r: Record<string, unknown>) => ({ ...r, siblings: undefined }), /siblings/],
    ["a file list that is an object", (r: Record<string, unknown>) => ({ ...r, siblings: { a: 1 } }), /siblings/],
    ["a commit sha that is a number", (r: Record<string, unknown>) => ({ ...r, sha: 42 }), /sha/],
    ["no commit sha", (r: Record<string, unknown>) => ({ ...r, sha: "" }), /sha: no commit sha/],
    [
      "a file whose size is text",
      (r: Record<string, unknown>) => ({ ...r, siblings: [{ rfilename: "model.safetensors", size: "big" }] }),
      /siblings\.0\.size/,
    ],
    [
      "a file with no name",
      (r: Record<string, unknown>) => ({ ...r, siblings: [{ size: 5 }] }),
      /siblings\.0\.rfilename/,
    ],
    [
      "1.5 million files",
      (r: Record<string, unknown>) => ({
        ...r,
        siblings: Array.from({ length: 1_500_000 }, (_, i) => ({ rfilename: `f${i}`, size: 1 })),
      }),
      /more than 50,000 files/,
    ],
    ["an array, not an object", () => [1, 2, 3], /model info/],
  ])("%s is refused in words", async (_name, change, named) => {
    const err = await refusal(hubAnswering(change));
    expect(err.kind).toBe("bad-response");
    expect(err.message).toMatch(named);
    expect(err.message).toMatch(/cannot read/);
  });
});

test("a model info of 40 MiB (a listing no real repo has) is cut off after 32 MiB, not read whole", async () => {
  let sent = 0;
  const chunk = new TextEncoder().encode(`{"rfilename":"${"f".repeat(200)}","size":1},`);
  const endless: typeof fetch = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode('{"sha":"abc","siblings":['));
        },
        pull(c) {
          if (sent > 40 * 2 ** 20) return c.close();
          sent += chunk.length;
          c.enqueue(chunk);
        },
      }),
      { status: 200, headers: { "content-type": "application/json" } },
    );
  const err = await refusal(endless);
  expect(err.message).toMatch(/of more than 32 MiB/);
  expect(sent).toBeLessThan(33 * 2 ** 20);
});

describe("a config.json that is not an object", () => {
  test.each([
    ["an array", "[1,2]"],
    ["a number", "42"],
    ["text", '"hello"'],
  ])("%s is refused, naming the file", async (_name, text) => {
    const err = await refusal(hubAnswering((r) => r, text));
    expect(err.message).toMatch(/config\.json of Qwen\/Qwen2\.5-Coder-32B-Instruct that is not a JSON object/);
  });

  test("text that is not JSON is refused, naming the file", async () => {
    const err = await refusal(hubAnswering((r) => r, '{"num_hidden_layers": 6'));
    expect(err.message).toMatch(/config\.json of .* that is not JSON/);
  });
});
