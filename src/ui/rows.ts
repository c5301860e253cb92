/**
 * What the page draws for an option, made by pure functions so charts and
 * lists are fed plain rows (STYLE: "charts are fed rows made by a pure
 * function") and the rows can be tested without a DOM.
 */
import type { CardLoad, PlanOption } from "../plan/index.ts";
import type { Filters, GroupBy } from "../state/choices.ts";
import { bytesToGib, engineName } from "./format.ts";

/** One stacked bar: one kind of card (or pipeline stage) of a replica, in GiB: the engine's figures (CardLoad), formatted. */
export interface CardBarRow {
  /** "8 × h100-80g", "1 × a100-80g-mig-3g.40gb · stage 2" */
  label: string;
  /** The weights but the MTP block's. */
  weightsGib: number;
  /** The multi-token-prediction weights, loaded only with MTP speculative decoding on; 0 without. */
  mtpGib: number;
  kvGib: number;
  engineGib: number;
  /** What is left of the usable share; 0 when the card is over it. */
  freeGib: number;
  /** How far the parts go past the usable share; 0 when they fit. */
  overGib: number;
  /** All the parts together: the bar's length. */
  usedGib: number;
  usableGib: number;
  physicalGib: number;
}

export function cardBarRow(card: CardLoad): CardBarRow {
  const role = card.role === "" ? "" : ` · ${card.role}`;
  return {
    // The CPU has no card class: its row is named by its role ("CPU"), not "1 ×  · CPU".
    label: card.gpuClass === "" ? (card.role === "" ? "CPU" : card.role) : `${card.cards} × ${card.gpuClass}${role}`,
    weightsGib: bytesToGib(card.weightsBesideMtpBytes),
    mtpGib: bytesToGib(card.mtpWeightsBytes ?? 0),
    kvGib: bytesToGib(card.kvBytes),
    engineGib: bytesToGib(card.engineBytes),
    freeGib: bytesToGib(card.leftBytes),
    overGib: bytesToGib(card.overBytes),
    usedGib: bytesToGib(card.usedBytes),
    usableGib: bytesToGib(card.usableBytes),
    physicalGib: bytesToGib(card.physicalBytes),
  };
}

export function cardBarRows(option: PlanOption): CardBarRow[] {
  return option.cards.map(cardBarRow);
}

/** The right end of an option's bars: the largest physical card, or the fullest card when one is over. */
export function barDomainGib(rows: readonly CardBarRow[]): number {
  let end = 0;
  for (const r of rows) end = Math.max(end, r.physicalGib, r.usedGib);
  return end;
}

export type BadgeTone = "good" | "warn" | "bad";
export interface Badge {
  tone: BadgeTone;
  text: string;
}

/**
 * The option's standing, in the order a user asks: does it fit at this
 * context at all, could it start now, and if not, how many cards short.
 * Busy is not unfit (the seed's Rank): a fitting option on busy cards says
 * "busy now", not "does not fit".
 */
export function optionBadges(option: PlanOption): Badge[] {
  const badges: Badge[] = [];
  if (!option.fits) badges.push({ tone: "bad", text: "does not fit" });
  else badges.push({ tone: "good", text: "fits" });
  if (option.moreCardsNeeded > 0) {
    badges.push({
      tone: "bad",
      text: `needs ${option.moreCardsNeeded} more card${option.moreCardsNeeded === 1 ? "" : "s"}`,
    });
  } else if (option.fits) {
    badges.push(option.freeNow ? { tone: "good", text: "free now" } : { tone: "warn", text: "busy now" });
  }
  return badges;
}

/** The options the filters let through, in the engine's rank order. */
export function filterOptions(options: readonly PlanOption[], filters: Filters): PlanOption[] {
  return options.filter(
    (o) =>
      (filters.artifact === "" || o.artifact === filters.artifact) &&
      (filters.engine === "" || o.engine === filters.engine) &&
      (filters.fit === "all" || (filters.fit === "fits" && o.fits) || (filters.fit === "free" && o.fits && o.freeNow)),
  );
}

export interface OptionGroup {
  key: string;
  /** "" when the list is not grouped. */
  title: string;
  options: PlanOption[];
}

/** Groups keep the rank order inside them, and come in the order of their best option. */
export function groupOptions(options: readonly PlanOption[], groupBy: GroupBy): OptionGroup[] {
  if (groupBy === "none") return [{ key: "all", title: "", options: [...options] }];
  const groups = new Map<string, OptionGroup>();
  for (const o of options) {
    const key = groupBy === "artifact" ? o.artifact : o.engine;
    let group = groups.get(key);
    if (!group) {
      group = { key, title: groupBy === "artifact" ? o.artifact : engineName(o.engine), options: [] };
      groups.set(key, group);
    }
    group.options.push(o);
  }
  return [...groups.values()];
}

/**
 * The answer first (issue 13): the best-ranked layout of each artifact × engine, in rank order; the
 * rest of the plan's layouts are one click away. An option the user opened is kept in view.
 */
export function bestOfEach(options: readonly PlanOption[], keep: string): { best: PlanOption[]; others: number } {
  const seen = new Set<string>();
  const best = options.filter((o) => {
    const key = `${o.artifact}\u0000${o.engine}`;
    if (seen.has(key)) return o.id === keep;
    seen.add(key);
    return true;
  });
  return { best, others: options.length - best.length };
}
