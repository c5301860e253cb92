/**
 * A card's load with the figures made from it: the weights beside the MTP block, what the parts use,
 * and what that leaves of the usable share or puts past it. Made once here, where the engine builds the
 * load, so the page's bars, the KV figures and the JSON only format them (one home for each fact).
 */
import type { CardLoad } from "./types.ts";

/** What an engine decides about a card; the rest of a CardLoad follows from it. */
export type CardLoadParts = Omit<CardLoad, "weightsBesideMtpBytes" | "usedBytes" | "leftBytes" | "overBytes">;

export function cardLoad(parts: CardLoadParts): CardLoad {
  const used = parts.weightsBytes + parts.kvBytes + parts.engineBytes;
  // The MTP block is counted among the weights, so it can be no more than they are.
  const mtp = Math.min(parts.mtpWeightsBytes ?? 0, parts.weightsBytes);
  // Field by field, not by rest and spread: made for every card of every option on every slider
  // move, and V8's object rest copy was a third of the slider's time.
  const load: CardLoad = {
    gpuClass: parts.gpuClass,
    cards: parts.cards,
    role: parts.role,
    weightsBytes: parts.weightsBytes,
    kvBytes: parts.kvBytes,
    engineBytes: parts.engineBytes,
    usableBytes: parts.usableBytes,
    physicalBytes: parts.physicalBytes,
    weightsBesideMtpBytes: parts.weightsBytes - Math.max(0, mtp),
    usedBytes: used,
    leftBytes: Math.max(0, parts.usableBytes - used),
    overBytes: Math.max(0, used - parts.usableBytes),
  };
  if (mtp > 0) load.mtpWeightsBytes = mtp;
  if ((parts.commBufferBytes ?? 0) > 0) load.commBufferBytes = parts.commBufferBytes ?? 0;
  return load;
}
