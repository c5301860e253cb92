/**
 * From what a tool prints to a catalog class: a product string ("NVIDIA H100
 * 80GB HBM3", GFD's "NVIDIA-H100-PCIe", Slurm's "nvidia-rtx-3090", Ray's
 * "P100"), with the memory the tool reported when it did. The name picks the
 * family; the memory picks the variant (A100 40 vs 80 GB) and resolves names
 * cut short ("NVIDIA A100 80G...", "RTX PRO 6000 Blac..."). A MIG slice is
 * matched on its parent card, its slices and its memory, never its name
 * alone: names differ by card and driver (GFD once labelled A100 3g.20gb
 * instances "3g.21gb"; gres.conf files carry "1g.23gb" for the driver's
 * "1g.24gb").
 */
import { CARDS, cardOf, type Card, type MigProfile } from "../plan/index.ts";

const MIB = 2 ** 20;

/** Lower case, vendor words dropped, every separator a "-": "NVIDIA GeForce RTX 4090" → "rtx-4090". */
export function normalizeProduct(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/\.\.\.|…/g, "")
    .replace(/\b(nvidia|tesla|geforce|amd|instinct|quadro|oam|hbm3e?|graphics|generation)\b/g, " ")
    .replace(/[^a-z0-9.]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

const tok = (word: string) => new RegExp(`(^|-)${word}(-|$)`);

/**
 * A rule: a pattern on the normalised name, and the class (or a choice by memory: null when the name and memory
 * cannot tell the variant, undefined when the card is none the catalog has, so it becomes a class of its own).
 */
type Rule = [RegExp, string | ((mib: number | undefined, name: string) => string | null | undefined)];

/** A GeForce desktop name, whole: "rtx-4060-ti", "rtx-4060-ti-16gb", not "rtx-4060-laptop-gpu" (other clocks, other memory). */
const geforce = (model: string) => new RegExp(`(^|-)rtx-?${model}(-\\d+gb?)?$`);

/** Below this reported total an A100 or V100 is the smaller variant. */
const A100_SPLIT_MIB = 60_000;
const V100_SPLIT_MIB = 24_000;

const RULES: Rule[] = [
  [/gb200/, "gb200-186g"],
  [/gh200/, "gh200-96g"],
  [/(^|-)b200/, "b200-180g"],
  [/h200/, "h200-141g"],
  [/h100.*nvl|h100-94g|h100-96g/, "h100-nvl-94g"],
  [/h100.*pcie/, "h100-pcie-80g"],
  [/(^|-)h100/, (mib) => (mib !== undefined && mib > 90_000 ? "h100-nvl-94g" : "h100-80g")],
  [
    /(^|-)a100/,
    (mib, name) => {
      if (/40g/.test(name)) return "a100-40g";
      if (/80g/.test(name)) return "a100-80g";
      if (mib === undefined) return null;
      return mib < A100_SPLIT_MIB ? "a100-40g" : "a100-80g";
    },
  ],
  [tok("a30"), "a30-24g"],
  [tok("a10g"), "a10g-24g"],
  [tok("a10"), "a10-24g"],
  [tok("a40"), "a40-48g"],
  [/rtx-?a6000/, "rtxa6000-48g"],
  [tok("l40s"), "l40s-48g"],
  [tok("l40"), "l40-48g"],
  [tok("l4"), "l4-24g"],
  [/rtx-?pro-?6000/, "rtxpro6000-96g"],
  [/rtx-?6000-?ada|6000-?ada/, "rtx6000ada-48g"],
  [/(rtx-?)?5090/, "rtx5090-32g"],
  // A laptop 5080's cut name ("NVIDIA GeForce RTX 5080 ...") with the same 16 GB cannot be told apart: taken for the desktop card.
  [geforce("5080"), "rtx5080-16g"],
  [geforce("5070-?ti"), "rtx5070ti-16g"],
  // "NVIDIA GeForce RTX 5070 ..." is also a laptop 5070's cut name, with 8,151 MiB.
  [geforce("5070"), (mib) => (mib === undefined || mib > 10_000 ? "rtx5070-12g" : undefined)],
  // The 8 GB RTX 5060 Ti has the 16 GB card's name: below 12 GiB reported it is not the catalog's.
  [geforce("5060-?ti"), (mib) => (mib === undefined ? null : mib > 12_000 ? "rtx5060ti-16g" : undefined)],
  [/(rtx-?)?4090/, "rtx4090-24g"],
  [geforce("4080-?super"), "rtx4080super-16g"],
  // nvidia-smi cuts "… RTX 4080 SUPER" to "NVIDIA GeForce RTX 4080 ...", with the 4080's 16,376 MiB: taken as the slower 4080.
  // A laptop 4080's cut name has 12 GB: not the desktop card.
  [geforce("4080"), (mib) => (mib === undefined || mib > 14_000 ? "rtx4080-16g" : undefined)],
  [geforce("4070-?ti-?super"), "rtx4070tisuper-16g"],
  [geforce("4070-?ti"), "rtx4070ti-12g"],
  [geforce("4070-?super"), "rtx4070super-12g"],
  [
    // nvidia-smi cuts "NVIDIA GeForce RTX 4070 SUPER" and "… Ti SUPER" to "NVIDIA GeForce RTX 4070 ...": 16,376 MiB is
    // the Ti SUPER (the only 16 GB 4070); 12,282 is the 4070 or the SUPER, taken as the slower 4070; 8,188 is a laptop 4070.
    geforce("4070"),
    (mib) =>
      mib === undefined || (mib > 10_000 && mib < 14_000)
        ? "rtx4070-12g"
        : mib > 14_000
          ? "rtx4070tisuper-16g"
          : undefined,
  ],
  // One name for the 8 GB and 16 GB RTX 4060 Ti: the reported memory (or the name's size) picks.
  [
    geforce("4060-?ti"),
    (mib, name) => {
      if (/-16gb?$/.test(name)) return "rtx4060ti-16g";
      if (/-8gb?$/.test(name)) return "rtx4060ti-8g";
      if (mib === undefined) return null;
      return mib > 12_000 ? "rtx4060ti-16g" : "rtx4060ti-8g";
    },
  ],
  // A laptop 4060's cut name ("NVIDIA GeForce RTX 4060 ...") with the same 8,188 MiB cannot be told apart: it is taken
  // for the desktop card, whose clocks and bandwidth a laptop's do not reach.
  [geforce("4060"), "rtx4060-8g"],
  // Before the 3090's rule, which would take a 3090 Ti for a 3090.
  [geforce("3090-?ti"), "rtx3090ti-24g"],
  [/(rtx-?)?3090/, "rtx3090-24g"],
  [geforce("3080-?ti"), "rtx3080ti-12g"],
  // The 12 GB RTX 3080 and the laptop 3080s (8 and 16 GB, their names cut to this) are not the 10 GB card.
  [geforce("3080"), (mib) => (mib === undefined || (mib > 9_000 && mib < 11_000) ? "rtx3080-10g" : undefined)],
  [geforce("3070"), "rtx3070-8g"],
  // The 8 GB RTX 3060 and the 6 GB laptop 3060 share the 12 GB card's name.
  [geforce("3060"), (mib) => (mib === undefined || mib > 10_000 ? "rtx3060-12g" : undefined)],
  [geforce("3060-?ti"), "rtx3060ti-8g"],
  [geforce("2080-?ti"), "rtx2080ti-11g"],
  [tok("t4"), "t4-16g"],
  [
    /(^|-)v100/,
    (mib, name) => {
      if (/32g/.test(name)) return "v100-32g";
      if (/16g/.test(name)) return "v100-16g";
      if (mib === undefined) return null;
      return mib < V100_SPLIT_MIB ? "v100-16g" : "v100-32g";
    },
  ],
  [/(^|-)p100/, "p100-16g"],
  [/mi300x/, "mi300x-192g"],
  [/mi325x/, "mi325x-256g"],
  // rocminfo's "AMD Instinct MI250X/MI250" names either card: not taken for the MI250X (the MI250 has 104 CUs a GCD, not 110).
  [/(^|-)mi250x$/, "mi250x-64g"],
  [/(^|-)mi210$/, "mi210-64g"],
  [/(^|-)mi100$/, "mi100-32g"],
  [/(^|-)mi50(-32gb?)?$/, "mi50-32g"],
  [/(^|-)rx-?7800-?xt$/, "rx7800xt-16g"],
  // rocm-smi's "Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]" names three cards, and no rule takes it for one of them.
  [/(^|-)rx-?6900-?xt$/, "rx6900xt-16g"],
  [/(^|-)rx-?6800-?xt$/, "rx6800xt-16g"],
];

export interface Identified {
  /** The catalog card, or undefined for a card the catalog does not know. */
  card: Card | undefined;
  /** The class label: the catalog's, or one made from the name and memory ("rtx-3060-12g"). */
  class: string;
  /** Memory to record on the device group, in GiB, when the catalog's figure is not this card's. */
  memGib?: number;
}

/** A class label for a card the catalog does not have: the name's words and the reported GiB. */
export function customClass(name: string, mib: number): string {
  const stem = normalizeProduct(name).replace(/\./g, "-").slice(0, 40) || "gpu";
  return `${stem}-${Math.round((mib * MIB) / 2 ** 30)}g`;
}

/**
 * The card a product string names. `mib` is the total the tool reported, when
 * it did; it picks the variant, and when it differs from the catalog's it is
 * kept as the group's memory (a card's capacity is what it reports: an L40
 * with ECC off shows 49,140 MiB, not the catalog's 46,068).
 */
export function identifyCard(product: string, mib?: number): Identified | null {
  const name = normalizeProduct(product);
  if (name === "") return null;
  for (const [pattern, target] of RULES) {
    if (!pattern.test(name)) continue;
    const cls = typeof target === "string" ? target : target(mib, name);
    if (cls === undefined) break;
    if (cls === null) return null;
    const card = cardOf(cls);
    if (!card) return null;
    if (mib === undefined || mib * MIB === card.memoryBytes) return { card, class: cls };
    return { card, class: cls, memGib: (mib * MIB) / 2 ** 30 };
  }
  if (mib === undefined || !(mib > 0)) return null;
  return { card: undefined, class: customClass(product, mib), memGib: (mib * MIB) / 2 ** 30 };
}

/** "MIG 1c.3g.20gb", "mig-3g.21gb", "1g.10gb+me" → slices 3 and the name's GB figure. */
export function parseMigProfile(raw: string): { profile: string; slices: number; nameGb: number } | null {
  const m = /(?:^|[^\d.])(?:\d+c\.)?(\d+)g\.(\d+)gb/i.exec(raw);
  if (!m) return null;
  const slices = Number(m[1]);
  const nameGb = Number(m[2]);
  if (!(slices > 0 && slices <= 8 && nameGb > 0)) return null;
  return { profile: `${slices}g.${nameGb}gb`, slices, nameGb };
}

/**
 * How far a reported slice memory may sit from the catalog's and still be the
 * same profile: GFD's A100 3g.20gb is 20,096 MiB against lgip's 19.50 GiB
 * (0.6%), and a driver's 4g.20gb is a quarter-GiB off another's (1.3%).
 */
const MIG_MEMORY_TOLERANCE = 0.05;

/**
 * The catalog profile of a slice: same parent, same slices, and the memory
 * (reported, else the GB in its name) closest within tolerance. Null when the
 * catalog has no such profile for this card.
 */
export function matchMigProfile(card: Card, slices: number, memoryBytes?: number, nameGb?: number): MigProfile | null {
  const candidates = card.migProfiles.filter((p) => p.slices === slices);
  if (candidates.length === 0) return null;
  const distance = (p: MigProfile): number => {
    if (memoryBytes !== undefined) return Math.abs(p.memoryBytes - memoryBytes) / p.memoryBytes;
    const gb = Number(/\.(\d+)gb$/.exec(p.profile)?.[1] ?? "0");
    // Names round the memory up to GB (3g.40gb holds 39.5 GiB): compare the names' figures.
    return nameGb !== undefined ? Math.abs(gb - nameGb) / gb : 0;
  };
  const best = [...candidates].sort((a, b) => distance(a) - distance(b))[0];
  if (!best) return null;
  if (memoryBytes === undefined && nameGb === undefined) return candidates.length === 1 ? best : null;
  const limit = memoryBytes !== undefined ? MIG_MEMORY_TOLERANCE : 0.15;
  return distance(best) <= limit ? best : null;
}

/**
 * The least GiB a catalogued slice holds per GB of its name (GB200's 1g.24gb
 * holds 20.00 GiB: 0.83). A slice known only by its name is taken at this
 * share of it, so the guess never promises more than such a slice has.
 */
export const MIG_NAME_TO_GIB = Math.min(
  ...CARDS.flatMap((c) =>
    c.migProfiles.map((p) => p.memoryBytes / 2 ** 30 / Number(/\.(\d+)gb$/.exec(p.profile)?.[1] ?? "1")),
  ),
);

export interface MigIdentified {
  class: string;
  memGib?: number;
  /** Said to the user when the slice is not one the catalog knows. */
  warning?: string;
}

/**
 * The class of a MIG slice of `parentClass`: "a100-80g-mig-3g.40gb" when the
 * catalog knows the profile (by slices and memory), else a class of the name
 * the tool gave with the memory it reported (or its name's GB, said as such).
 */
export function identifyMig(parentClass: string, rawProfile: string, memoryBytes?: number): MigIdentified | null {
  const parsed = parseMigProfile(rawProfile);
  if (!parsed) return null;
  const card = cardOf(parentClass);
  const match = card ? matchMigProfile(card, parsed.slices, memoryBytes, parsed.nameGb) : null;
  if (match) return { class: `${parentClass}-mig-${match.profile}` };
  const cls = `${parentClass}-mig-${parsed.profile}`;
  if (memoryBytes !== undefined) {
    return {
      class: cls,
      memGib: memoryBytes / 2 ** 30,
      warning: `MIG profile ${parsed.profile} of ${parentClass} is not in the catalog: its reported memory is used`,
    };
  }
  return {
    class: cls,
    memGib: Math.floor(parsed.nameGb * MIG_NAME_TO_GIB * 100) / 100,
    warning: `MIG profile ${parsed.profile} of ${parentClass} is not in the catalog and no memory was given: taken as ${Math.round(MIG_NAME_TO_GIB * 100)}% of its name's ${parsed.nameGb} GB, the least any listed slice holds of its name; check it`,
  };
}

/** Every catalog class, for the panel's picker and the CSV reader. */
export function catalogClasses(): string[] {
  const out: string[] = [];
  for (const c of CARDS) {
    out.push(c.class);
    for (const p of c.migProfiles) out.push(`${c.class}-mig-${p.profile}`);
  }
  return out;
}

/**
 * The card MIG instances sit on when nothing names it (mig -lgi, grepped GFD labels): the catalog cards
 * whose profiles carry every name seen (and lgip's GiB, when pasted). Among
 * several, the one with the least memory, so the plan never counts on more;
 * the review names the others.
 */
export function parentFromProfiles(
  slices: { name: string; memoryBytes?: number | undefined }[],
): { card: Card; others: string[] } | null {
  // Each distinct slice is matched once, weighed by how often it appears: a paste of 61,555 lgi rows took 2 s otherwise.
  const distinct = new Map<string, { name: string; memoryBytes?: number | undefined; times: number }>();
  for (const sl of slices) {
    const key = `${sl.name}|${sl.memoryBytes ?? ""}`;
    const seen = distinct.get(key);
    if (seen) seen.times++;
    else distinct.set(key, { ...sl, times: 1 });
  }
  const matchOn = (card: Card) =>
    [...distinct.values()].map((sl) => {
      const parsed = parseMigProfile(sl.name);
      const profile = parsed ? matchMigProfile(card, parsed.slices, sl.memoryBytes, parsed.nameGb) : null;
      return profile ? { profile, times: sl.times } : null;
    });
  const held = new Map<Card, number>();
  for (const card of CARDS) {
    const matched = matchOn(card);
    if (matched.every((m) => m !== null))
      held.set(
        card,
        matched.reduce((sum, m) => sum + (m ? m.profile.memoryBytes * m.times : 0), 0),
      );
  }
  const sorted = [...held.keys()].sort((a, b) => (held.get(a) ?? 0) - (held.get(b) ?? 0));
  const card = sorted[0];
  return card ? { card, others: sorted.slice(1).map((c) => c.class) } : null;
}
