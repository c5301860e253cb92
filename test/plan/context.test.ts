/**
 * The slider's path: another workload re-evaluates the options plan()
 * found, without enumerating again, and each option's longest context.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { fewestFitting, largestFitting, withWorkload } from "../../src/plan/index.ts";
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

describe("fewestFitting (the offload search, started from the last answer)", () => {
  test("finds the first k that fits from any hint, as a scan from 1 does, probing a layer's neighbours only when the hint is right", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 202 }),
        fc.integer({ min: -3, max: 205 }),
        (most, threshold, hint) => {
          let probes = 0;
          const fits = (k: number): boolean => {
            probes++;
            return k >= threshold;
          };
          let scan = most;
          for (let k = 1; k <= most; k++)
            if (k >= threshold) {
              scan = k;
              break;
            }
          expect(fewestFitting(fits, most, hint)).toBe(scan);
          probes = 0;
          if (threshold > 1 && threshold <= most) {
            fewestFitting(fits, most, threshold);
            expect(probes).toBe(2);
          }
        },
      ),
      { numRuns: 500 },
    );
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

/** Three classes and a CPU host, whose T4 and RTX 4090 cards offload layers of the 14B files to RAM. */
const q = "Qwen/Qwen2.5-14B-Instruct";
const mixed: Cluster = {
  nodes: [
    node("a", "ib0", [cards("h100-80g", 2)]),
    node("b", "", [cards("rtx4090-24g", 2)], 128),
    node("c", "", [cards("t4-16g", 1)], 64),
    node("cpu", "", [], 256),
  ],
};
const mixedInput = {
  repo: q,
  revision: "",
  shape: shapeOf(q),
  artifacts: [
    originalOf("Qwen/Qwen2.5-Coder-32B-Instruct"),
    ggufOf(q, "Qwen2.5-14B-Instruct-Q8_0.gguf", "Q8_0"),
    ggufOf(q, "Qwen2.5-14B-Instruct-Q4_K_M.gguf", "Q4_K_M"),
  ],
};

describe("the longest context agrees with fits, for any workload (property)", () => {
  const p = plan(mixedInput, mixed, DEFAULT_WORKLOAD);

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

describe("a slider's history does not change where it lands (property)", () => {
  // The slider starts each layer search from the option's last answer and sorts from the last order
  // (search.ts, plan.ts): any chain of moves must land where one move from the plan does, and where a
  // fresh plan at that workload puts the options it shares.
  const input = mixedInput;
  const p = plan(input, mixed, DEFAULT_WORKLOAD);
  const summary = (o: (typeof p.options)[number]) => ({
    id: o.id,
    placement: o.placement,
    fits: o.fits,
    cards: o.cards,
    maxContextTokens: o.maxContextTokens,
    speed: o.speed,
  });
  const move = fc.record({
    contextTokens: fc.integer({ min: 512, max: 131072 }),
    sequences: fc.integer({ min: 1, max: 16 }),
  });

  test("the plan offloads layers, and how many moves with the context: the search from a last answer is exercised", () => {
    const onCards = (w: Workload) =>
      withWorkload(p, w)
        .options.filter(
          (o) => o.engine === "llamacpp" && !o.placement.cpu && o.placement.gpuLayers < input.shape.layers,
        )
        .map((o) => `${o.id}:${o.placement.gpuLayers}`);
    expect(onCards(workload(32768)).length).toBeGreaterThan(0);
    expect(onCards(workload(32768))).not.toEqual(onCards(workload(2048)));
  });

  test("an offloaded llama.cpp option's cards hold the layers its search chose, for any workload", () => {
    // The search probes the output card alone (cardFits); the option is then evaluated card by card:
    // the two must agree, or an option would offer -ngl that its own figures refuse.
    let checked = 0;
    fc.assert(
      fc.property(
        move,
        fc.constantFrom<"auto" | "q8_0">("auto", "q8_0"),
        fc.constantFrom<"on" | "off">("on", "off"),
        fc.option(fc.double({ min: 0, max: 3, noNaN: true }), { nil: undefined }),
        (m, kvDtype, flashAttn, overheadGib) => {
          const settings =
            overheadGib === undefined ? { flashAttn } : { flashAttn, measuredOverheadGib: { llamacpp: overheadGib } };
          const w: Workload = { ...DEFAULT_WORKLOAD, ...m, kvDtype, settings };
          for (const o of withWorkload(p, w).options) {
            if (o.engine !== "llamacpp" || o.placement.cpu || o.moreCardsNeeded > 0) continue;
            const inRam = input.shape.layers - o.placement.gpuLayers;
            // The cards hold what is left on them; the host's RAM is its own question (it may be short).
            const onCards = o.cards.filter((c) => c.role !== "host RAM");
            if (inRam <= 0 || inRam >= input.shape.layers) continue;
            checked++;
            for (const c of onCards) expect(c.overBytes).toBe(0);
          }
        },
      ),
      { numRuns: 60 },
    );
    expect(checked).toBeGreaterThan(0);
  });

  test("any chain of moves lands on the options, order and figures of one move", () => {
    fc.assert(
      fc.property(fc.array(move, { minLength: 1, maxLength: 6 }), move, (chain, last) => {
        let moved = p;
        for (const m of chain) moved = withWorkload(moved, { ...DEFAULT_WORKLOAD, ...m });
        const w: Workload = { ...DEFAULT_WORKLOAD, ...last };
        expect(withWorkload(moved, w).options.map(summary)).toEqual(withWorkload(p, w).options.map(summary));
      }),
      { numRuns: 40 },
    );
  });

  test("a moved plan orders the options it shares with a fresh plan as the fresh plan does", () => {
    fc.assert(
      fc.property(fc.array(move, { minLength: 1, maxLength: 4 }), (chain) => {
        let moved = p;
        for (const m of chain) moved = withWorkload(moved, { ...DEFAULT_WORKLOAD, ...m });
        const fresh = plan(input, mixed, moved.workload);
        const shared = new Set(fresh.options.map((o) => o.id));
        const movedIds = moved.options.map((o) => o.id).filter((id) => shared.has(id));
        const freshIds = fresh.options.map((o) => o.id).filter((id) => movedIds.includes(id));
        expect(movedIds).toEqual(freshIds);
      }),
      { numRuns: 30 },
    );
  });
});
