/**
 * llama.cpp's -fa on|off|auto (issue 14): the setting reaches the command, a quantized V cache
 * without flash attention is refused as llama.cpp refuses it, and the compute buffer without flash
 * attention holds KQ, checked against a log llama.cpp printed.
 */
import { describe, expect, test } from "vitest";
import { CUDA_CONTEXT_BYTES, engineDefaults, plan, shapeFromConfig, splitArgv } from "../../src/plan/index.ts";
import type { Artifact, Cluster, EngineSettings, KvDtype, PlanOption } from "../../src/plan/index.ts";

const MIB = 2 ** 20;

/**
 * Llama-2-7B Q4_K_M on an Intel Arc A770 (Vulkan), llama.cpp b3600, `-ngl 33` and n_ctx 4096,
 * n_ubatch 512, flash_attn = 0, as the run printed it (http://coloradmin.cn/o/2067531.html, a copy
 * of secext2022's CSDN post): the header's n_embd 4096, n_layer 32, n_head 32, n_head_kv 32,
 * n_ff 11008, n_vocab 32000; the file 4,081,004,224 B (its `ls -l`); "KV buffer size = 2048.00 MiB",
 * "compute buffer size = 296.00 MiB".
 */
const LLAMA2_7B = shapeFromConfig(
  {
    model_type: "llama",
    architectures: ["LlamaForCausalLM"],
    hidden_size: 4096,
    num_hidden_layers: 32,
    num_attention_heads: 32,
    num_key_value_heads: 32,
    intermediate_size: 11008,
    vocab_size: 32000,
    max_position_embeddings: 4096,
    torch_dtype: "float16",
    tie_word_embeddings: false,
  },
  6.74e9,
);
const Q4KM: Artifact = {
  name: "llama-2-7b.Q4_K_M.gguf",
  format: "gguf",
  files: ["llama-2-7b.Q4_K_M.gguf"],
  bytes: 4081004224,
  projectorBytes: 0,
  quant: "Q4_K_M",
  bitsPerWeight: 0,
  expertBytes: 0,
};
const A770: Cluster = {
  nodes: [
    {
      id: "a2s",
      fabric: "",
      hostMemGib: 32,
      hostFreeGib: 30,
      devices: [{ class: "arc-a770-16g", count: 1, free: 1, memGib: 15.85 }],
    },
  ],
};

function gpuOption(
  settings: EngineSettings,
  kvDtype: KvDtype = "auto",
): { option: PlanOption | undefined; refused: string[] } {
  const p = plan({ repo: "TheBloke/Llama-2-7B-GGUF", revision: "", shape: LLAMA2_7B, artifacts: [Q4KM] }, A770, {
    contextTokens: 4096,
    sequences: 1,
    kvDtype,
    settings,
  });
  return {
    option: p.options.find((o) => o.engine === "llamacpp" && !o.placement.cpu),
    refused: p.refused.filter((r) => r.engine === "llamacpp").map((r) => r.reason),
  };
}

describe("flash attention off: the compute buffer holds each layer's KQ", () => {
  const off = gpuOption({ flashAttn: "off" }).option;
  const on = gpuOption({}).option;

  test("the cache is the log's 2048.00 MiB exactly, either way", () => {
    expect(off?.cards[0]?.kvBytes).toBe(2048 * MIB);
    expect(on?.cards[0]?.kvBytes).toBe(2048 * MIB);
  });

  test("compute buffer within 1 % of the 296.00 MiB llama.cpp printed (KQ 256 MiB, its mask 8, the layer's Q/KQV rows 32)", () => {
    const compute = (off?.cards[0]?.engineBytes ?? 0) - CUDA_CONTEXT_BYTES;
    expect(Math.abs(compute - 296 * MIB) / (296 * MIB)).toBeLessThan(0.01);
    // With flash attention the buffer is the activations and the logits: 16 + 62.5 MiB.
    expect(((on?.cards[0]?.engineBytes ?? 0) - CUDA_CONTEXT_BYTES) / MIB).toBe(78.5);
  });

  test("the longest context shrinks without flash attention: KQ grows with it", () => {
    expect(off?.maxContextTokens).toBeLessThanOrEqual(on?.maxContextTokens ?? 0);
  });
});

describe("the -fa setting in the command", () => {
  const fa = (o: PlanOption | undefined): string | undefined => {
    const words = splitArgv(o?.commands[0] ?? "");
    const i = words.indexOf("-fa");
    return i < 0 ? undefined : words[i + 1];
  };

  test.each([["on"], ["off"], ["auto"]] as const)("-fa %s as given", (mode) => {
    expect(fa(gpuOption({ flashAttn: mode }).option)).toBe(mode);
  });

  test("left out, no -fa: llama.cpp's default is auto, as Engine settings show it", () => {
    expect(fa(gpuOption({}).option)).toBeUndefined();
    expect(engineDefaults("llamacpp", 16 * 2 ** 30).flashAttn).toMatchObject({ flag: "-fa", value: "auto" });
  });

  test("a q8_0 cache needs flash attention: -fa off with it is refused in words, -fa auto is said as on", () => {
    const { option, refused } = gpuOption({ flashAttn: "off" }, "q8_0");
    expect(option).toBeUndefined();
    expect(refused).toContain(
      "llama.cpp quantizes the V cache (q8_0) only with flash attention: -fa off with -ctv q8_0 does not start; use -fa on or auto, or an f16 cache",
    );
    expect(fa(gpuOption({ flashAttn: "auto" }, "q8_0").option)).toBe("on");
  });
});
