/**
 * The free memory of a device a --tensor-split was sized on, when the inventory gave it: llama.cpp
 * allocates beside whatever else runs there, so such a card offers its free memory, not its total.
 */
import type { Part } from "../../layout.ts";

const freeOfPart = new WeakMap<Part, number>();

export function setPartFree(part: Part, freeBytes: number): void {
  freeOfPart.set(part, freeBytes);
}

/** What the card offers llama.cpp before --fit's margin: its free memory when known, else its total. */
export function partOfferBytes(part: Part): number {
  return Math.min(part.physicalBytes, freeOfPart.get(part) ?? Infinity);
}
