/**
 * What the page's Engine settings and command form show of the engines, made by the engine with each plan
 * (issue 19): each setting's default with its source, the vLLM releases, the KV dtypes each engine takes, and an
 * option's share of its card. The page's thread then needs no engine code to show them: the plan brings them.
 */
import { largestCardBytes } from "./cards.ts";
import { ENGINE_ORDER, engineDefaults } from "./engines/index.ts";
import {
  assumedVllmRelease,
  VLLM_NEWEST_PROFILE,
  vllmReleaseChoiceOf,
  vllmReleaseChoices,
} from "./engines/vllm/releases.ts";
import { vllmUtilizationDefaults } from "./engines/vllm/settings.ts";
import { resolveSettings } from "./settings.ts";
import {
  KV_DTYPES,
  type Cluster,
  type Engine,
  type EngineFacts,
  type EngineSettings,
  type ShareDefault,
  type SettingDefaults,
} from "./types.ts";

/**
 * One object per card size and release, so a slider move's plan carries the last one's (the worker sends it
 * once: src/app/planWire.ts) and the page's settings are not drawn again for an equal copy.
 */
const made = new Map<string, SettingDefaults>();

/** Each cluster's largest card, found once: a slider move re-plans one cluster, and a scan of 1,000 nodes each move was a sixth of its time. */
const largestByCluster = new WeakMap<Cluster, number>();

function largestOf(cluster: Cluster): number {
  let bytes = largestByCluster.get(cluster);
  if (bytes === undefined) {
    bytes = largestCardBytes(cluster);
    largestByCluster.set(cluster, bytes);
  }
  return bytes;
}

/** The engines' defaults on the cluster's largest card, for the settings' vLLM release. */
export function settingDefaultsOf(cluster: Cluster, settings: EngineSettings): SettingDefaults {
  const cardMemoryBytes = largestOf(cluster);
  const version = settings.vllmVersion;
  const key = `${cardMemoryBytes}|${version ?? ""}`;
  const known = made.get(key);
  if (known) return known;
  const engines = {} as Record<Engine, EngineFacts>;
  for (const model of ENGINE_ORDER) {
    engines[model.id] = {
      kvDtypes: KV_DTYPES.filter((kv) => model.kvDtypes.includes(kv)),
      defaults: engineDefaults(model.id, cardMemoryBytes, "", version),
    };
  }
  const defaults: SettingDefaults = {
    cardMemoryBytes,
    engines,
    vllmRelease: {
      choices: vllmReleaseChoices(),
      chosen: vllmReleaseChoiceOf(version),
      newest: VLLM_NEWEST_PROFILE.releases,
      assumption: assumedVllmRelease(version).assumption,
    },
  };
  if (made.size >= 64) made.clear();
  made.set(key, defaults);
  return defaults;
}

/**
 * The engine's own default for the share of an option's card it takes, whatever share the user gave: what the
 * command form greys in its empty field. llama.cpp takes no share of the card.
 */
export function shareDefaultOf(
  engine: Engine,
  cardPhysicalBytes: number,
  tensorParallel: number,
  settings: EngineSettings,
): ShareDefault | null {
  if (engine === "llamacpp") return null;
  const { gpuMemoryUtilization: _utilization, memFractionStatic: _fraction, ...others } = settings;
  const r = resolveSettings(engine, cardPhysicalBytes, others, tensorParallel);
  if (engine === "sglang") return { setting: "memFractionStatic", value: r.memFractionStatic };
  // vLLM: the named release's utilization, or each range's planned for; FreeToken: its --memory-ratio.
  return {
    setting: "gpuMemoryUtilization",
    value: engine === "vllm" ? vllmUtilizationDefaults(r) : r.gpuMemoryUtilization,
  };
}
