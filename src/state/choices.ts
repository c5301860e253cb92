/**
 * The user's choices: everything the page lets a user set that changes the
 * plan. Exactly these go into a plan link (docs/STYLE.md habit 3); Hub data lives in
 * the query cache and the plan itself is derived, never stored.
 */
import type { Cluster, Engine, Workload } from "../plan/index.ts";

/** Which options the list shows: all, those that fit the cluster, or those that could start now. */
export type FitFilter = "all" | "fits" | "free";
export const FIT_FILTERS = ["all", "fits", "free"] as const satisfies readonly FitFilter[];

/** How the list is grouped. */
export type GroupBy = "none" | "artifact" | "engine";
export const GROUP_BYS = ["none", "artifact", "engine"] as const satisfies readonly GroupBy[];

export { ENGINES } from "../plan/index.ts";

export interface Filters {
  /** An artifact's name, or "" for every artifact. */
  artifact: string;
  /** One engine, or "" for every engine. */
  engine: Engine | "";
  fit: FitFilter;
  groupBy: GroupBy;
}

export interface Choices {
  /** "owner/name". */
  repo: string;
  /** The commit the plan is pinned to (a sha once read), a branch or tag, or "" for the default branch. */
  revision: string;
  cluster: Cluster;
  workload: Workload;
  filters: Filters;
  /** The option the user opened (PlanOption.id, stable across context changes), or "". */
  selectedOptionId: string;
  /** Which of the selected option's commands the user chose (index into PlanOption.commands). */
  commandIndex: number;
  /** A model given by hand (manual mode) when the Hub cannot be reached; it replaces `repo` while set. */
  manual?: ManualModel;
}

/** A config.json and the weights' size, as the user pasted or uploaded them. */
export interface ManualModel {
  /** The name the commands use for the model (the config's _name_or_path, or what the user typed). */
  name: string;
  /** config.json, minified (JSON.stringify of the parsed object), so a link carries as little as it can. */
  configJson: string;
  weightsBytes: number;
  /**
   * hf_quant_config.json as the engine reads it (manual.ts quantConfigEssentials), minified: a catalog model
   * that declares its quantization only there (DeepSeek-V3.1/3.2-NVFP4) would plan as unquantized without it.
   */
  quantConfigJson?: string;
}

export const DEFAULT_FILTERS: Filters = { artifact: "", engine: "", fit: "all", groupBy: "none" };
