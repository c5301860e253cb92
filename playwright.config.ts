import { defineConfig } from "@playwright/test";
import { existsSync } from "node:fs";

/**
 * Browser tests run in real Chromium against the built static site
 * (`vite preview` serves dist/). Debian's chromium is used where it exists
 * (CI installs it), or the one CHROMIUM_PATH names; elsewhere Playwright's own
 * browser, if `npx playwright install chromium` has fetched it.
 */
function systemChromium(): string | undefined {
  const candidates = [process.env["CHROMIUM_PATH"], "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  const found = candidates.find((p): p is string => typeof p === "string" && p !== "" && existsSync(p));
  if (!found) {
    console.warn(
      "modelplan: no system Chromium found (set CHROMIUM_PATH, or apt-get install chromium); " +
        "falling back to Playwright's own browser. If that is missing too, run: npx playwright install chromium",
    );
  }
  return found;
}

const executablePath = systemChromium();

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  use: {
    baseURL: "http://127.0.0.1:4173",
    trace: "retain-on-failure",
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-quic",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: "npx vite preview --host 127.0.0.1 --port 4173 --strictPort",
    url: "http://127.0.0.1:4173",
    reuseExistingServer: !process.env["CI"],
    timeout: 60_000,
  },
});
