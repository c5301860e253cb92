/**
 * npm run plan's speed contract (additive): every option carries decode_tps,
 * prefill_tps, ttft_ms, tpot_ms, throughput_tps and speed_basis; a figure
 * that cannot be estimated is null with its reason, never 0. The model's own
 * agreement with public benchmarks is test/plan/speed.test.ts's.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { main } from "../../scripts/plan.ts";

const work = mkdtempSync(join(tmpdir(), "modelplan-speed-"));
/** The Hub unreachable: the bundled catalog's Llama-3.1-8B answers, as offline users see it. */
const OFFLINE = { HF_ENDPOINT: "http://127.0.0.1:9" };

function cluster(name: string, value: unknown): string {
  const path = join(work, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
}

const dgx = cluster("dgx.json", {
  nodes: [{ id: "dgx1", fabric: "ib-400g", host_mem_gib: 2048, devices: [{ class: "h100-80g", count: 8 }] }],
});
const custom = cluster("custom.json", {
  nodes: [{ id: "lab", fabric: "", host_mem_gib: 256, devices: [{ class: "lab-accelerator", count: 2, mem_gib: 64 }] }],
});

async function options(args: string[]): Promise<Record<string, unknown>[]> {
  const r = await main(["meta-llama/Llama-3.1-8B-Instruct", ...args, "--json"], OFFLINE);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { options: Record<string, unknown>[] }).options;
}

describe("speed in npm run plan --json", () => {
  test("every option says its speed, or null with the reason", async () => {
    const all = await options(["--cluster", dgx, "--sequences", "8"]);
    expect(all.length).toBeGreaterThan(0);
    for (const o of all) {
      for (const f of ["decode_tps", "prefill_tps", "ttft_ms", "tpot_ms", "throughput_tps"]) {
        const v = o[f];
        if (v === null) expect(o.speed_basis).toMatch(/unknown|not estimated|no /);
        else expect(v as number).toBeGreaterThan(0);
      }
      expect(typeof o.speed_basis).toBe("string");
    }
    const gpu = all.find((o) => o.engine === "vllm");
    // One sequence of an 8B bf16 model on an H100 decodes well under its bandwidth ceiling (3,350 GB/s ÷ 16 GB ≈ 210 t/s).
    expect(gpu?.decode_tps as number).toBeLessThan(210);
    expect(gpu?.throughput_tps as number).toBeGreaterThan(gpu?.decode_tps as number);
  });

  test("--input-tokens lengthens the time to first token; --output-tokens is taken", async () => {
    const short = (await options(["--cluster", dgx, "--input-tokens", "512"])).find((o) => o.engine === "vllm");
    const long = (await options(["--cluster", dgx, "--input-tokens", "16384", "--output-tokens", "64"])).find(
      (o) => o.engine === "vllm",
    );
    expect(long?.ttft_ms as number).toBeGreaterThan(4 * (short?.ttft_ms as number));
  });

  test("a card whose bandwidth nobody knows plans its memory and says why its speed is null", async () => {
    const all = await options(["--cluster", custom]);
    const gpu = all.find((o) => o.gpu_class === "lab-accelerator");
    expect(gpu).toBeDefined();
    expect(gpu?.decode_tps).toBeNull();
    expect(gpu?.speed_basis).toMatch(/no memory bandwidth known/);
    // The reason is the class's, and names the field that takes the card's bandwidth.
    expect(gpu?.speed_basis).toContain("card table does not hold this class, and its speed is not guessed");
    expect(gpu?.speed_basis).toContain("give the card's GB/s (mem_gbps in the cluster file");
  });

  test("the same card given its bandwidth, compute and memory kind in the file has every figure", async () => {
    const said = cluster("custom-said.json", {
      nodes: [
        {
          id: "lab",
          fabric: "",
          host_mem_gib: 256,
          devices: [
            { class: "lab-accelerator", count: 2, mem_gib: 64, mem_gbps: 1600, bf16_tflops: 400, mem_kind: "hbm" },
          ],
        },
      ],
    });
    const gpu = (await options(["--cluster", said])).find((o) => o.gpu_class === "lab-accelerator");
    for (const f of ["decode_tps", "prefill_tps", "ttft_ms", "tpot_ms", "throughput_tps"])
      expect(gpu?.[f], f).toEqual(expect.any(Number));
    expect(gpu?.speed_basis).toContain("lab-accelerator (hbm, 1600 GB/s, figures as the cluster gives them)");
  });

  // 0, negative, text, a fraction, and past the page's 10,000,000 (its Input/Output tokens fields and the plan link
  // refuse more): the terminal took up to 2^31 − 1, and planned a 10⁸-token prompt on a 32k model with exit 0.
  test.each([
    ["--input-tokens", "0"],
    ["--input-tokens", "-5"],
    ["--input-tokens", "many"],
    ["--output-tokens", "1.5"],
    ["--input-tokens", "100000000"],
    ["--output-tokens", "2147483647"],
    // Number() read these as 1024 and 3, taken without a word.
    ["--input-tokens", "0x400"],
    ["--output-tokens", "0b11"],
  ])("%s %s is one line and exit 2", async (flag, value) => {
    const r = await main(["meta-llama/Llama-3.1-8B-Instruct", "--cluster", dgx, flag, value], OFFLINE);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`${flag} takes a whole number from 1 to 10,000,000, not "${value}"`);
  });

  // vLLM answers such a request with HTTP 400 ("This model's maximum context length is 4096 tokens and your request has
  // 2778 input tokens (8000 > 4096 - 2778)", quoted in andrewcho-dev/opsconductor-ng vLLM_transition/TOKEN_LIMIT_FIX.md):
  // the plan printed its time to first token beside --max-model-len 8192 without a word.
  test("a request longer than the context the commands start is said, once on stderr and in every option's basis", async () => {
    const r = await main(
      [
        "meta-llama/Llama-3.1-8B-Instruct",
        "--cluster",
        dgx,
        "--context",
        "8192",
        "--input-tokens",
        "8192",
        "--output-tokens",
        "1024",
        "--json",
      ],
      OFFLINE,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      "(--input-tokens + --output-tokens: 9,216 tokens) is longer than the 8,192-token context",
    );
    expect(r.stderr).toContain("give --context 9216 or more");
    const all = (JSON.parse(r.stdout) as { options: Record<string, unknown>[] }).options;
    expect(all.length).toBeGreaterThan(0);
    for (const o of all)
      expect(o.speed_basis).toContain(
        "the request (8,192 in + 1,024 out = 9,216 tokens) is longer than the 8,192-token context the command starts",
      );
    const fits = await main(["meta-llama/Llama-3.1-8B-Instruct", "--cluster", dgx, "--json"], OFFLINE);
    expect(fits.stderr).not.toContain("is longer than the");
    expect(fits.stdout).not.toContain("is longer than the");
  });

  // "Never 0": DeepSeek-R1 Q5_K_M (37B active of 671B) on a host of 1 GB/s decodes at about 0.02 tok/s, which one
  // decimal printed as decode_tps 0 and throughput_tps 0.
  test("a figure below 0.05 is printed to two significant digits, never as 0", async () => {
    const slow = cluster("slow-host.json", {
      nodes: [{ id: "slow", host_mem_gib: 1024, host_free_gib: 1000, host_mem_gbps: 1, devices: [] }],
    });
    const r = await main(["unsloth/DeepSeek-R1-GGUF", "--cluster", slow, "--json"], OFFLINE);
    expect(r.code, r.stderr).toBe(0);
    const all = (JSON.parse(r.stdout) as { options: Record<string, unknown>[] }).options;
    expect(all.length).toBeGreaterThan(0);
    for (const o of all)
      for (const f of ["decode_tps", "prefill_tps", "ttft_ms", "tpot_ms", "throughput_tps"]) {
        expect(o[f], `${String(o.artifact)} ${f}`).not.toBe(0);
        if (o[f] !== null) expect(o[f] as number).toBeGreaterThan(0);
      }
    expect(all[0]?.decode_tps as number).toBeLessThan(0.05);
  });

  test("the longest request the page takes, 10,000,000 tokens, is taken", async () => {
    const r = await main(
      ["meta-llama/Llama-3.1-8B-Instruct", "--cluster", dgx, "--output-tokens", "10000000", "--json"],
      OFFLINE,
    );
    expect(r.code, r.stderr).toBe(0);
  });
});

/** The fields issue 13 added to each option of --json. */
const LAYOUT_FIELDS = [
  "replicas",
  "replicas_free_now",
  "fits_workload",
  "data_parallel",
  "cost_per_mtok",
  "what_to_buy",
];

describe("ranking and prices in npm run plan", () => {
  test("--json carries the layout fields (replicas, fits_workload, data_parallel, cost_per_mtok, what_to_buy)", async () => {
    const all = await options([
      "--cluster",
      dgx,
      "--sequences",
      "64",
      "--rank-by",
      "throughput",
      "--price",
      "h100-80g=2.5",
    ]);
    for (const o of all) for (const f of LAYOUT_FIELDS) expect(o).toHaveProperty(f);
    expect(all.some((o) => o.cost_per_mtok !== null)).toBe(true);
  });

  test("--help names them", async () => {
    const { stdout } = await main(["--help"], {});
    for (const f of LAYOUT_FIELDS) expect(stdout).toMatch(new RegExp(`\\b${f}\\b`));
  });

  test.each([
    ["cost", (o: Record<string, unknown>) => `$${(o.cost_per_mtok as number).toFixed(2)} per million output tokens`],
    [
      "throughput",
      (o: Record<string, unknown>) =>
        `${((o.throughput_tps as number) / ((o.gpus_per_node as number) * (o.nodes as number))).toFixed(1)} tok/s a card`,
    ],
    ["latency", (o: Record<string, unknown>) => `${(o.tpot_ms as number).toFixed(1)} ms a token`],
  ])("--rank-by %s: the summary shows the figure it ranks by, the one --json gives", async (by, words) => {
    const args = ["meta-llama/Llama-3.1-8B-Instruct", "--cluster", dgx, "--sequences", "8", "--rank-by", by];
    const first = (await options(args.slice(1)))[0];
    const text = await main(args, OFFLINE);
    const line = text.stdout.split("\n").find((l) => l.startsWith(" 1. "));
    expect(first && line).toBeTruthy();
    expect(line).toContain(words(first as Record<string, unknown>));
  });

  test.each([
    [
      ["--rank-by", "fastest"],
      /--rank-by takes one of fewest-cards, throughput, latency, context, quality, cost, not "fastest"/,
    ],
    [["--price", "h100-80g=-1"], /--price takes class=dollars/],
    [["--price", "h100-80g=cheap"], /--price takes class=dollars/],
    // Number() reads "0x10" as 16: taken without a word before, as was a class named twice (the last price won).
    [["--price", "h100-80g=0x10"], /--price takes class=dollars.*not "h100-80g=0x10"/],
    [["--price", "h100-80g=2,h100-80g=3"], /--price names "h100-80g" twice/],
    [["--sequences", "0"], /--sequences takes a whole number from 1 up/],
    // A class no card has was taken without a word, and cost stayed at the default $3.00 an hour.
    [["--price", "H100-80G=2"], /--price: no card class "H100-80G" in the cluster or the catalog.*h100-80g/],
    [["--price", "h100=2"], /--price: no card class "h100" in the cluster or the catalog.*h100-80g/],
  ])("%j is one line and exit 2", async (extra, message) => {
    const r = await main(["meta-llama/Llama-3.1-8B-Instruct", "--cluster", dgx, ...extra], OFFLINE);
    expect(r.code).toBe(2);
    expect(r.stderr.split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });
});

describe("speed in npm run plan's text", () => {
  test("each option's line is followed by its figures, the ones --json gives; a custom card says why it has none", async () => {
    const args = ["--cluster", dgx, "--sequences", "8"];
    const all = await options(args);
    const text = await main(["meta-llama/Llama-3.1-8B-Instruct", ...args], OFFLINE);
    const lines = text.stdout.split("\n");
    const speedLines = lines.filter((l) => l.trimStart().startsWith("speed: "));
    expect(speedLines).toHaveLength(Math.min(all.length, lines.filter((l) => /^ *\d+\. /.test(l)).length));
    const first = all[0] as Record<string, number>;
    const decode = first.decode_tps as number;
    expect(speedLines[0]).toContain(`${decode >= 100 ? Math.round(decode) : decode.toFixed(1)} tok/s for one user`);
    expect(speedLines[0]).toContain(`(${(first.tpot_ms as number).toFixed(1)} ms a token)`);
    expect(speedLines[0]).toContain(`${Math.round(first.ttft_ms as number)} ms to the first token`);

    const lab = await main(["meta-llama/Llama-3.1-8B-Instruct", "--cluster", custom], OFFLINE);
    expect(lab.stdout).toMatch(/\n {6}speed not estimated: lab-accelerator has no memory bandwidth known/);
  });
});
