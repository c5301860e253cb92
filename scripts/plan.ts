/**
 * `npm run plan -- <model> --cluster <file> [--context N] [--json] [settings]`
 *
 * The page's engine from a terminal: the same Hub reader (at HF_ENDPOINT),
 * the same cluster importer, the same planner. See --help.
 */
import { existsSync } from "node:fs";
import { basename } from "node:path";
import { importCluster } from "../src/cluster/import.ts";
import { formatMessage } from "../src/cluster/messages.ts";
import { catalogSnapshot } from "./lib/catalog.ts";
import { HubError } from "../src/hub/errors.ts";
import { readRepo } from "../src/hub/read.ts";
import { parseRepoInput } from "../src/hub/repoId.ts";
import { checkToken, hubUrlFromEnv } from "../src/hub/settings.ts";
import { snapshotCeilingError } from "../src/hub/limits.ts";
import { hubTimeoutFromEnv } from "../src/hub/timeout.ts";
import {
  assumedVllmRelease,
  cardOf,
  contextFit,
  DEFAULT_WORKLOAD,
  ModelError,
  plan,
  readModel,
  requestTokensOf,
} from "../src/plan/index.ts";
import { optionJson, refusalJson } from "../src/report/json.ts";
import type { Cluster, RepoSnapshot, Workload } from "../src/plan/index.ts";
import { UsageError, helpText, parsePlanArgs } from "./lib/args.ts";
import type { PlanArgs } from "./lib/args.ts";
import { InputError, readInventoryFile } from "./lib/input.ts";
import { LocalModelError, localModelDir, readLocalModel } from "./lib/localModel.ts";
import { deployTargetsJson, deployText } from "./lib/deploy.ts";
import { firstLines, printable, printableLines } from "./lib/printable.ts";
import { textReport } from "./lib/report.ts";
import { terminalHubMessage } from "./lib/hubWords.ts";

/** Exit codes: 2 for what the user gave (argument, path, file, repo), 1 when the Hub could not be read. */
const EXIT_INPUT = 2;
const EXIT_HUB = 1;

class CliError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

const HUB_INPUT_KINDS = new Set(["gated", "not-found", "revision", "token"]);

async function readSnapshot(args: PlanArgs, env: NodeJS.ProcessEnv, notes: string[]): Promise<RepoSnapshot> {
  if (existsSync(args.model)) {
    const local = await readLocalModel(args.model);
    // The Hub reader checks shapes as it reads; a directory on disk is checked here, before the engine loops over them.
    const tooLarge = snapshotCeilingError(local);
    if (tooLarge) throw new CliError(`${args.model}: ${tooLarge}`, EXIT_INPUT);
    return local;
  }
  const parsed = parseRepoInput(args.model);
  if ("error" in parsed)
    throw new CliError(`${args.model}: not a directory here, and not a Hub repo: ${parsed.error}`, EXIT_INPUT);
  const hubUrl = hubUrlFromEnv(env);
  if (hubUrl instanceof HubError) throw new CliError(`HF_ENDPOINT: ${hubUrl.message}`, EXIT_INPUT);
  // HF_TOKEN (or its older name HUGGING_FACE_HUB_TOKEN), as huggingface_hub reads it; never printed.
  const rawToken = (env.HF_TOKEN || env.HUGGING_FACE_HUB_TOKEN)?.trim();
  let accessToken: string | undefined;
  if (rawToken) {
    const token = checkToken(rawToken);
    if (token instanceof HubError) throw new CliError(`HF_TOKEN: ${token.message}`, EXIT_INPUT);
    accessToken = token;
  }
  // HF_HUB_TIMEOUT (seconds), as huggingface_hub's HF_HUB_DOWNLOAD_TIMEOUT: how long a Hub request may stall.
  const timeoutMs = hubTimeoutFromEnv(env);
  if (timeoutMs instanceof HubError) throw new CliError(timeoutMs.message, EXIT_INPUT);
  const revision = args.revision ?? parsed.revision;
  try {
    return await readRepo(parsed.repo, revision, { hubUrl, timeoutMs, ...(accessToken ? { accessToken } : {}) });
  } catch (err) {
    // Offline, the bundled catalog still answers for the models it holds, as in the page.
    const bundled = catalogSnapshot(parsed.repo);
    if (
      err instanceof HubError &&
      err.kind === "network" &&
      bundled &&
      (revision === null || revision === bundled.sha)
    ) {
      notes.push(
        `the Hub at ${hubUrl} is unreachable: planned from the bundled catalog's snapshot of ${bundled.repo}${bundled.sha ? ` at ${bundled.sha}` : ""}`,
      );
      return bundled;
    }
    if (err instanceof HubError)
      throw new CliError(
        terminalHubMessage(err, hubUrl, parsed.repo),
        HUB_INPUT_KINDS.has(err.kind) ? EXIT_INPUT : EXIT_HUB,
      );
    throw err;
  }
}

async function readClusterFile(path: string): Promise<{ cluster: Cluster; warnings: string[] }> {
  let text: string;
  try {
    text = await readInventoryFile(path);
  } catch (err) {
    if (err instanceof InputError) throw new CliError(`--cluster ${printable(path)}: ${err.message}`, EXIT_INPUT);
    throw err;
  }
  const result = importCluster(text, basename(path));
  if (!result.cluster) {
    const [first, ...rest] = result.errors;
    const more = rest.length > 0 ? ` (and ${rest.length} more)` : "";
    throw new CliError(
      `--cluster ${printable(path)}: ${first ? formatMessage(first) : "no nodes read"}${more}`,
      EXIT_INPUT,
    );
  }
  return { cluster: result.cluster, warnings: result.warnings.map(formatMessage) };
}

/**
 * A price for a class neither the cluster nor the catalog has is a typo ("H100-80G", "h100"): taken, it
 * priced nothing and cost stayed at the default without a word.
 */
function unknownPriceClass(prices: Readonly<Record<string, number>> | undefined, cluster: Cluster): void {
  const own = new Set(cluster.nodes.flatMap((n) => n.devices.map((d) => d.class)));
  const unknown = Object.keys(prices ?? {}).find((cls) => !own.has(cls) && cardOf(cls) === undefined);
  if (unknown === undefined) return;
  throw new CliError(
    `--price: no card class "${printable(unknown.slice(0, 60))}" in the cluster or the catalog; the cluster's: ${[
      ...own,
    ]
      .slice(0, 10)
      .map((c) => printable(c))
      .join(", ")}`,
    EXIT_INPUT,
  );
}

/**
 * The command, as printed: what a person reads loses its control characters and
 * over-long lines (printable.ts); --json output is JSON.stringify's, already escaped.
 */
export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await run(argv, env);
  return {
    code: out.code,
    stdout: argv.includes("--json") ? out.stdout : printableLines(out.stdout),
    stderr: printableLines(out.stderr),
  };
}

async function run(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const args = parsePlanArgs(argv);
    if (args.help) return { code: 0, stdout: helpText(), stderr: "" };
    const { cluster, warnings } = await readClusterFile(args.clusterFile);
    unknownPriceClass(args.workload.pricesPerCardHour, cluster);
    const notes: string[] = [];
    const snapshot = await readSnapshot(args, env, notes);
    // A shape past any real model (a header's block_count of 2^32 − 1) is refused before any loop runs, Hub or local.
    const absurd = snapshotCeilingError(snapshot);
    if (absurd) throw new CliError(absurd, EXIT_INPUT);
    const model = readModel(snapshot);
    const asked =
      args.contextTokens ??
      Math.min(DEFAULT_WORKLOAD.contextTokens, model.shape.maxContextTokens || DEFAULT_WORKLOAD.contextTokens);
    // Past the model's own limit: planned at the limit with one message, or stretched by YaRN when asked.
    const fit = contextFit(model.shape, asked, args.workload.settings.ropeScaling);
    if (fit.message !== null)
      notes.push(
        fit.yarn !== null && !fit.extended ? `${fit.message} Plan it so with --rope-scaling yarn.` : fit.message,
      );
    const { shape } = fit;
    const { artifacts } = model;
    const contextTokens = fit.contextTokens;
    const workload: Workload = { ...args.workload, contextTokens };
    const request = requestTokensOf(workload);
    // A request the commands' context refuses: said once here, and in every option's speed_basis.
    if (request > contextTokens)
      notes.push(
        `the request (--input-tokens + --output-tokens: ${request.toLocaleString("en-US")} tokens) is longer than the ${contextTokens.toLocaleString("en-US")}-token context the commands start, which refuse it; give --context ${request} or more to serve it (the speed figures price it as if it were served)`,
      );
    // A model read from disk is served from there: its commands name the directory, not a Hub repo.
    const modelPath = existsSync(args.model) ? localModelDir(args.model) : undefined;
    const result = plan(
      {
        repo: snapshot.repo,
        revision: snapshot.sha,
        ...(modelPath !== undefined ? { modelPath } : {}),
        shape,
        artifacts,
      },
      cluster,
      workload,
    );
    if (!args.json && result.options.some((o) => o.engine === "vllm"))
      notes.push(assumedVllmRelease(workload.settings.vllmVersion).words);
    const stderr = [...notes, ...firstLines(warnings, "cluster: ")].join("\n");
    if (args.deploy !== null) return { code: 0, stdout: deployText(result, args.deploy, args.option), stderr };
    if (args.json) {
      const options = result.options.map((o) => ({ ...optionJson(o), deploy_targets: deployTargetsJson(o, result) }));
      // Which vLLM the plan assumed: the newest release profile unless --vllm-version named one (additive field).
      const vllm = assumedVllmRelease(workload.settings.vllmVersion);
      const out = {
        model: { repo: snapshot.repo, sha: snapshot.sha, ...shape, artifacts },
        options,
        refused: result.refused.map(refusalJson),
        vllm_release: vllm.words,
        // A context past the model's limit (additive field): what was asked, what was planned, and the YaRN that lifts it.
        ...(fit.message !== null
          ? {
              context_limit: {
                asked_tokens: asked,
                planned_tokens: fit.contextTokens,
                model_limit_tokens: model.shape.maxContextTokens,
                yarn: fit.yarn && { factor: fit.yarn.factor, original_tokens: fit.yarn.originalTokens },
                extended: fit.extended,
                message: fit.message,
              },
            }
          : {}),
      };
      return { code: 0, stdout: JSON.stringify(out, null, 2), stderr };
    }
    return { code: 0, stdout: textReport(snapshot, result, contextTokens), stderr };
  } catch (err) {
    if (err instanceof CliError) return { code: err.code, stdout: "", stderr: err.message };
    if (err instanceof UsageError || err instanceof LocalModelError || err instanceof ModelError)
      return { code: EXIT_INPUT, stdout: "", stderr: err.message };
    if (err instanceof HubError)
      return { code: HUB_INPUT_KINDS.has(err.kind) ? EXIT_INPUT : EXIT_HUB, stdout: "", stderr: err.message };
    throw err;
  }
}

const isEntry =
  process.argv[1] !== undefined && import.meta.filename === (await import("node:fs")).realpathSync(process.argv[1]);
if (isEntry) {
  const { code, stdout, stderr } = await main(process.argv.slice(2), process.env).catch((err: unknown) => ({
    // A bug of ours still ends in one line, not a stack trace the user has to read.
    code: 1,
    stdout: "",
    stderr: `internal error, please report it: ${err instanceof Error ? err.message : String(err)}`,
  }));
  if (stdout) process.stdout.write(`${stdout}\n`);
  if (stderr)
    process.stderr.write(
      `${printableLines(stderr)
        .split("\n")
        .map((l) => `plan: ${l}`)
        .join("\n")}\n`,
    );
  process.exitCode = code;
}
