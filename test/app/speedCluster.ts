/**
 * The clusters the page's speed is measured on (e2e/speed.spec.ts) and the
 * plan worker's transport is tested on (planClient.test.ts): DeepSeek-R1's
 * 13 GGUF artifacts give ~50 options on three card classes, ~230 on seventeen.
 */
import type { Cluster } from "../../src/plan/index.ts";

/** Three card classes: 52 options of DeepSeek-R1's 13 GGUF artifacts (issue 5's case). */
export const THREE_CLASSES = ["h100-80g", "a100-80g", "l40s-48g"];
/** Seventeen: about 200 options (issue 13's case, every layout listed). */
export const MANY_CLASSES = [
  ...THREE_CLASSES,
  "h200-141g",
  "b200-180g",
  "a100-40g",
  "l40-48g",
  "a40-48g",
  "mi300x-192g",
  "gh200-96g",
  "a10g-24g",
  "l4-24g",
  "h100-nvl-94g",
  "mi325x-256g",
  "a30-24g",
  "gb200-186g",
  "rtxpro6000-96g",
];

/** Each class on two nodes of 8 (one half busy). */
export function twoNodesEach(classes: readonly string[]): Cluster {
  return {
    nodes: classes.flatMap((cls) =>
      [0, 1].map((k) => ({
        id: `${cls}-${k}`,
        fabric: "ib0",
        hostMemGib: 2048,
        hostFreeGib: 1800,
        devices: [{ class: cls, count: 8, free: k === 0 ? 8 : 4 }],
      })),
    ),
  };
}
