/**
 * compose.yaml for one host, on the cards the inventory says are free: the
 * V100 host whose GPU 6 is busy (13,928 MiB at 100%, the sample's own note)
 * must never get device 6.
 */
import { describe, expect, test } from "vitest";
import { deploy, deployTargets } from "../../src/deploy/index.ts";
import { splitArgv } from "../../src/plan/index.ts";
import { inventory, optionOf, planOf, yamlOf } from "./fixtures.ts";

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed YAML, checked field by field below

const CODER = "Qwen/Qwen2.5-Coder-32B-Instruct";
const REDPAJAMA = "togethercomputer/RedPajama-INCITE-7B-Base";
/** Its config's own longest context (max_position_embeddings 2048): past it vLLM and SGLang refuse to start. */
const REDPAJAMA_CONTEXT = 2048;

function service(text: string): Doc {
  const doc = yamlOf(text) as Doc;
  const services = Object.values(doc.services as Record<string, Doc>);
  expect(services).toHaveLength(1);
  return services[0] as Doc;
}

describe("Compose on one host", () => {
  test("the half-busy V100 host: every option's device_ids are free cards, as many as it takes, never the busy GPU 6", async () => {
    const cluster = inventory("nvidia-smi-query-csv-v100-1.txt");
    const free = cluster.nodes[0]?.devices[0]?.freeIndices ?? [];
    expect(free).toEqual(["0", "1", "2", "3", "4", "5", "7"]);
    const p = await planOf(CODER, cluster);
    const pinned = p.options.filter((o) => o.placement.gpusPerNode <= free.length);
    expect(pinned.length).toBeGreaterThan(0);
    for (const option of pinned) {
      const s = service(deploy("compose", { option, plan: p }).text);
      const [device] = s.deploy.resources.reservations.devices;
      expect(device).toEqual({
        driver: "nvidia",
        capabilities: ["gpu"],
        device_ids: free.slice(0, option.placement.gpusPerNode),
      });
      expect(device.device_ids).not.toContain("6");
    }
  });

  test("an inventory that does not name the cards (kubectl) is not pinned by a guess: Docker's count, and the header says so", async () => {
    const p = await planOf(CODER, inventory("k8s-describe-node-labels-h100-pcie-1.txt"));
    const option = optionOf(p, (o) => o.engine === "vllm", "vLLM option");
    const text = deploy("compose", { option, plan: p }).text;
    expect(service(text).deploy.resources.reservations.devices[0]).toEqual({
      driver: "nvidia",
      capabilities: ["gpu"],
      count: option.placement.gpusPerNode,
    });
    expect(text).toMatch(
      new RegExp(
        `^# the inventory did not name the free cards: Docker takes the first ${option.placement.gpusPerNode}; set device_ids to the free ones$`,
        "m",
      ),
    );
  });

  test("names that no longer match the free count (the panel set 1 free after the import) are not trusted: count, not device_ids", async () => {
    const imported = inventory("nvidia-smi-query-csv-v100-1.txt");
    const node = imported.nodes[0]!;
    const cluster = { nodes: [{ ...node, devices: [{ ...node.devices[0]!, free: 1 }] }] };
    const p = await planOf(CODER, cluster);
    const option = optionOf(p, (o) => !o.placement.cpu, "GPU option");
    const [device] = service(deploy("compose", { option, plan: p }).text).deploy.resources.reservations.devices;
    expect(device.device_ids).toBeUndefined();
    expect(device.count).toBe(option.placement.gpusPerNode);
  });

  test("the image at its pinned tag, the plan's command, the port, shm, the cache and the token from an env file", async () => {
    const p = await planOf(CODER, inventory("nvidia-smi-h100-sxm-80g-1.txt"));
    for (const option of p.options) {
      const text = deploy("compose", { option, plan: p }).text;
      const s = service(text);
      expect(s.image).toMatch(/:(v\d+\.\d+\.\d+|server-cuda-b\d+)$/);
      const plan = splitArgv(option.commands[0] ?? "");
      if (option.engine === "vllm") expect([...s.entrypoint, ...s.command]).toEqual(plan);
      else expect(s.command).toEqual([...plan.slice(3), "--host", "0.0.0.0"]);
      expect(s.ports).toEqual([option.engine === "vllm" ? "8000:8000" : "30000:30000"]);
      expect(s.shm_size).toBe(option.engine === "vllm" ? "16gb" : "32gb");
      expect(s.volumes[0]).toBe("cache:/root/.cache/huggingface");
      expect(s.env_file).toEqual([{ path: "hf-token.env", required: false }]);
      expect(text).not.toMatch(/hf_[A-Za-z0-9]{6}/);
      expect(s.environment?.HF_TOKEN).toBeUndefined();
    }
  });

  test("a MIG instance named by nvidia-smi -L is reserved by its UUID", async () => {
    const p = await planOf(REDPAJAMA, inventory("nvidia-smi-L-a100-sxm-40g-mig-legacy-uuid-1.txt"), {
      contextTokens: REDPAJAMA_CONTEXT,
    });
    const option = optionOf(
      p,
      (o) => o.placement.gpuClass === "a100-40g-mig-3g.20gb",
      "an option on the 3g.20gb instance",
    );
    const s = service(deploy("compose", { option, plan: p }).text);
    expect(s.deploy.resources.reservations.devices[0].device_ids).toEqual([
      "MIG-GPU-2fa5cf01-9520-1bc1-995b-cc0c6d9bca7c/1/0",
    ]);
  });

  test.each([
    [
      "a MIG instance with no UUID known",
      "k8s-node-labels-json-h100-mig-mixed-1.txt",
      /compose: Compose can only reserve a MIG instance by its UUID, and the inventory did not name it: import `nvidia-smi -L`/,
    ],
    [
      "AMD cards",
      "rocm-smi-mi300x-1.txt",
      /compose: Compose reserves GPUs by device id through NVIDIA's container toolkit only/,
    ],
  ])("%s: refused, saying what can", async (_, sample, message) => {
    const p = await planOf(REDPAJAMA, inventory(sample), { contextTokens: REDPAJAMA_CONTEXT });
    const option = p.options.find(
      (o) => !o.placement.cpu && (sample.startsWith("k8s") ? o.placement.gpuClass.includes("-mig-") : true),
    );
    if (!option) throw new Error("no GPU option");
    expect(() => deploy("compose", { option, plan: p })).toThrow(message);
    expect(deployTargets(option, p.cluster).find((t) => t.kind === "compose")).toMatchObject({
      ok: false,
      reason: expect.stringMatching(message.source.replace("compose: ", "")) as unknown,
    });
  });
});
