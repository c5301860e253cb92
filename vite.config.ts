import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

// base "./" makes every asset path relative, so dist/ works from any subpath
// and from a plain static server (issue: static hosting).
export default defineConfig({
  base: "./",
  plugins: [react()],
  build: {
    target: "es2022",
    sourcemap: false,
    // Rollup's 500 kB (minified, not gzipped) warning is not our budget: the
    // budget is 250 KB gzipped for the initial JS, held by e2e/speed.spec.ts
    // against the built files. A warning that is always printed teaches
    // people to ignore warnings.
    chunkSizeWarningLimit: 1000,
  },
  preview: {
    port: 4173,
    strictPort: false,
  },
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    benchmark: { include: ["bench/**/*.bench.ts"] },
    environment: "node",
    // Property tests run 10,000 cases each; on a loaded 2-core CI machine
    // that can take more than vitest's default 5 s. Speed is measured by
    // `npm run bench`, not by test timeouts.
    testTimeout: 60_000,
  },
});
