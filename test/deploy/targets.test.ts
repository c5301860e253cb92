/**
 * Which deployments apply to each option, and the words for those that do
 * not; the images each is written with; the plan's commands pinned to the free cards.
 */
import { describe, expect, test } from "vitest";
import { deploy, deployTargets, engineImage, pinnedCommands, VLLM_DEFAULT_RELEASE } from "../../src/deploy/index.ts";
import { splitArgv } from "../../src/plan/index.ts";
import { documents, inventory, optionOf, planOf, spread } from "./fixtures.ts";

const CODER = "Qwen/Qwen2.5-Coder-32B-Instruct";
const R1_GGUF = "unsloth/DeepSeek-R1-GGUF";

function summary(targets: ReturnType<typeof deployTargets>): Record<string, string> {
  return Object.fromEntries(targets.map((t) => [t.kind, t.ok ? "ok" : t.reason]));
}

describe("deployTargets", () => {
  test("one H100 node from nvidia-smi: kubernetes and compose; slurm needs a Slurm inventory", async () => {
    const p = await planOf(CODER, inventory("nvidia-smi-h100-sxm-80g-1.txt"));
    for (const o of p.options) {
      expect(summary(deployTargets(o, p.cluster))).toEqual({
        kubernetes: "ok",
        compose: "ok",
        slurm:
          "the cluster was not imported from Slurm (no GRES type on the option's nodes), so its node ids are not known to be Slurm's: import `scontrol show node`, or use kubernetes or compose",
      });
    }
  });

  test("the Slurm node: all three", async () => {
    const p = await planOf(CODER, inventory("scontrol-show-node-a100-8gpu-idle-1.txt"));
    for (const o of p.options)
      expect(summary(deployTargets(o, p.cluster))).toEqual({ kubernetes: "ok", compose: "ok", slurm: "ok" });
  });

  test("llama.cpp RPC across three hosts: not Compose, which runs on one", async () => {
    const p = await planOf(R1_GGUF, inventory("nvidia-smi-h100-sxm-80g-1.txt"));
    const one = optionOf(p, (o) => o.engine === "llamacpp" && !o.placement.cpu, "llama.cpp GPU option");
    const option = spread(p, one, ["a", "b", "c"]);
    expect(summary(deployTargets(option, p.cluster)).compose).toBe(
      "an RPC option spans 3 hosts and Compose runs on one: deploy it with kubernetes (a LeaderWorkerSet) or slurm",
    );
  });

  test("a llama.cpp CPU option: kubernetes and compose run it without a GPU resource, on llama.cpp's CPU image", async () => {
    // The Lambda node: 1 TB of RAM (RealMemory=1031736 MB).
    const p = await planOf(R1_GGUF, inventory("scontrol-show-node-a100-8gpu-idle-1.txt"));
    const cpu = optionOf(p, (o) => o.placement.cpu, "CPU option");
    expect(summary(deployTargets(cpu, p.cluster))).toEqual({ kubernetes: "ok", compose: "ok", slurm: "ok" });
    const docs = documents(deploy("kubernetes", { option: cpu, plan: p }).text) as {
      kind: string;
      spec: { template?: { spec: { containers: { image: string; resources?: unknown }[] } } };
    }[];
    const [c] = docs.find((d) => d.kind === "Deployment")?.spec.template?.spec.containers ?? [];
    expect(c?.image).toBe("ghcr.io/ggml-org/llama.cpp:server-b8234");
    expect(c?.resources).toBeUndefined();
    expect(deploy("slurm", { option: cpu, plan: p }).text).not.toMatch(/--gres/);
  });

  test("an option that does not fit (RedPajama at 8,192 tokens, past its own 2,048) is deployable nowhere: the engine would not start", async () => {
    const p = await planOf("togethercomputer/RedPajama-INCITE-7B-Base", inventory("nvidia-smi-h100-sxm-80g-1.txt"), {
      contextTokens: 8192,
    });
    const option = optionOf(p, (o) => !o.fits, "an option that does not fit");
    const reason =
      "this option does not fit its cards at the chosen context, so the engine would not start: choose one that fits, or shorten the context";
    expect(summary(deployTargets(option, p.cluster))).toEqual({ kubernetes: reason, compose: reason, slurm: reason });
    expect(() => deploy("compose", { option, plan: p })).toThrow(`compose: ${reason}`);
  });

  test("a class outside the catalog: no device plugin can be named for it", async () => {
    const cluster = {
      nodes: [
        {
          id: "n",
          fabric: "",
          hostMemGib: 256,
          hostFreeGib: 256,
          devices: [{ class: "mystery-96g", count: 2, free: 2, memGib: 96 }],
        },
      ],
    };
    const p = await planOf(CODER, cluster);
    const option = optionOf(p, (o) => !o.placement.cpu, "GPU option");
    expect(summary(deployTargets(option, cluster)).kubernetes).toBe(
      "\"mystery-96g\" is not in Modelplan's card catalog, so which vendor's device plugin serves it is unknown: give the node a catalog class",
    );
  });
});

describe("images", () => {
  test.each([
    [undefined, `v${VLLM_DEFAULT_RELEASE}`],
    ["0.15", "v0.15.0"],
    ["0.10.1.1", "v0.10.1.1"],
  ])("vLLM planned for release %s runs vllm/vllm-openai:%s", (release, tag) => {
    expect(engineImage("vllm", "cuda", release)).toMatchObject({ image: "vllm/vllm-openai", tag });
  });

  test("every image is pinned (no floating tag) and says where its tag comes from; FreeToken has none and says so", () => {
    for (const engine of ["vllm", "sglang", "llamacpp"] as const) {
      const image = engineImage(engine, "cuda");
      if (typeof image === "string") throw new Error(image);
      expect(image.tag).not.toMatch(/latest|^server-cuda$|^main$/);
      expect(image.tag).toMatch(/\d/);
      expect(image.source.length).toBeGreaterThan(20);
    }
    expect(engineImage("freetoken", "cuda")).toMatch(/FreeToken publishes no container image/);
  });
});

describe("pinnedCommands", () => {
  test("the half-busy V100 host: CUDA_VISIBLE_DEVICES names the free cards, the rest of the command unchanged", async () => {
    const p = await planOf(CODER, inventory("nvidia-smi-query-csv-v100-1.txt"));
    const free = ["0", "1", "2", "3", "4", "5", "7"];
    // Every layout that fits on the 7 free cards is pinned to them; the 8-card ones need GPU 6, busy, and are not pinned.
    const onFree = p.options.filter((o) => o.placement.gpusPerNode <= free.length);
    expect(onFree.length).toBeGreaterThan(0);
    for (const o of onFree) {
      const [pinned] = pinnedCommands(o, p.cluster);
      const words = splitArgv(pinned ?? "");
      const cards = free.slice(0, o.placement.gpusPerNode).join(",");
      expect(words).toEqual([`CUDA_VISIBLE_DEVICES=${cards}`, ...splitArgv(o.commands[0] ?? "")]);
    }
    for (const o of p.options.filter((x) => x.placement.gpusPerNode > free.length))
      expect(pinnedCommands(o, p.cluster)[0]).toBe(o.commands[0]);
  });

  test("multi-node entries keep their node comment; each node gets its own free cards", async () => {
    const h100 = inventory("nvidia-smi-h100-sxm-80g-1.txt");
    const cluster = {
      nodes: [
        h100.nodes[0]!,
        {
          ...h100.nodes[0]!,
          id: "node-2",
          devices: [{ ...h100.nodes[0]!.devices[0]!, free: 2, freeIndices: ["4", "6"] }],
        },
      ],
    };
    const p = await planOf(R1_GGUF, cluster);
    const one = optionOf(
      p,
      (o) => o.engine === "llamacpp" && !o.placement.cpu && o.placement.gpusPerNode === 2,
      "a two-card llama.cpp option",
    );
    const option = spread(p, one, ["node-1", "node-2"]);
    const pinned = pinnedCommands(option, cluster);
    // commands.ts writes the rpc workers first, then the head.
    expect(pinned[0]).toBe(`# node-2 (rpc worker)\nCUDA_VISIBLE_DEVICES=4,6 ${option.commands[0]?.split("\n")[1]}`);
    expect(pinned[1]?.split("\n")[1]).toBe(`CUDA_VISIBLE_DEVICES=0,1 ${option.commands[1]?.split("\n")[1]}`);
  });
});
