/** Reads an inventory sample as a user pastes it: line 1 is the sample's source, everything after is verbatim. */
import { readFileSync } from "node:fs";

export function sample(name: string): string {
  const text = readFileSync(new URL(`../fixtures/inventory/${name}`, import.meta.url), "utf8");
  return text.slice(text.indexOf("\n") + 1);
}
