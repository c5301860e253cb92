/**
 * The page's store: the user's choices (which go into the link), and two
 * things that never do: what an opened link could not use, and the Hub's
 * address (a setting of this browser, not of the plan; a link that carried it
 * could point someone's token at another server).
 */
import type { Cluster, EngineSettings, Workload } from "../plan/index.ts";
import type { Choices, Filters, ManualModel } from "./choices.ts";
import type { TabStorage } from "../hub/settings.ts";
import { createPlanStore, type PlanStore } from "./store.ts";

export interface AppState {
  choices: Choices;
  /** What the opened link could not use, one sentence each; shown until dismissed. */
  linkNotices: string[];
  hubUrl: string;
}

export type AppStore = PlanStore<AppState>;

/** The page's store; its Hub address is read from and kept in `settings` (localStorage), when given. */
export function createAppStore(initial: AppState, settings: TabStorage | null = null): AppStore {
  return createPlanStore(initial, settings);
}

function setChoices(store: AppStore, change: (choices: Choices) => Choices): void {
  store.setState((s) => ({ ...s, choices: change(s.choices) }));
}

export function setWorkload(store: AppStore, patch: Partial<Omit<Workload, "settings">>): void {
  setChoices(store, (c) => ({ ...c, workload: { ...c.workload, ...patch } }));
}

/** The whole workload at once, as the command form edits it. */
export function replaceWorkload(store: AppStore, workload: Workload): void {
  setChoices(store, (c) => ({ ...c, workload }));
}

/** Sets or clears (undefined) one engine setting; a cleared setting is the engine's default again. */
export function setEngineSetting<K extends keyof EngineSettings>(
  store: AppStore,
  key: K,
  value: EngineSettings[K] | undefined,
): void {
  setChoices(store, (c) => {
    const settings: EngineSettings = { ...c.workload.settings };
    if (value === undefined) delete settings[key];
    else settings[key] = value;
    return { ...c, workload: { ...c.workload, settings } };
  });
}

export function resetEngineSettings(store: AppStore): void {
  setChoices(store, (c) => ({ ...c, workload: { ...c.workload, settings: {} } }));
}

export function setCluster(store: AppStore, cluster: Cluster): void {
  setChoices(store, (c) => ({ ...c, cluster }));
}

export function setFilters(store: AppStore, patch: Partial<Filters>): void {
  setChoices(store, (c) => ({ ...c, filters: { ...c.filters, ...patch } }));
}

/** Opening another option starts from its first command. */
export function selectOption(store: AppStore, optionId: string): void {
  setChoices(store, (c) => ({
    ...c,
    selectedOptionId: optionId,
    commandIndex: optionId === c.selectedOptionId ? c.commandIndex : 0,
  }));
}

export function chooseCommand(store: AppStore, commandIndex: number): void {
  setChoices(store, (c) => ({ ...c, commandIndex }));
}

/**
 * Another repo (or revision): filters name artifacts of the old repo and
 * the selection an option of it, so both start over.
 */
export function setRepo(store: AppStore, repo: string, revision: string): void {
  setChoices(store, (c) => {
    if (c.repo === repo && c.revision === revision && c.manual === undefined) return c;
    const rest: Choices = { ...c };
    delete rest.manual;
    const sameModel = c.repo === repo && c.manual === undefined;
    return {
      ...rest,
      repo,
      revision,
      filters: { ...c.filters, artifact: "" },
      selectedOptionId: sameModel ? c.selectedOptionId : "",
      commandIndex: 0,
    };
  });
}

/** A model given by hand replaces the repo's (manual mode); reading a repo again drops it. */
export function setManualModel(store: AppStore, manual: ManualModel): void {
  setChoices(store, (c) => ({
    ...c,
    manual,
    filters: { ...c.filters, artifact: "" },
    selectedOptionId: "",
    commandIndex: 0,
  }));
}

/** Pins the plan to the commit that was read, so the link reproduces it after the branch moves. */
export function pinRevision(store: AppStore, repo: string, sha: string): void {
  setChoices(store, (c) => (c.repo === repo && c.revision !== sha ? { ...c, revision: sha } : c));
}

export function dismissLinkNotices(store: AppStore): void {
  store.setState((s) => (s.linkNotices.length === 0 ? s : { ...s, linkNotices: [] }));
}

export function setHubUrl(store: AppStore, hubUrl: string): void {
  store.setState((s) => (s.hubUrl === hubUrl ? s : { ...s, hubUrl }));
}

/** A link pasted into this tab's address bar replaces the plan, as opening it would. */
export function openLink(store: AppStore, choices: Choices, ignored: string[]): void {
  store.setState((s) => ({ ...s, choices, linkNotices: ignored }));
}
