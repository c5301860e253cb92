/**
 * llama.cpp's --kv-unified (issue 14): one stream of context × slots cells the slots share, against the
 * figures llama.cpp v0.4.0 printed for the same geometry (test/engine FINDINGS.md F3: gpt-oss-20b with
 * 2 layers, one sliding and one full, 2 × 8k: 33.50 MiB unified, 35.00 per slot; every layer's share is
 * per-layer, so the 24-layer model's is 12 times each). The command says --kv-unified only when asked.
 */
import { describe, expect, test } from "vitest";
import { kvGeometry, llamacppCacheBytes, plan, type Workload } from "../../src/plan/index.ts";
import { cards, ggufOf, node, shapeOf } from "./planning-fixtures.ts";

const MIB = 2 ** 20;

describe("the cache of 2 slots of 8k with and without --kv-unified (gpt-oss-20b: 12 sliding, 12 full layers)", () => {
  const g = kvGeometry(shapeOf("openai/gpt-oss-20b").layerCaches, 1);

  test("unified: one window of 128 × 2 + 512 cells for both slots, 768 (the engine's 1.50 MiB a sliding layer)", () => {
    expect(llamacppCacheBytes(g, 2, 8192, 2, 512, true) / MIB).toBe(12 * 32 + 12 * 1.5);
  });

  test("per slot (llama-server's default with --parallel): a window of 128 + 512 → 768 cells each (3.00 MiB)", () => {
    expect(llamacppCacheBytes(g, 2, 8192, 2, 512) / MIB).toBe(12 * 32 + 12 * 3);
  });

  test("one slot is the same either way", () => {
    expect(llamacppCacheBytes(g, 2, 8192, 1, 512, true)).toBe(llamacppCacheBytes(g, 2, 8192, 1, 512));
  });

  test("full-attention layers hold n_ctx either way: Qwen3-235B's 4 × 4k is 16,384 cells", () => {
    const q = kvGeometry(shapeOf("Qwen/Qwen3-235B-A22B").layerCaches, 1);
    expect(llamacppCacheBytes(q, 2, 4096, 4, 512, true)).toBe(16384 * 192512);
    expect(llamacppCacheBytes(q, 2, 4096, 4, 512, false)).toBe(16384 * 192512);
  });

  test("per slot, n_ctx is slots × pad256(n_ctx / slots) (src/llama-context.cpp:293-301): 3 × 100 tokens → 768 cells", () => {
    const q = kvGeometry(shapeOf("Qwen/Qwen3-235B-A22B").layerCaches, 1);
    expect(llamacppCacheBytes(q, 2, 100, 3, 512)).toBe(768 * 192512);
    expect(llamacppCacheBytes(q, 2, 100, 3, 512, true)).toBe(512 * 192512);
  });
});

describe("a plan asked for --kv-unified", () => {
  const REPO = "Qwen/Qwen2.5-14B-Instruct";
  const Q4 = ggufOf(REPO, "Qwen2.5-14B-Instruct-Q4_K_M.gguf", "Q4_K_M");
  const cluster = { nodes: [node("box", "", [cards("l40s-48g", 1)], 128, 120)] };
  const at = (settings: Workload["settings"]) =>
    plan({ repo: REPO, revision: "", shape: shapeOf(REPO), artifacts: [Q4] }, cluster, {
      contextTokens: 8192,
      sequences: 4,
      kvDtype: "auto",
      settings,
    }).options.filter((o) => o.engine === "llamacpp");

  test("its commands pass --kv-unified beside --parallel and the pool's --ctx-size; left unset they do not", () => {
    for (const o of at({ kvUnified: true })) {
      expect(o.commands.join(" ")).toMatch(/--ctx-size 32768 .*--parallel 4 --kv-unified/);
    }
    for (const o of at({})) expect(o.commands.join(" ")).not.toContain("--kv-unified");
  });

  test("it says what the shared pool means for the sequences: 4 of 8,192 fit together, one may run longer", () => {
    const notes = at({ kvUnified: true }).flatMap((o) => o.notes ?? []);
    expect(notes.some((n) => n.startsWith("--kv-unified: the 4 slots share one pool of 32768 cells (4 × 8192)"))).toBe(
      true,
    );
    expect(
      at({})
        .flatMap((o) => o.notes ?? [])
        .some((n) => n.includes("--kv-unified")),
    ).toBe(false);
  });

  test("its pool is the same tokens and slots (a model without sliding layers holds the same cache)", () => {
    const [u, n] = [at({ kvUnified: true }), at({})];
    expect(u.map((o) => [o.kvPoolTokens, o.maxConcurrency])).toEqual(n.map((o) => [o.kvPoolTokens, o.maxConcurrency]));
    expect(u.map((o) => o.cards.map((c) => c.kvBytes))).toEqual(n.map((o) => o.cards.map((c) => c.kvBytes)));
  });
});
