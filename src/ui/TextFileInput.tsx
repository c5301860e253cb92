/**
 * A file input that reads a text file, refuses one too large to be what was
 * asked for, and says why in words. The inventory import, manual mode and
 * the log calibration all take "paste it, or open the file", and a
 * multi-gigabyte pick (a model shard instead of its config) must not freeze
 * the tab reading it.
 */
import { useId, useState } from "react";

export type TextFileReading = { text: string; fileName: string } | { error: string };

/** Reads a picked or dropped file as text, or says why not. */
export async function readTextFile(file: File, maxBytes: number, whatItShouldBe: string): Promise<TextFileReading> {
  if (file.size > maxBytes) {
    return {
      error: `${file.name} is ${(file.size / 1e6).toFixed(1)} MB: pick ${whatItShouldBe}, which is far smaller`,
    };
  }
  try {
    return { text: await file.text(), fileName: file.name };
  } catch {
    return { error: `Could not read ${file.name}: pick ${whatItShouldBe}, or paste its text` };
  }
}

interface TextFileInputProps {
  label: string;
  accept: string;
  maxBytes: number;
  /** Said in the error for a file too large or unreadable: "the model's config.json". */
  whatItShouldBe: string;
  onText: (text: string, fileName: string) => void;
}

export function TextFileInput({ label, accept, maxBytes, whatItShouldBe, onText }: TextFileInputProps) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);

  async function open(file: File | undefined): Promise<void> {
    if (!file) return;
    const reading = await readTextFile(file, maxBytes, whatItShouldBe);
    if ("error" in reading) {
      setError(reading.error);
      return;
    }
    setError(null);
    onText(reading.text, reading.fileName);
  }

  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="file" accept={accept} onChange={(e) => void open(e.target.files?.[0])} />
      {error ? (
        <span className="error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
