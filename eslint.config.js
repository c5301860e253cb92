import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

/** From src/<folder>/ (and one level deeper): the engine through src/plan/index.ts only. */
const THROUGH_THE_BARREL_IN_SRC = {
  group: ["../plan/*", "!../plan/index.ts", "../plan/*/**", "../../plan/*", "!../../plan/index.ts", "../../plan/*/**"],
  message: "Import the engine from src/plan/index.ts, its one barrel.",
};

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
  // The engine's boundary (STYLE habit 1): src/plan imports nothing outside
  // src/plan — no React, no fetch wrappers, no store, no library. A rule rather
  // than a convention, so the next engineer cannot cross it by accident. One
  // block per folder depth, as a pattern matches the import's text.
  ...[
    ["src/plan/*.ts", "../*"],
    ["src/plan/*/*.ts", "../../*"],
    ["src/plan/*/*/*.ts", "../../../*"],
    ["src/plan/*/*/*/*.ts", "../../../../*"],
  ].map(([files, outside]) => ({
    files: [files],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: [outside], message: "src/plan is pure: import only from src/plan." },
            {
              group: ["react", "react-dom", "@tanstack/*", "@huggingface/*", "zod", "recharts", "yaml", "fflate"],
              message: "src/plan is pure: no libraries.",
            },
          ],
        },
      ],
      "no-restricted-globals": ["error", "fetch", "window", "document", "localStorage", "sessionStorage", "Date"],
    },
  })),
  {
    // Outside code (the page, the Hub reader, the terminal, the tests) reaches the engine through its barrel only.
    files: ["src/**/*.ts", "src/**/*.tsx"],
    ignores: ["src/plan/**", "src/hub/**", "src/cluster/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [THROUGH_THE_BARREL_IN_SRC] }] },
  },
  {
    files: ["scripts/**/*.ts", "test/**/*.ts", "test/**/*.tsx", "bench/**/*.ts", "e2e/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/src/plan/*", "!**/src/plan/index.ts", "**/src/plan/*/**"],
              message: "Import the engine from src/plan/index.ts, its one barrel.",
            },
          ],
        },
      ],
    },
  },
  {
    // The Hub reader and the cluster model are below the page: they import no store, view or app code.
    files: ["src/hub/**/*.ts", "src/cluster/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            THROUGH_THE_BARREL_IN_SRC,
            {
              group: ["**/ui/*", "**/state/*", "**/app/*"],
              message: "src/hub and src/cluster sit below the page: no ui, state or app imports.",
            },
          ],
        },
      ],
    },
  },
  {
    // Deployments are pure too (issue 16): the engine only through its barrel, no page, no network.
    files: ["src/deploy/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^\\.\\./(?!plan/index\\.ts$)",
              message: "src/deploy reads the engine only through src/plan/index.ts.",
            },
            {
              group: ["react", "react-dom", "@tanstack/*", "@huggingface/*", "recharts"],
              message: "src/deploy is pure: no page or network libraries.",
            },
          ],
        },
      ],
      "no-restricted-globals": ["error", "fetch", "window", "document", "localStorage", "sessionStorage", "Date"],
    },
  },
);
