/**
 * The option list as a file (issue 17): JSON in the terminal's own shape (`npm run plan -- --json`'s
 * options, src/report/json.ts optionJson), and the same rows as CSV (RFC 4180: a field with a comma,
 * quote or line break is quoted, its quotes doubled; lists and objects as JSON text).
 */
import type { PlanOption } from "../plan/index.ts";
import { optionJson } from "../report/json.ts";

export function planJsonText(options: readonly PlanOption[]): string {
  return `${JSON.stringify(options.map(optionJson), null, 2)}\n`;
}

export function planCsvText(options: readonly PlanOption[]): string {
  const rows = options.map(optionJson);
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const lines = [
    columns.map(csvField).join(","),
    ...rows.map((r) => columns.map((c) => csvField(cell(r[c]))).join(",")),
  ];
  return `${lines.join("\r\n")}\r\n`;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value as string | number | boolean);
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
