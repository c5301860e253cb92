/**
 * A Hub failure in the terminal's words. The Hub reader's messages are the
 * page's: they send the user to "settings", a token field, the catalog
 * picker and "upload its config.json" (manual mode), none of which a
 * terminal has (issue 17, defect 6). Here each names what the terminal
 * does have: HF_ENDPOINT, HF_TOKEN, a local download, and the bundled
 * models by name.
 */
import { catalogEntries } from "./catalog.ts";
import type { HubError } from "../../src/hub/errors.ts";

/** Page words and what the terminal says instead; the order matters where one phrase holds another. */
const TERMINAL_WORDS: [RegExp, string][] = [
  [/check the connection or the Hub address in settings/g, "check the connection or HF_ENDPOINT"],
  [/the Hub address in settings/g, "HF_ENDPOINT"],
  [/paste a new one, or clear it to read public repos/g, "set HF_TOKEN to a new one, or unset it to read public repos"],
  [/then paste a read token/g, "then set HF_TOKEN=hf_… (a read token of that account)"],
  [/paste a read token/g, "set HF_TOKEN=hf_… (a read token)"],
];

/** What the terminal can plan without the Hub, in one sentence. */
export function offlineWays(repo: string): string {
  const name = repo.split("/")[1] ?? repo;
  const bundled = catalogEntries().map((e) => e.repo);
  return `plan a local download instead (hf download ${repo} --local-dir ./${name}, then npm run plan -- ./${name} --cluster …), set HF_ENDPOINT to a Hub mirror you can reach, or plan a bundled model, which needs no Hub: ${bundled.join(", ")}`;
}

export function terminalHubMessage(err: HubError, hubUrl: string, repo: string): string {
  if (err.kind === "network") {
    const cause = /\(([^)]*)\)/.exec(err.message)?.[1];
    return `cannot reach the Hub at ${hubUrl}${cause ? ` (${cause})` : ""}: check the connection, or ${offlineWays(repo)}`;
  }
  return TERMINAL_WORDS.reduce((text, [page, terminal]) => text.replace(page, terminal), err.message);
}
