/**
 * The slider's path: another workload re-evaluates the options plan()
 * found, without enumerating again, and each option's longest context.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { largestFitting, withWorkload } from "../../src/plan/index.ts";
import { plan } from "../../src/plan/index.ts";
import { DEFAULT_WORKLOAD } from "../../src/plan/index.ts";
import type { Cluster, Workload } from "../../src/plan/index.ts";
import { cards, ggufOf, node, originalOf, shapeOf } from "./planning-fixtures.ts";

describe("largestFitting", () => {
  test("finds the boundary of a monotone test exactly", () => {
    expect(largestFitting((c) => c <= 12345, 131072)).toBe(12345);
  });
  test("is 0 when not one token fits, and the cap when all do", () => {
    expect(largestFitting(() => false, 131072)).toBe(0);
    expect(largestFitting(() => true, 40960)).toBe(40960);
  });
});

const repo = "meta-llama/Llama-3.3-70B-Instruct";
const cluster: Cluster = { nodes: [node("n1", "ib0", [cards("h100-80g", 8)]), node("cpu", "", [], 512)] };
const input = { repo, revision: "", shape: shapeOf(repo), artifacts: [originalOf(repo)] };
const at8k = plan(input, cluster, DEFAULT_WORKLOAD);
const workload = (contextTokens: number): Workload => ({ ...DEFAULT_WORKLOAD, contextTokens });

describe("withWorkload", () => {
  test("keeps every option (same ids and placements) and the refusals: nothing is enumerated again", () => {
    const longer = withWorkload(at8k, workload(131072));
    expect(new Set(longer.options.map((o) => o.id))).toEqual(new Set(at8k.options.map((o) => o.id)));
    expect(longer.refused).toBe(at8k.refused);
    for (const o of longer.options) expect(o.placement).toEqual(at8k.options.find((x) => x.id === o.id)?.placement);
  });

  test("agrees with planning afresh at that context, option by option", () => {
    const longer = withWorkload(at8k, workload(65536));
    const fresh = plan(input, cluster, workload(65536));
    for (const o of fresh.options) {
      const moved = longer.options.find((x) => x.id === o.id);
      if (!moved) continue;
      expect(moved.cards).toEqual(o.cards);
      expect(moved.fits).toBe(o.fits);
      expect(moved.kvPoolTokens).toBe(o.kvPoolTokens);
      expect(moved.commands).toEqual(o.commands);
    }
  });

  test("asked for one option's commands (the page's slider), it makes those alone, and says so", () => {
    const opened = at8k.options[1];
    if (!opened) throw new Error("the plan has one option");
    const everyOne = withWorkload(at8k, workload(65536));
    const onlyOpened = withWorkload(at8k, workload(65536), { commandsFor: [opened.id] });
    expect(onlyOpened.commandsFor).toEqual([opened.id]);
    for (const o of onlyOpened.options) {
      const full = everyOne.options.find((x) => x.id === o.id);
      // The opened option's commands (and the command form's facts made with them) are the ones a full
      // re-evaluation makes; everything else agrees too.
      expect(o.commands).toEqual(o.id === opened.id ? full?.commands : []);
      expect(o.shortfall).toEqual(o.id === opened.id ? full?.shortfall : undefined);
      const { commands: _c, shortfall: _s, shareDefault: _d, ...rest } = o;
      const { commands: _fc, shortfall: _fs, shareDefault: _fd, ...fullRest } = full ?? o;
      expect(rest).toEqual(fullRest);
    }
    expect(everyOne.options.every((o) => o.commands.length > 0)).toBe(true);
    // Moved on again without the restriction, every option has its commands and the plan no longer says otherwise.
    const again = withWorkload(onlyOpened, workload(32768));
    expect(again.commandsFor).toBeUndefined();
    expect(again.options.every((o) => o.commands.length > 0)).toBe(true);
  });

  test("a context past what fits turns an option unfit, and its commands follow the context", () => {
    const two = at8k.options.find((o) => o.engine === "vllm");
    expect(two?.fits).toBe(true);
    const max = two?.maxContextTokens ?? 0;
    expect(max).toBeGreaterThan(8192);
    expect(max).toBeLessThan(131072);
    const past = withWorkload(at8k, workload(max + 1)).options.find((o) => o.id === two?.id);
    expect(past?.fits).toBe(false);
    const at = withWorkload(at8k, workload(max)).options.find((o) => o.id === two?.id);
    expect(at?.fits).toBe(true);
    expect(at?.commands.join(" ")).toContain(`--max-model-len ${max}`);
  });

  test("the longest context never passes the model's own", () => {
    const small = "meta-llama/Llama-3.1-8B-Instruct";
    const p = plan(
      { repo: small, revision: "", shape: shapeOf(small), artifacts: [originalOf(small)] },
      { nodes: [node("n", "", [cards("h100-80g", 1)])] },
      DEFAULT_WORKLOAD,
    );
    expect(p.options.find((o) => o.engine === "vllm")?.maxContextTokens).toBe(131072);
  });

  test("llama.cpp's context is per slot: more sequences, a shorter longest context", () => {
    const q = "Qwen/Qwen2.5-14B-Instruct";
    const art = ggufOf(q, "Qwen2.5-14B-Instruct-Q4_K_M.gguf", "Q4_K_M");
    const p = plan(
      { repo: q, revision: "", shape: shapeOf(q), artifacts: [art] },
      { nodes: [node("n", "", [cards("t4-16g", 1)])] },
      DEFAULT_WORKLOAD,
    );
    const one = p.options.find((o) => !o.placement.cpu && o.engine === "llamacpp");
    const four = withWorkload(p, { ...DEFAULT_WORKLOAD, sequences: 4 }).options.find((o) => o.id === one?.id);
    // A 16 GB card holds less than the model's 32,768 tokens in one slot, so the cap does not hide the split.
    expect(one?.maxContextTokens).toBeGreaterThan(8192);
    expect(one?.maxContextTokens).toBeLessThan(32768);
    expect(four?.maxContextTokens).toBeLessThanOrEqual(Math.ceil((one?.maxContextTokens ?? 0) / 4) + 256);
    // It allocates every slot up front: it holds 4 sequences or none.
    expect(four?.fits).toBe(false);
    expect(four?.maxConcurrency).toBe(0);
    const short = withWorkload(p, { ...DEFAULT_WORKLOAD, contextTokens: 4096, sequences: 4 }).options.find(
      (o) => o.id === one?.id,
    );
    expect(short?.fits).toBe(true);
    expect(short?.maxConcurrency).toBe(4);
    expect(short?.kvPoolTokens).toBe(16384);
  });

  test("a plan rebuilt from JSON (no placements kept) is planned afresh rather than failing", () => {
    const copy = JSON.parse(JSON.stringify(at8k)) as typeof at8k;
    const moved = withWorkload(copy, workload(16384));
    // Planned afresh, it is what plan() gives at that workload: its own enumeration, not the 8k plan's layouts
    // (at 16k a width that no longer fits alone gets its pipeline within the node, which the 8k plan never tried).
    const fresh = plan(input, cluster, workload(16384));
    expect(moved.options.length).toBeGreaterThan(0);
    expect(moved.options.map((o) => o.id)).toEqual(fresh.options.map((o) => o.id));
  });
});

describe("the longest context agrees with fits, for any workload (property)", () => {
  const q = "Qwen/Qwen2.5-14B-Instruct";
  const mixed: Cluster = {
    nodes: [
      node("a", "ib0", [cards("h100-80g", 2)]),
      node("b", "", [cards("rtx4090-24g", 2)]),
      node("c", "", [cards("t4-16g", 1)], 64),
      node("cpu", "", [], 256),
    ],
  };
  const p = plan(
    {
      repo: q,
      revision: "",
      shape: shapeOf(q),
      artifacts: [
        originalOf("Qwen/Qwen2.5-Coder-32B-Instruct"),
        ggufOf(q, "Qwen2.5-14B-Instruct-Q8_0.gguf", "Q8_0"),
        ggufOf(q, "Qwen2.5-14B-Instruct-Q4_K_M.gguf", "Q4_K_M"),
      ],
    },
    mixed,
    DEFAULT_WORKLOAD,
  );

  test("an option fits exactly when its longest context reaches the asked one, and a longer context never fits better", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 512, max: 32768 }),
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom<"auto" | "fp8">("auto", "fp8"),
        (context, sequences, kvDtype) => {
          const w: Workload = { ...DEFAULT_WORKLOAD, contextTokens: context, sequences, kvDtype };
          const at = withWorkload(p, w);
          const longer = withWorkload(p, { ...w, contextTokens: context * 2 });
          for (const o of at.options) {
            if (o.moreCardsNeeded === 0) expect(o.fits).toBe(o.maxContextTokens >= context);
            const l = longer.options.find((x) => x.id === o.id);
            if (!o.fits) expect(l?.fits).toBe(false);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
