/**
 * What every kind of deployment shares: where the model is cached, how big
 * that cache must be, the token's name, and the words a manifest opens with.
 */
import { artifactTotalBytes, GIB } from "../plan/index.ts";
import type { Engine } from "../plan/index.ts";
import type { DeployInput } from "./types.ts";
import { imageRef, type EngineImage } from "./images.ts";

/**
 * Where each engine keeps what it downloads: the Hub cache for vLLM and SGLang
 * (HF_HOME's default under root, as vLLM's Docker docs mount it), llama.cpp's
 * own for -hf (LLAMA_CACHE's default, ~/.cache/llama.cpp).
 */
export function cacheDir(engine: Engine): string {
  return engine === "llamacpp" ? "/root/.cache/llama.cpp" : "/root/.cache/huggingface";
}

/**
 * The cache's size: the artifact's files (and projector) rounded up to a GiB,
 * plus 1 GiB for the tokenizer, config files and the Hub client's lock and
 * partial files. Less and the download fails part-way.
 */
export function cacheGib(input: DeployInput): number {
  const a = input.plan.artifacts.find((x) => x.name === input.option.artifact);
  return Math.ceil((a ? artifactTotalBytes(a) : 0) / GIB) + 1;
}

/** The Secret (and its key) the Hub token is read from, never a literal in the manifest. */
export const TOKEN_SECRET = { name: "hf-token", key: "token" } as const;

/** The file Compose reads the token from: `HF_TOKEN=hf_…`, kept out of compose.yaml. */
export const TOKEN_ENV_FILE = "hf-token.env";

/** The lines a deployment opens with: what it runs, for which option, on which image and why that tag. */
export function header(input: DeployInput, image: EngineImage | undefined, extra: readonly string[] = []): string[] {
  const o = input.option;
  const lines = [
    `Modelplan: ${input.plan.repo}${input.plan.revision ? `@${input.plan.revision}` : ""}, option ${o.id} (${o.engine}, ${o.artifact})`,
    ...(image ? [`image ${imageRef(image)}: ${image.source}`] : []),
    ...extra,
  ];
  // A comment line ends at a newline: none may come from a name.
  return lines.map((l) => `# ${l.replace(/[\r\n]+/g, " ")}`);
}
