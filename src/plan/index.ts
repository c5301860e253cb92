/**
 * The engine's one barrel (STYLE habit 13): everything the Hub reader, the
 * cluster panel, the page and the terminal commands take from src/plan.
 */
export type * from "./types.ts";
export { plan, evaluate, enumerate, bitsOf, tensorParallelProblem, type Plan, type PlanInput } from "./options.ts";
export { withWorkload, largestFitting } from "./context.ts";
export { rank, compareOptions, quality } from "./rank.ts";
export { optionJson, refusalJson } from "./json.ts";
export { DEFAULT_WORKLOAD, engineDefaults, resolveSettings, vllmUtilizationDefaults, kvDtypeAllowed, type SettingDefault, type ResolvedSettings } from "./settings.ts";
export { kvBytesPerToken, kvElementBytes, kvHeadsPerCard } from "./kv.ts";
export { GIB, cudaTotalBytes } from "./memory.ts";
export { readModel } from "./model.ts";
export { shapeFromConfig, kvCacheLabel, ModelError } from "./shape.ts";
export { shapeFromGguf } from "./gguf.ts";
export { artifactsOf } from "./artifacts.ts";
export { ggufQuantOf, quantFromName, nominalBitsOf } from "./quant.ts";
export { CARDS, cardOf, cardMemoryBytes, isMigClass, largestCardBytes, type Card, type MigProfile } from "./cards.ts";
export { commandsFor, splitArgv, shellWord, type CommandContext, type CommandOption } from "./commands.ts";
export { accuracyRows, predictCase, errorSummary, type AccuracyRow, type AccuracyMetric, type CalibrationRecord, type CalibrationModel } from "./accuracy.ts";
export { parseStartupLog, type StartupLogReading, type LogFigures, type LogEngine } from "./logparse.ts";
