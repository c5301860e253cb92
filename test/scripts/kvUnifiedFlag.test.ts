/** `npm run plan --kv-unified` (issue 14): llama-server's own name and short form, into the workload's settings. */
import { expect, test } from "vitest";
import { parsePlanArgs } from "../../scripts/lib/args.ts";

test.each([[["--kv-unified"]], [["-kvu"]]])("%j gives kvUnified true", (flags) => {
  expect(parsePlanArgs(["m/x", "--cluster", "c", ...flags]).workload.settings).toEqual({ kvUnified: true });
});

test("left out, the setting is absent (llama-server's default with --parallel: a cache per slot)", () => {
  expect(parsePlanArgs(["m/x", "--cluster", "c", "--parallel", "4"]).workload.settings).toEqual({ parallel: 4 });
});

test.each([["--kv-unified=off"], ["--enforce-eager=false"]])("%s is refused in words, not read as on", (arg) => {
  const flag = arg.slice(0, arg.indexOf("="));
  expect(() => parsePlanArgs(["m/x", "--cluster", "c", arg])).toThrow(
    `${flag} takes no value (got "${arg.slice(arg.indexOf("=") + 1)}"): give ${flag} to turn it on, leave it out for off`,
  );
});
