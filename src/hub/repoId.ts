/**
 * What the user pastes into the repo field, turned into a repo id and an
 * optional revision. Accepted: `owner/name`, `owner/name@rev`, and Hub URLs
 * (`https://huggingface.co/owner/name`, `…/tree/<rev>`, `…/blob/<rev>/<file>`,
 * `…/resolve/<rev>/<file>`), with or without the scheme.
 */

/** Hosts whose paths are Hub model paths. A mirror's own address is typed as owner/name. */
const HUB_HOSTS = new Set(["huggingface.co", "www.huggingface.co", "hf.co"]);

/**
 * The Hub's rule for a repo name part (huggingface_hub `validate_repo_id`):
 * letters, digits, "-", "_", "."; no "--" or ".."; not starting or ending
 * with "-" or "."; at most 96 characters.
 */
const NAME_PART = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const MAX_NAME_CHARS = 96;

export type RepoInput = { repo: string; revision: string | null } | { error: string };

function partError(part: string, what: string): string | null {
  if (part.length > MAX_NAME_CHARS)
    return `the ${what} "${part.slice(0, 20)}…" is longer than the Hub's ${MAX_NAME_CHARS} characters`;
  if (!NAME_PART.test(part) || part.includes("--") || part.includes("..") || /[-.]$/.test(part)) {
    return `"${part}" is not a valid ${what}: use letters, digits, "-", "_" and "."`;
  }
  return null;
}

function checkRepo(owner: string, name: string, revision: string | null): RepoInput {
  const err = partError(owner, "owner") ?? partError(name, "model name");
  if (err) return { error: err };
  if (revision !== null && (revision.trim() === "" || /\s/.test(revision))) {
    return { error: `"${revision}" is not a revision: give a branch, tag or commit sha, or leave it out` };
  }
  return { repo: `${owner}/${name}`, revision };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function fromUrlPath(path: string): RepoInput {
  const parts = path
    .split("/")
    .filter((p) => p !== "")
    .map(decode);
  const [first] = parts;
  if (first === "datasets" || first === "spaces") {
    return { error: `that is a ${first === "datasets" ? "dataset" : "Space"}, not a model: paste a model's address` };
  }
  if (parts.length < 2) return { error: "the address names no model: it should look like huggingface.co/owner/name" };
  const [owner = "", rawName = "", verb, rev] = parts;
  const at = rawName.indexOf("@");
  const name = at >= 0 ? rawName.slice(0, at) : rawName;
  let revision: string | null = at >= 0 ? rawName.slice(at + 1) : null;
  if (verb !== undefined) {
    if (verb === "tree" || verb === "blob" || verb === "resolve" || verb === "commit") {
      if (rev === undefined)
        return { error: `the address ends at "/${verb}": add the revision after it, or remove "/${verb}"` };
      revision = rev;
    } else if (!["discussions", "commits", "settings", "files"].includes(verb)) {
      return { error: `cannot read "/${verb}" in the address: paste the model's page, e.g. huggingface.co/owner/name` };
    }
  }
  return checkRepo(owner, name, revision);
}

export function parseRepoInput(text: string): RepoInput {
  const input = text.trim();
  if (input === "") return { error: "type a model's repo, e.g. Qwen/Qwen3-8B, or paste its huggingface.co address" };
  const withoutScheme = input.replace(/^https?:\/\//i, "");
  const slash = withoutScheme.indexOf("/");
  const host = slash >= 0 ? withoutScheme.slice(0, slash).toLowerCase() : "";
  if (host.includes(".")) {
    if (!HUB_HOSTS.has(host)) {
      return {
        error: `"${host}" is not a Hugging Face address: paste owner/name (set a mirror's address in settings)`,
      };
    }
    const path = withoutScheme.slice(slash).split(/[?#]/)[0] ?? "";
    return fromUrlPath(path);
  }
  if (/\s/.test(input)) return { error: `"${input}" has spaces: a repo looks like owner/name` };
  const at = input.indexOf("@");
  const id = at >= 0 ? input.slice(0, at) : input;
  const revision = at >= 0 ? input.slice(at + 1) : null;
  const parts = id.split("/");
  if (parts.length !== 2) {
    return { error: `"${id}" is not owner/name: write the owner too, e.g. Qwen/Qwen3-8B` };
  }
  return checkRepo(parts[0] ?? "", parts[1] ?? "", revision);
}

/** A 40-hex commit sha: a pinned revision, whose snapshot never changes. */
export function isCommitSha(revision: string | null): boolean {
  return revision !== null && /^[0-9a-f]{40}$/.test(revision);
}
