/**
 * Reading config.json fields as the engines read them, and the ModelError that names the field at
 * fault: a silent fallback here is an out-of-memory twenty minutes into a load.
 */

/** A config.json that cannot be read, with the field at fault and what to do. */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = "ModelError";
  }
}

export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The first of `names` that holds a finite number (null and absent are skipped). */
export function firstNumber(cfg: Json, names: readonly string[]): { name: string; value: number } | undefined {
  for (const name of names) {
    const value = cfg[name];
    if (typeof value === "number" && Number.isFinite(value)) return { name, value };
  }
  return undefined;
}

export function positiveInt(cfg: Json, name: string, why: string): number {
  const value = cfg[name];
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    const got = value === undefined ? "it is missing" : `it is ${JSON.stringify(value)}`;
    throw new ModelError(
      `config.json field ${name} must be a positive whole number, but ${got}; ${why}. ` +
        `Check that this is the model's own config.json (for a picture model, its text_config).`,
      name,
    );
  }
  return value;
}

/** Several required positive whole numbers at once, each named in its error. */
export function positiveInts<K extends string>(cfg: Json, names: readonly K[], why: string): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const name of names) out[name] = positiveInt(cfg, name, why);
  return out;
}

export function optionalInt(cfg: Json, name: string): number | undefined {
  const value = cfg[name];
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

export function stringList(cfg: Json, name: string): string[] | undefined {
  const value = cfg[name];
  if (!Array.isArray(value)) return undefined;
  if (!value.every((v) => typeof v === "string")) {
    throw new ModelError(`config.json field ${name} must be a list of strings; fix or remove it.`, name);
  }
  return value as string[];
}

export function numberList(cfg: Json, name: string): number[] | undefined {
  const value = cfg[name];
  if (!Array.isArray(value)) return undefined;
  if (!value.every((v) => typeof v === "number" && Number.isInteger(v))) {
    throw new ModelError(`config.json field ${name} must be a list of whole numbers; fix or remove it.`, name);
  }
  return value as number[];
}
