/**
 * `npm run plan`'s summary for a person: the model, the options best first
 * with the first one's commands, and, when nothing fits, why each
 * configuration was turned down, as the page's "Why not?" lists them.
 */
import { cardsPerReplica, kvCacheLabel, offloadWords, placementLabel, type plan } from "../../src/plan/index.ts";
import type { PlanOption, RankBy, Refusal, RepoSnapshot } from "../../src/plan/index.ts";
import { artifactLabel, formatCount, formatMs, formatTps } from "../../src/ui/format.ts";
import { printable } from "./printable.ts";

/** Options listed; --json lists all. */
const OPTIONS_SHOWN = 20;
/** Refusals listed when nothing fits: a 1,000-node cluster turns down thousands, most for one reason. */
const REASONS_SHOWN = 20;

function gib(bytes: number): string {
  return (bytes / 2 ** 30).toFixed(1);
}

/** Where an option runs, in the engine's one wording, made safe to print. */
function where(o: PlanOption): string {
  const offload = offloadWords(o.placement);
  return printable(placementLabel(o.placement, o.engine) + (offload === "" ? "" : ` (${offload})`));
}

/** What a refused option lacks, in a few words: cards, RAM on its node, or a fabric for its nodes. */
function lackWords(o: PlanOption): string {
  if (o.lacks?.kind === "fabric") return "no one fabric joins its nodes";
  if (o.lacks?.kind === "host-ram") return `node ${printable(o.lacks.nodeId)} lacks RAM`;
  return `${o.moreCardsNeeded} more card${o.moreCardsNeeded === 1 ? "" : "s"}`;
}

/** Under a refused or short option, what would make it run (what_to_buy in --json); nothing under one that runs. */
function buyLines(o: PlanOption): string[] {
  const changes = o.whatToBuy ?? [];
  if (changes.length === 0 || (o.fits && o.fitsWorkload !== false)) return [];
  return [
    `      ${o.fits ? "to hold every sequence" : "to make it fit"}: ${changes.map((c) => printable(c.change)).join("; ")}`,
  ];
}

/** Whether it starts, holds the workload, and is free now, in words. */
function statusOf(o: PlanOption, sequences: number): string {
  const busy = o.freeNow ? "free now" : "busy now";
  if (!o.fits) return `does not fit (${lackWords(o)})`;
  if (o.fitsWorkload === false) {
    const held = o.maxConcurrency >= 10 ? Math.floor(o.maxConcurrency).toString() : o.maxConcurrency.toFixed(1);
    return `starts, but holds ${held} of your ${sequences} sequences at once (${busy})`;
  }
  return `fits, ${busy}`;
}

/**
 * The figure the chosen order ranks by, where the line does not show it already (bits and the longest
 * context are there): "--rank-by cost" printed no cost.
 */
function rankFigure(o: PlanOption, by: RankBy): string {
  const s = o.speed;
  switch (by) {
    case "throughput":
      return s?.throughputTps != null
        ? `  ${(s.throughputTps / Math.max(1, cardsPerReplica(o.placement))).toFixed(1)} tok/s a card`
        : "  throughput not estimated";
    case "latency":
      return s?.tpotMs != null
        ? `  ${s.tpotMs.toFixed(1)} ms a token, ${s.ttftMs != null ? s.ttftMs.toFixed(0) : "?"} ms to the first`
        : "  latency not estimated";
    case "cost":
      return o.costPerMtok != null
        ? `  $${o.costPerMtok.toFixed(2)} per million output tokens`
        : "  cost unknown (no price for its cards: --price class=dollars)";
    default:
      return "";
  }
}

/**
 * What an option delivers, in the page's words (OptionCard's three figures): "speed: 36.8 tok/s for one user ·
 * 286 tok/s with 8 at once (28.0 ms a token) · 245 ms to the first token"; or why it is not estimated.
 */
function speedLine(o: PlanOption): string {
  const s = o.speed;
  if (!s) return "      speed not estimated";
  if (s.decodeTps === null) return `      ${printable(s.basis)}`;
  const tpot = s.tpotMs === null ? "" : ` (${s.tpotMs.toFixed(1)} ms a token)`;
  return `      speed: ${formatTps(s.decodeTps)} for one user · ${formatTps(s.throughputTps)} with ${formatCount(s.sequencesRun)} at once${tpot} · ${formatMs(s.ttftMs)} to the first token`;
}

/**
 * An option's command lines, under its summary line: a multi-node entry's
 * "# node" comment at the command's indent, and its command lines one step in.
 */
export function commandLines(commands: readonly string[], indent = "      "): string[] {
  return commands.flatMap((c) => {
    const [first = "", ...rest] = c.split("\n");
    const inner = first.startsWith("#") ? `${indent}  ` : indent;
    return [`${indent}${first}`, ...rest.map((l) => `${inner}${l}`)];
  });
}

/** "vllm · original · 3 × h100-80g: tensor parallel 3: 40 attention heads do not divide by 3". */
export function reasonLines(refused: readonly Refusal[]): string[] {
  const shown = refused
    .slice(0, REASONS_SHOWN)
    .map((r) => `  ${r.engine} · ${printable(artifactLabel(r.artifact))} · ${printable(r.where)}: ${r.reason}`);
  if (refused.length > REASONS_SHOWN)
    shown.push(`  … ${(refused.length - REASONS_SHOWN).toLocaleString("en-US")} more (--json lists all)`);
  return shown;
}

export function textReport(snapshot: RepoSnapshot, result: ReturnType<typeof plan>, context: number): string {
  const s = result.shape;
  const fits = result.options.some((o) => o.fits);
  const turnedDown = `${result.refused.length.toLocaleString("en-US")} configurations turned down`;
  const lines = [
    `${printable(snapshot.repo)}${snapshot.sha ? `@${printable(snapshot.sha.slice(0, 7))}` : ""}: ${printable(s.architecture)}, ${s.layers} layers, ${kvCacheLabel(s)}, ${s.maxContextTokens.toLocaleString("en-US")} ctx, ${s.dtype}`,
    `${result.options.length} options at ${context.toLocaleString("en-US")} tokens, best first; ${turnedDown}${fits || result.refused.length === 0 ? " (--json lists why)" : ", each with why below"}.`,
    "",
  ];
  result.options.slice(0, OPTIONS_SHOWN).forEach((o, i) => {
    const status = statusOf(o, result.workload.sequences);
    lines.push(
      `${String(i + 1).padStart(2)}. ${o.engine.padEnd(9)} ${where(o).padEnd(32)} ${printable(artifactLabel(o.artifact))} (${o.bitsPerWeight.toFixed(1)} bpw)  need ${gib(o.needBytes)} of ${gib(o.haveBytes)} GiB  ${status}  max ctx ${o.maxContextTokens.toLocaleString("en-US")}${rankFigure(o, result.workload.rankBy ?? "fewest-cards")}`,
    );
    lines.push(speedLine(o), ...buyLines(o));
    // The first option's notes in full, as its commands; the others' count (they can run to a paragraph each).
    const notes = o.notes ?? [];
    if (i === 0) lines.push(...notes.map((n) => `      note: ${printable(n)}`), ...commandLines(o.commands));
    else if (notes.length > 0)
      lines.push(`      ${notes.length === 1 ? "1 note" : `${notes.length} notes`} (--json lists them)`);
  });
  if (result.options.length > OPTIONS_SHOWN)
    lines.push(`… ${result.options.length - OPTIONS_SHOWN} more (--json lists all)`);
  if (!fits && result.refused.length > 0) {
    if (result.options.length > 0) lines.push("");
    lines.push(`Why not? (${turnedDown})`, ...reasonLines(result.refused));
  }
  return lines.join("\n");
}
