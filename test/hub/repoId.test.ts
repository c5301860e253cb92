import { describe, expect, test } from "vitest";
import { isCommitSha, parseRepoInput } from "../../src/hub/repoId.ts";

describe("parseRepoInput", () => {
  test.each([
    ["Qwen/Qwen3-8B", "Qwen/Qwen3-8B", null],
    ["  Qwen/Qwen3-8B  ", "Qwen/Qwen3-8B", null],
    ["Qwen/Qwen3-8B@main", "Qwen/Qwen3-8B", "main"],
    [
      "Qwen/Qwen2.5-Coder-32B-Instruct@b47205940b83b5b484577359f71ee7b88472df67",
      "Qwen/Qwen2.5-Coder-32B-Instruct",
      "b47205940b83b5b484577359f71ee7b88472df67",
    ],
    ["https://huggingface.co/Qwen/Qwen3-8B", "Qwen/Qwen3-8B", null],
    ["https://huggingface.co/Qwen/Qwen3-8B/", "Qwen/Qwen3-8B", null],
    ["huggingface.co/Qwen/Qwen3-8B", "Qwen/Qwen3-8B", null],
    ["https://hf.co/unsloth/DeepSeek-R1-GGUF", "unsloth/DeepSeek-R1-GGUF", null],
    ["https://huggingface.co/Qwen/Qwen3-8B/tree/v1.0", "Qwen/Qwen3-8B", "v1.0"],
    ["https://huggingface.co/Qwen/Qwen3-8B/tree/refs%2Fpr%2F12", "Qwen/Qwen3-8B", "refs/pr/12"],
    ["https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json", "Qwen/Qwen3-8B", "main"],
    [
      "https://huggingface.co/unsloth/DeepSeek-R1-GGUF/resolve/c1cd3da7ff0130842ea01b16f714c13181dd429e/DeepSeek-R1-Q2_K/x.gguf",
      "unsloth/DeepSeek-R1-GGUF",
      "c1cd3da7ff0130842ea01b16f714c13181dd429e",
    ],
    ["https://huggingface.co/Qwen/Qwen3-8B?library=transformers#model", "Qwen/Qwen3-8B", null],
    ["https://huggingface.co/Qwen/Qwen3-8B@dev", "Qwen/Qwen3-8B", "dev"],
  ])("%s", (text, repo, revision) => {
    expect(parseRepoInput(text)).toEqual({ repo, revision });
  });

  test.each([
    ["", "type a model's repo"],
    ["Qwen3-8B", "write the owner too"],
    ["a/b/c", "is not owner/name"],
    ["Qwen/Qwen3 8B", "has spaces"],
    ["Qwen/-bad", "is not a valid model name"],
    ["Qwen/bad--name", "is not a valid model name"],
    ["https://github.com/Qwen/Qwen3", "not a Hugging Face address"],
    ["https://huggingface.co/datasets/HuggingFaceFW/fineweb", "that is a dataset"],
    ["https://huggingface.co/spaces/owner/app", "that is a Space"],
    ["https://huggingface.co/Qwen", "names no model"],
    ["https://huggingface.co/Qwen/Qwen3-8B/tree", "add the revision"],
    ["Qwen/Qwen3-8B@", "is not a revision"],
  ])("%s is an error that says what is wrong", (text, words) => {
    const result = parseRepoInput(text);
    expect("error" in result && result.error).toContain(words);
  });

  test("a sha is a pinned revision, a branch is not", () => {
    expect(isCommitSha("b47205940b83b5b484577359f71ee7b88472df67")).toBe(true);
    expect(isCommitSha("main")).toBe(false);
    expect(isCommitSha(null)).toBe(false);
  });
});
