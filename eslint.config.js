import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "playwright-report/", "test-results/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["src/**/*.tsx", "src/**/*.ts"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    // The engine's boundary (STYLE habit 1): src/plan imports nothing outside
    // src/plan — no React, no fetch wrappers, no store. A rule rather than a
    // convention, so the next engineer cannot cross it by accident.
    files: ["src/plan/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", {
        patterns: [
          { group: ["../*", "!./*"], message: "src/plan is pure: import only from src/plan." },
          { group: ["react", "react-dom", "@tanstack/*", "@huggingface/*", "zod", "recharts", "yaml", "fflate"], message: "src/plan is pure: no libraries." },
        ],
      }],
      "no-restricted-globals": ["error", "fetch", "window", "document", "localStorage", "sessionStorage", "Date"],
    },
  },
  {
    // Deployments are pure too (issue 16): the engine only through its barrel, no page, no network.
    files: ["src/deploy/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", {
        patterns: [
          { regex: "^\\.\\./(?!plan/index\\.ts$)", message: "src/deploy reads the engine only through src/plan/index.ts." },
          { group: ["react", "react-dom", "@tanstack/*", "@huggingface/*", "recharts"], message: "src/deploy is pure: no page or network libraries." },
        ],
      }],
      "no-restricted-globals": ["error", "fetch", "window", "document", "localStorage", "sessionStorage", "Date"],
    },
  },
);
