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
  },
  preview: {
    port: 4173,
    strictPort: false,
  },
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    benchmark: { include: ["bench/**/*.bench.ts"] },
    environment: "node",
  },
});
