import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseGGUFQuantLabel } from "@huggingface/gguf";
import { describe, expect, test } from "vitest";
import { PYTORCH_INDEX, artifactsOf, needsPytorchIndex, pytorchWeightFiles } from "../../src/plan/index.ts";
import { readConfigJson as parseConfigJson } from "../../src/hub/configJson.ts";
import { shapeFromConfig } from "../../src/plan/index.ts";
import { ggufQuantOf, quantFromName } from "../../src/plan/index.ts";
import type { Artifact, ModelShape, RepoFile, RepoSnapshot } from "../../src/plan/index.ts";
import { GIB, loadConfig, loadExtraJson, loadModel, modelNames, snapshotOf } from "./fixture.ts";

function artifactsOfModel(name: string, paramsTotal?: number): Artifact[] {
  const snapshot = snapshotOf(name);
  if (paramsTotal !== undefined) snapshot.paramsTotal = paramsTotal;
  return artifactsOf(snapshot, shapeOf(snapshot));
}

function shapeOf(snapshot: RepoSnapshot): ModelShape {
  if (snapshot.config === null) return ggufOnlyShape(snapshot.paramsTotal);
  return shapeFromConfig(snapshot.config, snapshot.paramsTotal, snapshot.extraJson);
}

/** A dense stand-in shape for GGUF-only listings recorded without a header: artifacts read only the file list from it. */
function ggufOnlyShape(paramsTotal: number | null): ModelShape {
  return { ...shapeFromConfig(loadConfig("Qwen__Qwen3-8B"), null), paramsTotal };
}

function byName(artifacts: Artifact[], name: string): Artifact {
  const a = artifacts.find((x) => x.name === name);
  if (a === undefined) throw new Error(`no artifact ${name} among ${artifacts.map((x) => x.name).join(", ")}`);
  return a;
}

describe("original safetensors weigh the sum of their shards", () => {
  test("DeepSeek-R1: 163 shards (6-digit totals), 688,586,727,753 B, fp8", () => {
    const [a, ...rest] = artifactsOfModel("deepseek-ai__DeepSeek-R1");
    expect(rest).toHaveLength(0);
    expect(a).toMatchObject({
      name: "original",
      format: "safetensors",
      bytes: 688_586_727_753,
      quant: "fp8",
      projectorBytes: 0,
    });
    expect(a?.files).toHaveLength(163);
  });

  test("gpt-oss-20b: three 0-indexed shards, not original/model.safetensors again", () => {
    const [a, ...rest] = artifactsOfModel("openai__gpt-oss-20b");
    expect(rest).toHaveLength(0);
    expect(a?.files).toEqual([
      "model-00000-of-00002.safetensors",
      "model-00001-of-00002.safetensors",
      "model-00002-of-00002.safetensors",
    ]);
    // fixtures/models/openai__gpt-oss-20b.json: "Sum of the 3 HF-format shards = 13761316904 bytes".
    expect(a?.bytes).toBe(13_761_316_904);
  });

  test("Mixtral: the 19 safetensors, not the 8 consolidated .pt copies", () => {
    const a = artifactsOfModel("mistralai__Mixtral-8x7B-Instruct-v0.1")[0];
    expect(a?.files).toHaveLength(19);
    expect(a?.files.some((f) => f.endsWith(".pt"))).toBe(false);
    // The files are the index's tensor bytes plus each file's JSON header: within 0.01 %.
    expect(Math.abs((a?.bytes ?? 0) - 93_405_585_408) / 93_405_585_408).toBeLessThan(1e-4);
  });

  // The second column is each repo's model.safetensors.index.json total_size
  // (tensor bytes only); the files add their JSON headers: within 0.001 %.
  test.each([
    ["Qwen__Qwen2.5-Coder-32B-Instruct", 65_527_752_704, 14],
    ["Qwen__Qwen2.5-VL-7B-Instruct", 16_584_333_312, 5],
    ["microsoft__phi-4", 29_319_014_400, 6],
    ["meta-llama__Llama-3.1-8B-Instruct", 16_060_522_496, 4],
  ])("%s: the index's %i B in %i shards", (name, indexBytes, shards) => {
    const sum = (loadModel(name).files ?? []).reduce((s, f) => s + (f.size ?? 0), 0);
    const a = artifactsOfModel(name)[0];
    expect(a?.files).toHaveLength(shards);
    expect(a?.bytes).toBe(sum);
    expect((sum - indexBytes) / indexBytes).toBeGreaterThan(0);
    expect((sum - indexBytes) / indexBytes).toBeLessThan(1e-5);
  });

  test("bf16 checkpoints spend 16 bits a parameter (the index's own parameter count), headers within 0.01 %", () => {
    const a = artifactsOfModel("Qwen__Qwen2.5-Coder-32B-Instruct")[0];
    expect(a?.quant).toBe("bf16");
    expect(Math.abs((a?.bitsPerWeight ?? 0) - 16)).toBeLessThan(0.002);
  });
});

describe("quantized checkpoints get their quant from the config", () => {
  const oneFile: RepoFile[] = [{ path: "model-00001-of-00001.safetensors", sizeBytes: 1 }];
  test.each([
    ["Qwen__Qwen3-30B-A3B", "bf16"],
    ["Qwen__Qwen3-30B-A3B-FP8", "fp8"],
    ["openai__gpt-oss-20b", "mxfp4"],
    ["moonshotai__Kimi-K2.5", "int4"], // compressed-tensors pack-quantized, in text_config
    ["moonshotai__Kimi-K3", "mxfp4"], // compressed-tensors mxfp4-pack-quantized
    ["nvidia__Qwen3.6-35B-A3B-NVFP4", "nvfp4"], // modelopt MIXED_PRECISION with NVFP4 experts
    ["nvidia__DeepSeek-V3.1-NVFP4", "nvfp4"], // only hf_quant_config.json says so
    ["nvidia__NVIDIA-Nemotron-3-Super-120B-A12B-FP8", "fp8"], // hf_quant_config.json quant_algo FP8
  ])("%s: %s", (name, quant) => {
    const snapshot: RepoSnapshot = {
      repo: name,
      sha: "",
      config: loadConfig(name),
      files: oneFile,
      paramsTotal: null,
      ggufHeaders: {},
    };
    const extra = loadExtraJson(name);
    if (extra !== undefined) snapshot.extraJson = extra;
    expect(artifactsOf(snapshot, shapeOf(snapshot))[0]?.quant).toBe(quant);
  });

  test("AWQ (LDCC's Qwen2.5-72B): awq", () => {
    const config = loadModel("LDCC__Qwen2.5-72B-Instruct-ko-AWQ").config ?? {};
    const snapshot: RepoSnapshot = {
      repo: "LDCC/Qwen2.5-72B-Instruct-ko-AWQ",
      sha: "",
      config,
      files: oneFile,
      paramsTotal: null,
      ggufHeaders: {},
    };
    expect(artifactsOf(snapshot, shapeOf(snapshot))[0]?.quant).toBe("awq");
  });

  test("a parameter count of packed storage (AWQ int32s holding eight weights) falls back to the scheme's nominal bits", () => {
    const config = loadModel("LDCC__Qwen2.5-72B-Instruct-ko-AWQ").config ?? {};
    // 41 GB of AWQ files against a count of ~12 B "parameters" would read as 27 bits a weight.
    const snapshot: RepoSnapshot = {
      repo: "x",
      sha: "",
      config,
      files: [{ path: "model.safetensors", sizeBytes: 41e9 }],
      paramsTotal: 12.1e9,
      ggufHeaders: {},
    };
    expect(artifactsOf(snapshot, shapeOf(snapshot))[0]?.bitsPerWeight).toBe(4.16);
  });

  test("bits per weight are file bytes × 8 ÷ parameters for a quantized checkpoint", () => {
    const snapshot: RepoSnapshot = {
      repo: "x",
      sha: "",
      config: loadConfig("Qwen__Qwen3-30B-A3B-FP8"),
      files: [{ path: "model.safetensors", sizeBytes: 31_000_000_000 }],
      paramsTotal: 30_500_000_000,
      ggufHeaders: {},
    };
    expect(artifactsOf(snapshot, shapeOf(snapshot))[0]?.bitsPerWeight).toBeCloseTo((31e9 * 8) / 30.5e9, 6);
  });
});

describe("expert bytes", () => {
  test("gpt-oss-20b: what is not experts is the bf16 rest of the model (embeddings, attention, router, biases)", () => {
    // The file list's config copy says "gptq" (fixtures/models README: treat it as mxfp4); the
    // configs fixture has the official mxfp4 one.
    const config = loadConfig("openai__gpt-oss-20b");
    const snapshot = { ...snapshotOf("openai__gpt-oss-20b"), config };
    const a = artifactsOf(snapshot, shapeOf(snapshot))[0];
    expect(a?.quant).toBe("mxfp4");
    // Counted from the config's dimensions, independently of the expert geometry.
    const hidden = 2880;
    const embeddings = 201_088 * hidden * 2; // untied input and output
    const attention = 24 * (hidden * 64 * 64 * 2 + hidden * 8 * 64 * 2); // q and o; k and v
    const router = 24 * hidden * 32;
    const expertBiases = 24 * 32 * (2 * hidden + hidden);
    const restBytes = (embeddings + attention + router + expertBiases) * 2;
    expect(config["tie_word_embeddings"]).toBe(false);
    expect(Math.abs((a?.bytes ?? 0) - (a?.expertBytes ?? 0) - restBytes) / restBytes).toBeLessThan(0.005);
  });

  test("DeepSeek-R1: the routed experts are most of the file, not all of it", () => {
    const a = artifactsOfModel("deepseek-ai__DeepSeek-R1")[0];
    const share = (a?.expertBytes ?? 0) / (a?.bytes ?? 1);
    expect(share).toBeGreaterThan(0.9);
    expect(share).toBeLessThan(1);
  });

  test("a dense model has none", () => {
    expect(artifactsOfModel("microsoft__phi-4")[0]?.expertBytes).toBe(0);
  });
});

describe("GGUF artifacts", () => {
  test("unsloth/DeepSeek-R1-GGUF: 13 quant folders of split files, each one artifact with the recorded total", () => {
    const m = loadModel("unsloth__DeepSeek-R1-GGUF");
    const artifacts = artifactsOfModel("unsloth__DeepSeek-R1-GGUF").filter((a) => a.format === "gguf");
    expect(artifacts).toHaveLength(13);
    for (const [folder, total] of Object.entries(m.quant_totals ?? {})) {
      const a = artifacts.find((x) => x.files[0]?.startsWith(`${folder}/`));
      expect(a?.bytes, folder).toBe(total.total_size);
      expect(a?.files, folder).toHaveLength(total.n_files);
    }
  });

  test.each([
    ["DeepSeek-R1-BF16/DeepSeek-R1.BF16", "BF16"],
    ["DeepSeek-R1-Q2_K/DeepSeek-R1-Q2_K", "Q2_K"],
    ["DeepSeek-R1-Q2_K_L/DeepSeek-R1-Q2_K_L", "Q2_K_L"],
    ["DeepSeek-R1-Q2_K_XS/DeepSeek-R1-Q2_K_XS", "Q2_K_XS"],
    ["DeepSeek-R1-Q8_0/DeepSeek-R1.Q8_0", "Q8_0"],
    ["DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S", "IQ1_S"],
    ["DeepSeek-R1-UD-IQ2_XXS/DeepSeek-R1-UD-IQ2_XXS", "IQ2_XXS"],
    ["DeepSeek-R1-UD-Q2_K_XL/DeepSeek-R1-UD-Q2_K_XL", "Q2_K_XL"],
  ])("%s reads as %s", (name, quant) => {
    expect(byName(artifactsOfModel("unsloth__DeepSeek-R1-GGUF"), name).quant).toBe(quant);
  });

  test("the first part comes first, and parts are in order", () => {
    const a = byName(artifactsOfModel("unsloth__DeepSeek-R1-GGUF"), "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S");
    expect(a.files).toEqual([1, 2, 3].map((i) => `DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S-0000${i}-of-00003.gguf`));
  });

  test("gguf-parser's 130.60 GiB for the UD-IQ1_S set is the sum of its three parts", () => {
    const a = byName(artifactsOfModel("unsloth__DeepSeek-R1-GGUF"), "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S");
    expect(a.bytes / GIB).toBeCloseTo(130.6, 2);
  });

  test("with gguf-parser's 671.03 B parameters, UD-IQ1_S spends the 1.67 bits a weight it printed", () => {
    const a = byName(
      artifactsOfModel("unsloth__DeepSeek-R1-GGUF", 671.03e9),
      "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S",
    );
    expect(Math.abs(a.bitsPerWeight - 1.67)).toBeLessThan(0.005);
  });

  test.each([
    ["Qwen2.5-14B-Instruct-Q8_0.gguf", "Q8_0", 15_701_598_336],
    ["Qwen2.5-14B-Instruct-Q6_K_L.gguf", "Q6_K_L", 12_501_803_136],
    ["Qwen2.5-14B-Instruct-Q4_K_M.gguf", "Q4_K_M", 8_988_110_976],
    ["Qwen2.5-14B-Instruct-Q3_K_XL.gguf", "Q3_K_XL", 8_606_015_616],
    ["Qwen2.5-14B-Instruct-Q4_0_4_4.gguf", "Q4_0_4_4", 8_517_726_336],
    ["Qwen2.5-14B-Instruct-IQ3_XS.gguf", "IQ3_XS", 6_383_362_176],
  ])("bartowski %s: %s, %i B", (name, quant, bytes) => {
    expect(byName(artifactsOfModel("bartowski__Qwen2.5-14B-Instruct-GGUF"), name)).toMatchObject({
      quant,
      bytes,
      files: [name],
    });
  });

  // shared/seeds/size_test.go.txt: llama-bench reported 14.62 GiB (Q8_0) and
  // 8.37 GiB (Q4_K_M) for a 14B on the seed's cluster. llama.cpp counts tensor
  // bytes; the file adds its header (metadata and a 152k-token vocabulary,
  // a few MB), so the file may exceed the figure by up to 0.01 GiB.
  test.each([
    ["Qwen2.5-14B-Instruct-Q8_0.gguf", 14.62],
    ["Qwen2.5-14B-Instruct-Q4_K_M.gguf", 8.37],
  ])("bartowski %s is llama.cpp's measured %f GiB", (name, gib) => {
    const a = byName(artifactsOfModel("bartowski__Qwen2.5-14B-Instruct-GGUF"), name);
    expect(Math.abs(a.bytes / GIB - gib)).toBeLessThanOrEqual(0.01);
  });

  test("with the seed's 14.77 B parameters, Q8_0 spends ~8.5 bits a weight (34 B per 32 weights, plus the header)", () => {
    const a = byName(
      artifactsOfModel("bartowski__Qwen2.5-14B-Instruct-GGUF", 14_770_000_000),
      "Qwen2.5-14B-Instruct-Q8_0.gguf",
    );
    expect(Math.abs(a.bitsPerWeight - 8.5)).toBeLessThan(0.05);
  });

  test("without a parameter count, bits per weight fall back to the quant's nominal bits (the seed's table)", () => {
    expect(
      byName(artifactsOfModel("bartowski__Qwen2.5-14B-Instruct-GGUF"), "Qwen2.5-14B-Instruct-Q4_K_M.gguf")
        .bitsPerWeight,
    ).toBe(4.8);
  });

  test("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF: every recorded file is one artifact of its exact size", () => {
    const m = loadModel("bartowski__Meta-Llama-3.1-8B-Instruct-GGUF");
    const artifacts = artifactsOfModel("bartowski__Meta-Llama-3.1-8B-Instruct-GGUF");
    expect(artifacts).toHaveLength(m.files?.length ?? -1);
    for (const f of m.files ?? []) expect(byName(artifacts, f.path).bytes).toBe(f.size);
  });

  test("Qwen's lowercase split names group into one q8_0 artifact", () => {
    const files = (loadModel("Qwen__Qwen2.5-7B-Instruct-GGUF").files ?? []).map((f, i) => ({
      path: f.path,
      sizeBytes: i + 1,
    }));
    const snapshot: RepoSnapshot = {
      repo: "Qwen/Qwen2.5-7B-Instruct-GGUF",
      sha: "",
      config: null,
      files,
      paramsTotal: null,
      ggufHeaders: {},
    };
    const artifacts = artifactsOf(snapshot, ggufOnlyShape(null));
    expect(artifacts).toHaveLength(1);
    expect(artifacts[0]).toMatchObject({ name: "qwen2.5-7b-instruct-q8_0", quant: "Q8_0", bytes: 6 });
  });

  test("a split set missing a part cannot load and is left out", () => {
    const files = [
      { path: "m-Q4_K_M-00001-of-00003.gguf", sizeBytes: 10 },
      { path: "m-Q4_K_M-00003-of-00003.gguf", sizeBytes: 10 },
      { path: "m-Q8_0.gguf", sizeBytes: 10 },
    ];
    const snapshot: RepoSnapshot = { repo: "x", sha: "", config: null, files, paramsTotal: null, ggufHeaders: {} };
    expect(artifactsOf(snapshot, ggufOnlyShape(null)).map((a) => a.name)).toEqual(["m-Q8_0.gguf"]);
  });

  test("mmproj files are the projector of the model beside them, F16 first, not artifacts", () => {
    const files = [
      { path: "gemma-3-4b-it-Q4_K_M.gguf", sizeBytes: 2_489_757_856 },
      { path: "mmproj-model-f32.gguf", sizeBytes: 1_600 },
      { path: "mmproj-model-f16.gguf", sizeBytes: 851_251_104 },
    ];
    const snapshot: RepoSnapshot = { repo: "x", sha: "", config: null, files, paramsTotal: null, ggufHeaders: {} };
    const artifacts = artifactsOf(snapshot, ggufOnlyShape(null));
    expect(artifacts).toHaveLength(1);
    expect(artifacts[0]).toMatchObject({ bytes: 2_489_757_856, projectorBytes: 851_251_104 });
  });

  // @huggingface/gguf 0.4.6 parseGGUFQuantLabel is the Hub's own reading of these names. It has no label for
  // bartowski's Q4_K_L / Q5_K_L (no Q4_K or Q5_K base in its list) and stops Q4_0_4_4 at Q4_0; elsewhere the two agree.
  const ggufNames = modelNames().flatMap((n) =>
    (loadModel(n).files ?? []).map((f) => f.path).filter((p) => p.endsWith(".gguf")),
  );
  const libraryLabel: Record<string, string> = { Q4_0_4_4: "Q4_0", Q4_0_4_8: "Q4_0" };
  test.each(ggufNames)("%s reads as the Hub library reads it", (path) => {
    const ours = quantFromName(path);
    const theirs = parseGGUFQuantLabel(path.split("/").pop() ?? path)?.replace(/^UD-/, "");
    if (theirs === undefined) expect(["Q4_K_L", "Q5_K_L"]).toContain(ours);
    else expect(libraryLabel[ours] ?? ours).toBe(theirs);
  });

  test("GGUF quant: the header's file type wins over the name, but a name variant of the same family is kept", () => {
    const header = (id: number) => ({ metadata: { "general.file_type": id }, tensorDataOffsetBytes: 0 });
    expect(ggufQuantOf("model-Q4_K_M.gguf", header(7))).toBe("Q8_0");
    expect(ggufQuantOf("Qwen2.5-14B-Instruct-Q4_K_L.gguf", header(15))).toBe("Q4_K_L");
    expect(ggufQuantOf("DeepSeek-R1-UD-Q2_K_XL-00001-of-00005.gguf", header(10))).toBe("Q2_K_XL");
    expect(ggufQuantOf("gpt-oss-20b-F16.gguf")).toBe("F16");
    expect(ggufQuantOf("gpt-oss-20b-MXFP4.gguf")).toBe("MXFP4");
  });
});

describe("PyTorch .bin: the weights of a repo without safetensors", () => {
  /** A recorded Hub listing (test/fixtures/hub/, each with its sources) as a snapshot, with the index the reader keeps when given. */
  function recorded(file: string, withIndex: boolean): RepoSnapshot {
    const rec = JSON.parse(readFileSync(join(import.meta.dirname, "..", "fixtures", "hub", file), "utf8")) as {
      info: { id: string; siblings: { rfilename: string; size: number }[] };
      texts: Record<string, string>;
    };
    const config = parseConfigJson(rec.texts["config.json"] ?? "{}") as Record<string, unknown>;
    const files = rec.info.siblings.map((s) => ({ path: s.rfilename, sizeBytes: s.size }));
    const snapshot: RepoSnapshot = { repo: rec.info.id, sha: "", config, files, paramsTotal: null, ggufHeaders: {} };
    const index = rec.texts[PYTORCH_INDEX];
    if (withIndex && index !== undefined) snapshot.extraJson = { [PYTORCH_INDEX]: parseConfigJson(index) };
    return snapshot;
  }
  const WIZARD = "ehartford__Wizard-Vicuna-30B-Uncensored.json";
  const REDPAJAMA = "togethercomputer__RedPajama-INCITE-7B-Base.json";

  test("Wizard-Vicuna-30B: the 14 shards in order, not training_args.bin, DeepSpeed's `latest` or trainer_state.json", () => {
    const snapshot = recorded(WIZARD, false);
    const artifacts = artifactsOf(snapshot, shapeOf(snapshot));
    expect(artifacts).toHaveLength(1);
    expect(artifacts[0]).toMatchObject({
      name: "original .bin",
      format: "pytorch",
      quant: "fp32",
      projectorBytes: 0,
      expertBytes: 0,
    });
    expect(artifacts[0]?.files).toEqual(
      Array.from({ length: 14 }, (_, i) => `pytorch_model-${String(i + 1).padStart(5, "0")}-of-00014.bin`),
    );
    // Without the index: the LFS sizes of the 14 shards (recording's source), summed.
    expect(artifacts[0]?.bytes).toBe(130_115_996_043);
  });

  test("Wizard-Vicuna-30B with its index: total_size, the fp32 tensors' 130,115,789,824 B (the shards add 206,219 B of zip container)", () => {
    const snapshot = recorded(WIZARD, true);
    const a = artifactsOf(snapshot, shapeOf(snapshot))[0];
    expect(a?.bytes).toBe(130_115_789_824);
    // Read in config.json's float32: 32.53 B parameters, the LLaMA paper's 32.5 B for its "33B".
    expect(Math.abs((a?.bytes ?? 0) / 4 / 32.5e9 - 1)).toBeLessThan(0.001);
  });

  test("RedPajama-INCITE-7B: total_size written as a float (13731385408.0) is read, 0.86 % under the files that keep GPT-NeoX's bool mask buffers whole", () => {
    const withIndex = recorded(REDPAJAMA, true);
    const without = recorded(REDPAJAMA, false);
    const a = artifactsOf(withIndex, shapeOf(withIndex))[0];
    const files = artifactsOf(without, shapeOf(without))[0];
    expect(a).toMatchObject({ format: "pytorch", quant: "fp16", bytes: 13_731_385_408 });
    expect(files?.bytes).toBe(10_045_941_140 + 3_803_058_098);
    // 32 layers × (4,194,304 − 524,288) B of attention.bias the index counts at 1/8 byte a bool, + the container.
    expect((files?.bytes ?? 0) - (a?.bytes ?? 0) - 32 * (4_194_304 - 524_288)).toBe(173_318);
    // The index's bytes ÷ 2 is the model card's "6.9B parameter" model.
    expect(Math.abs((a?.bytes ?? 0) / 2 / 6.9e9 - 1)).toBeLessThan(0.01);
  });

  test("an index that says more than its files hold does not describe them: the files' sizes stand", () => {
    const snapshot = recorded(REDPAJAMA, true);
    snapshot.extraJson = { [PYTORCH_INDEX]: { metadata: { total_size: 13_848_999_239 } } };
    expect(artifactsOf(snapshot, shapeOf(snapshot))[0]?.bytes).toBe(13_848_999_238);
  });

  test("Llama-2-7b-hf ships both: only the safetensors count, and its .bin index is not wanted", () => {
    // Sizes from a GitHub file quoting huggingface-cli's download of Llama-2-7b-hf (search id 38736441291) and a
    // local `ls -l` of the same repo (id 934957170): both formats, each index 26,788 B.
    const files: RepoFile[] = [
      { path: "model-00001-of-00002.safetensors", sizeBytes: 9_976_578_928 },
      { path: "model-00002-of-00002.safetensors", sizeBytes: 3_500_297_344 },
      { path: "model.safetensors.index.json", sizeBytes: 26_788 },
      { path: "pytorch_model-00001-of-00002.bin", sizeBytes: 9_976_634_558 },
      { path: "pytorch_model-00002-of-00002.bin", sizeBytes: 3_500_315_539 },
      { path: "pytorch_model.bin.index.json", sizeBytes: 26_788 },
    ];
    // Its config.json was not recorded; a LLaMA config of the same family stands in (the rule reads the file list only).
    const config = recorded(WIZARD, false).config;
    const snapshot: RepoSnapshot = {
      repo: "meta-llama/Llama-2-7b-hf",
      sha: "",
      config,
      files,
      paramsTotal: null,
      ggufHeaders: {},
    };
    const artifacts = artifactsOf(snapshot, shapeOf(snapshot));
    expect(artifacts.map((a) => [a.name, a.format, a.bytes])).toEqual([
      ["original", "safetensors", 9_976_578_928 + 3_500_297_344],
    ]);
    expect(pytorchWeightFiles(files)).toEqual([]);
    expect(needsPytorchIndex(files.map((f) => f.path))).toBe(false);
  });

  test.each([
    // tloen/alpaca-lora-7b: a LoRA alone is no model (vLLM takes it with --lora-modules beside its base).
    [["adapter_config.json", "adapter_model.bin", "README.md"], []],
    // Jiabin99/GraphGPT-7B-mix-all (its published file table): the projector and the Trainer's arguments are not the model.
    [
      [
        "pytorch_model-00001-of-00003.bin",
        "pytorch_model-00002-of-00003.bin",
        "pytorch_model-00003-of-00003.bin",
        "pytorch_model.bin.index.json",
        "graph_projector.bin",
        "training_args.bin",
        "trainer_state.json",
      ],
      ["pytorch_model-00001-of-00003.bin", "pytorch_model-00002-of-00003.bin", "pytorch_model-00003-of-00003.bin"],
    ],
    // A training run's checkpoint folder and an optimizer state beside the model: only the top-level weights (vLLM's glob is not recursive).
    [
      ["pytorch_model.bin", "checkpoint-500/pytorch_model.bin", "optimizer.pt", "scheduler.pt", "rng_state.pth"],
      ["pytorch_model.bin"],
    ],
    // A shard set missing a part cannot load: nothing rather than too little.
    [["pytorch_model-00001-of-00003.bin", "pytorch_model-00003-of-00003.bin", "pytorch_model.bin.index.json"], []],
    // A lone pytorch_model.bin is what transformers looks for first; shards beside it are a second copy.
    [
      ["pytorch_model.bin", "pytorch_model-00001-of-00002.bin", "pytorch_model-00002-of-00002.bin"],
      ["pytorch_model.bin"],
    ],
  ])("%j loads %j", (paths, loaded) => {
    expect(pytorchWeightFiles(paths.map((path) => ({ path, sizeBytes: 1 }))).map((f) => f.path)).toEqual(loaded);
  });

  test("the index is fetched only for a shard set served from .bin", () => {
    expect(
      needsPytorchIndex([
        "config.json",
        "pytorch_model-00001-of-00002.bin",
        "pytorch_model-00002-of-00002.bin",
        PYTORCH_INDEX,
      ]),
    ).toBe(true);
    expect(
      needsPytorchIndex(["config.json", "pytorch_model-00001-of-00002.bin", "pytorch_model-00002-of-00002.bin"]),
    ).toBe(false);
    expect(needsPytorchIndex(["config.json", "pytorch_model.bin", PYTORCH_INDEX])).toBe(false);
  });
});
