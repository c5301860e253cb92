import { describe, expect, test } from "vitest";
import { listQuantizedChildren } from "../../src/hub/derivatives.ts";
import { HubError } from "../../src/hub/errors.ts";
import { fakeHub, loadListRecordings, loadRecording } from "./fakeHub.ts";

const HUB = "https://hub.test";

describe("listQuantizedChildren", () => {
  test("asks the Hub for the base model's quantized children, most downloaded first", async () => {
    // The recording's tags gain the base_model tag the Hub derives from a card's
    // `base_model` (unsloth's card names deepseek-ai/DeepSeek-R1); the list answer is the model-list shape.
    const rec = loadRecording("unsloth/DeepSeek-R1-GGUF");
    const child = {
      ...rec,
      info: { ...rec.info, downloads: 1000, likes: 10, tags: ["gguf", "base_model:quantized:deepseek-ai/DeepSeek-R1"] },
    };
    const hub = fakeHub({ recordings: [child, loadRecording("Qwen/Qwen2.5-Coder-32B-Instruct")] });
    const children = await listQuantizedChildren("deepseek-ai/DeepSeek-R1", { hubUrl: HUB, fetch: hub.fetch });
    expect(children.map((c) => c.repo)).toEqual(["unsloth/DeepSeek-R1-GGUF"]);
    expect(children[0]?.gguf).toBe(true);
    const url = new URL(hub.requests[0]?.url ?? "");
    expect(url.pathname).toBe("/api/models");
    expect(url.searchParams.getAll("filter")).toEqual(["base_model:quantized:deepseek-ai/DeepSeek-R1"]);
    expect(url.searchParams.get("sort")).toBe("downloads");
  });

  test("the recorded list (the model list's real shape with expand) reads as children, GGUF and safetensors told apart", async () => {
    const hub = fakeHub({ recordings: [], lists: loadListRecordings() });
    const children = await listQuantizedChildren("Qwen/Qwen2.5-Coder-32B-Instruct", { hubUrl: HUB, fetch: hub.fetch });
    expect(children.map((c) => [c.repo, c.gguf, c.gated])).toEqual([
      ["Qwen/Qwen2.5-Coder-32B-Instruct-GGUF", true, false],
      ["bartowski/Qwen2.5-Coder-32B-Instruct-GGUF", true, false],
      ["Qwen/Qwen2.5-Coder-32B-Instruct-AWQ", false, false],
      ["Qwen/Qwen2.5-Coder-32B-Instruct-GPTQ-Int4", false, false],
    ]);
    // @huggingface/hub asks for the tags it needs to tell GGUF apart (expand=tags) beside its default fields.
    expect(new URL(hub.requests[0]?.url ?? "").searchParams.getAll("expand")).toContain("tags");
  });

  test("429 and no network are HubErrors with words", async () => {
    const limited = fakeHub({ recordings: [], fault: "rate-limit" });
    await expect(listQuantizedChildren("a/b", { hubUrl: HUB, fetch: limited.fetch })).rejects.toSatisfy(
      (e) => e instanceof HubError && e.kind === "rate-limit",
    );
    const offline = fakeHub({ recordings: [], fault: "offline" });
    await expect(listQuantizedChildren("a/b", { hubUrl: HUB, fetch: offline.fetch })).rejects.toSatisfy(
      (e) => e instanceof HubError && e.kind === "network",
    );
  });
});
