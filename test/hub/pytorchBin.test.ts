/**
 * Repos whose weights are only pytorch_model*.bin, read from the fake Hub's
 * recordings of two real ones (test/fixtures/hub/, each figure's source in
 * the recording): RedPajama-INCITE-7B-Base (fp16, 2 shards) and
 * Wizard-Vicuna-30B-Uncensored (fp32, 14 shards beside training_args.bin).
 * From the Hub's answers to a plan: the artifact, its bytes, the requests,
 * and which engines are offered.
 */
import { describe, expect, test } from "vitest";
import { readRepo, requestBudget } from "../../src/hub/read.ts";
import type { HubAccess } from "../../src/hub/read.ts";
import { DEFAULT_WORKLOAD, plan, readModel } from "../../src/plan/index.ts";
import type { Cluster, RepoSnapshot } from "../../src/plan/index.ts";
import { fakeHub, loadRecording } from "./fakeHub.ts";
import type { Recording } from "./fakeHub.ts";

const HUB = "https://hub.test";
const REDPAJAMA = loadRecording("togethercomputer/RedPajama-INCITE-7B-Base");
const WIZARD = loadRecording("ehartford/Wizard-Vicuna-30B-Uncensored");
const INDEX = "pytorch_model.bin.index.json";
/** The recordings' placeholder sha (not seen in their sources). */
const SHA = "0".repeat(40);

function setup(recordings: Recording[], wrap?: (f: typeof fetch) => typeof fetch) {
  const hub = fakeHub({ recordings });
  const access: HubAccess = { hubUrl: HUB, fetch: wrap ? wrap(hub.fetch) : hub.fetch };
  return { hub, access };
}

/** One node of 8 H100s, as the seed's sample cluster has. */
const H100_NODE: Cluster = {
  nodes: [
    {
      id: "gpu-1",
      fabric: "ib0",
      hostMemGib: 1024,
      hostFreeGib: 1024,
      devices: [{ class: "h100-80g", count: 8, free: 8 }],
    },
  ],
};

/** Both models were trained for 2,048 positions (their config.json): plan within them. */
const AT_2K = { ...DEFAULT_WORKLOAD, contextTokens: 2048 };

function planOf(snap: RepoSnapshot) {
  const { shape, artifacts } = readModel(snap);
  return plan({ repo: snap.repo, revision: snap.sha, shape, artifacts }, H100_NODE, AT_2K);
}

describe("a repo of .bin shards with their index", () => {
  test("RedPajama-INCITE-7B: 3 requests (info, config.json, the index), the index's total_size as the artifact's bytes", async () => {
    const { hub, access } = setup([REDPAJAMA]);
    const snap = await readRepo("togethercomputer/RedPajama-INCITE-7B-Base", null, access);
    expect(hub.requests.map((r) => r.url)).toEqual([
      `${HUB}/api/models/togethercomputer/RedPajama-INCITE-7B-Base/revision/main?blobs=true`,
      `${HUB}/togethercomputer/RedPajama-INCITE-7B-Base/resolve/${SHA}/config.json`,
      `${HUB}/togethercomputer/RedPajama-INCITE-7B-Base/resolve/${SHA}/${INDEX}`,
    ]);
    expect(requestBudget(snap.files.map((f) => f.path)).jsonFiles).toEqual(["config.json", INDEX]);
    // Only the metadata is kept: the weight_map of every tensor would bloat the persisted snapshot.
    expect(snap.extraJson).toEqual({ [INDEX]: { metadata: { total_size: 13_731_385_408 } } });
    const { shape, artifacts } = readModel(snap);
    expect(artifacts.map((a) => [a.name, a.format, a.quant, a.bytes, a.files.length])).toEqual([
      ["original .bin", "pytorch", "fp16", 13_731_385_408, 2],
    ]);
    // The Hub counts no parameters for a repo without safetensors: the index's bytes ÷ 2 (fp16) give the card's "6.9B".
    expect(Math.abs((shape.paramsTotal ?? 0) / 6.9e9 - 1)).toBeLessThan(0.01);
  });

  test("RedPajama-INCITE-7B plans on vLLM and SGLang only: llama.cpp needs a GGUF", async () => {
    const { access } = setup([REDPAJAMA]);
    const p = planOf(await readRepo("togethercomputer/RedPajama-INCITE-7B-Base", null, access));
    const engines = new Set(p.options.map((o) => o.engine));
    expect(engines).toEqual(new Set(["vllm", "sglang"]));
    expect(p.options.every((o) => o.artifact === "original .bin" && o.format === "pytorch")).toBe(true);
    expect(p.refused.some((r) => r.engine === "llamacpp")).toBe(false);
    // 12.8 GiB of fp16 weights fit one 80 GB card.
    const vllm = p.options.find((o) => o.engine === "vllm");
    expect(vllm?.fits).toBe(true);
    expect(vllm?.placement.tensorParallel).toBe(1);
  });

  test("Wizard-Vicuna-30B: 3 requests; the 14 shards' 130,115,789,824 B of fp32 tensors, not training_args.bin", async () => {
    const { hub, access } = setup([WIZARD]);
    const snap = await readRepo("ehartford/Wizard-Vicuna-30B-Uncensored", null, access);
    expect(hub.requests).toHaveLength(3);
    expect(hub.requests[2]?.url).toBe(`${HUB}/ehartford/Wizard-Vicuna-30B-Uncensored/resolve/${SHA}/${INDEX}`);
    const { shape, artifacts } = readModel(snap);
    expect(artifacts).toHaveLength(1);
    expect(artifacts[0]).toMatchObject({ format: "pytorch", quant: "fp32", bytes: 130_115_789_824, bitsPerWeight: 32 });
    expect(artifacts[0]?.files).not.toContain("training_args.bin");
    // Counted at config.json's float32: the LLaMA paper's 32.5 B for its "33B".
    expect(Math.abs((shape.paramsTotal ?? 0) / 32.5e9 - 1)).toBeLessThan(0.001);
    const p = planOf(snap);
    expect(p.options.length).toBeGreaterThan(0);
    expect(p.options.every((o) => o.engine === "vllm" || o.engine === "sglang")).toBe(true);
  });
});

describe("an fp32 checkpoint under --dtype auto", () => {
  // vLLM's _resolve_auto_dtype: "Downcast for float32 models" to the platform's first dtype (bfloat16 on
  // an H100); SGLang's _get_and_verify_dtype does the same. 130,115,789,824 B of fp32 are 65.06e9 B at 16 bits.
  const SIXTEEN_BIT_BYTES = 130_115_789_824 / 2;

  async function wizardPlan(settings: typeof DEFAULT_WORKLOAD.settings) {
    const { access } = setup([WIZARD]);
    const snap = await readRepo("ehartford/Wizard-Vicuna-30B-Uncensored", null, access);
    const { shape, artifacts } = readModel(snap);
    return plan({ repo: snap.repo, revision: snap.sha, shape, artifacts }, H100_NODE, { ...AT_2K, settings });
  }

  test("vLLM and SGLang hold Wizard-Vicuna-30B's weights at 16 bits: one H100 each, as vLLM would load it", async () => {
    const p = await wizardPlan({});
    for (const engine of ["vllm", "sglang"] as const) {
      const o = p.options.find((x) => x.engine === engine);
      expect(o?.placement.tensorParallel, engine).toBe(1);
      const weights = o?.cards[0]?.weightsBytes ?? 0;
      // The checkpoint's tensors at 16 bits, plus the rotary cache (2,048 positions × 128 × 2 B, a few hundred KiB).
      expect(weights / SIXTEEN_BIT_BYTES - 1, engine).toBeGreaterThanOrEqual(0);
      expect(weights / SIXTEEN_BIT_BYTES - 1, engine).toBeLessThan(0.001);
    }
  });

  test("--dtype float32 keeps them at 32 bits: 121 GiB, two H100s at least", async () => {
    const p = await wizardPlan({ dtype: "float32" });
    const o = p.options.find((x) => x.engine === "vllm");
    expect(o?.placement.tensorParallel ?? 0).toBeGreaterThanOrEqual(2);
    const perCard = o?.cards[0]?.weightsBytes ?? 0;
    expect((perCard * (o?.placement.tensorParallel ?? 0)) / (2 * SIXTEEN_BIT_BYTES) - 1).toBeLessThan(0.001);
  });
});

describe("when the index cannot help", () => {
  test("a broken index is no reason to refuse the repo: the shards' LFS sizes stand", async () => {
    const failIndex =
      (f: typeof fetch): typeof fetch =>
      (input, init) =>
        String(input).endsWith(INDEX)
          ? Promise.resolve(new Response("upstream error", { status: 500 }))
          : f(input, init);
    const { access } = setup([REDPAJAMA], failIndex);
    const snap = await readRepo("togethercomputer/RedPajama-INCITE-7B-Base", null, access);
    expect(snap.extraJson).toBeUndefined();
    expect(readModel(snap).artifacts[0]?.bytes).toBe(10_045_941_140 + 3_803_058_098);
  });

  test("shards without an index (the same listing, index left out) take 2 requests and weigh their files", async () => {
    const siblings = REDPAJAMA.info.siblings.filter((s) => s.rfilename !== INDEX);
    const { hub, access } = setup([{ ...REDPAJAMA, info: { ...REDPAJAMA.info, siblings } }]);
    const snap = await readRepo("togethercomputer/RedPajama-INCITE-7B-Base", null, access);
    expect(hub.requests).toHaveLength(2);
    expect(readModel(snap).artifacts[0]?.bytes).toBe(13_848_999_238);
  });
});
