/**
 * llama.cpp on the CPU reports what its cache holds, as its GPU options do, and a CPU-only cluster
 * with no GGUF gets the engine's own refusal (issue 14), not an empty plan the page must explain.
 */
import { describe, expect, test } from "vitest";
import { DEFAULT_WORKLOAD, plan, type Artifact, type Cluster, type Workload } from "../../src/plan/index.ts";
import { cards, ggufOf, node, originalOf, shapeOf } from "./planning-fixtures.ts";

const REPO = "Qwen/Qwen2.5-14B-Instruct";
const Q4 = ggufOf(REPO, "Qwen2.5-14B-Instruct-Q4_K_M.gguf", "Q4_K_M");

function planOn(cluster: Cluster, artifacts: Artifact[], w: Workload = DEFAULT_WORKLOAD) {
  return plan({ repo: REPO, revision: "", shape: shapeOf(REPO), artifacts }, cluster, w);
}

/** llama-server's --ctx-size in an option's command: n_ctx, every slot's cells together. */
function ctxSize(commands: string[]): number {
  return Number(/--ctx-size (\d+)/.exec(commands.join(" "))?.[1] ?? NaN);
}

describe("the CPU option's cache", () => {
  const w: Workload = { ...DEFAULT_WORKLOAD, contextTokens: 8192, sequences: 3 };
  const p = planOn({ nodes: [node("box", "", [cards("l40s-48g", 1)], 128, 120)] }, [Q4], w);
  const cpu = p.options.find((o) => o.engine === "llamacpp" && o.placement.cpu);
  const gpu = p.options.find((o) => o.engine === "llamacpp" && !o.placement.cpu);

  test("holds the tokens and sequences llama-server is started with (--ctx-size, --parallel), as the card's does", () => {
    expect(cpu?.fits).toBe(true);
    // Was 0 and 0: the CPU option said nothing of its cache, which is n_ctx = context × slots in host RAM.
    expect(cpu?.kvPoolTokens).toBe(ctxSize(cpu?.commands ?? []));
    expect(cpu?.kvPoolTokens).toBe(8192 * 3);
    expect(cpu?.maxConcurrency).toBe(3);
    expect(cpu?.commands.join(" ")).toContain("--parallel 3");
    expect([gpu?.kvPoolTokens, gpu?.maxConcurrency]).toEqual([cpu?.kvPoolTokens, cpu?.maxConcurrency]);
    // The room the host has left past weights, cache and buffers.
    expect(cpu?.kvPoolBytes).toBeGreaterThan(0);
  });

  test("holds none when it does not fit, and says the RAM that would run it (with it, it runs)", () => {
    const small = planOn({ nodes: [node("small", "", [], 8, 8)] }, [Q4], w);
    const short = small.options.find((o) => o.placement.cpu);
    expect([short?.fits, short?.kvPoolTokens, short?.maxConcurrency, short?.replicas]).toEqual([false, 0, 0, 0]);
    const gib = Number(
      /^\+(\d+) GiB of RAM on node small runs it on the CPU$/.exec(short?.whatToBuy?.[0]?.change ?? "")?.[1],
    );
    expect(gib).toBeGreaterThan(0);
    const cpuOn = (ram: number) =>
      planOn({ nodes: [node("small", "", [], ram, ram)] }, [Q4], w).options.find((o) => o.placement.cpu);
    expect(cpuOn(8 + gib)?.fits).toBe(true);
    expect(cpuOn(8 + gib)?.kvPoolTokens).toBe(8192 * 3);
    expect(cpuOn(8 + gib - 1)?.fits).toBe(false);
  });
});

describe("a CPU-only cluster and a repo without GGUF", () => {
  const cpuOnly: Cluster = { nodes: [node("cpu", "", [], 256, 250)] };

  test("llama.cpp itself says it needs a GGUF, naming the artifact and what to do", () => {
    const p = planOn(cpuOnly, [originalOf(REPO)]);
    expect(p.options).toEqual([]);
    const why = p.refused.filter((r) => r.engine === "llamacpp");
    expect(why).toHaveLength(1);
    expect(why[0]?.where).toBe("CPU");
    expect(why[0]?.reason).toMatch(/^llama\.cpp loads GGUF files only .*original is safetensors.*GGUF quantizations/);
    // The page lists the repo's GGUF quantizations on this refusal alone (App.tsx), not on a guess of its own.
    expect(why[0]?.kind).toBe("needs-gguf");
  });

  test("with cards in the cluster the safetensors go to vLLM and SGLang, and llama.cpp says nothing of them", () => {
    const p = planOn({ nodes: [node("gpu", "", [cards("h100-80g", 1)], 256, 250)] }, [originalOf(REPO)]);
    expect(p.options.length).toBeGreaterThan(0);
    expect(p.refused.filter((r) => r.engine === "llamacpp")).toEqual([]);
  });
});
