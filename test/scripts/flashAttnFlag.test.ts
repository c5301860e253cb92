/** `npm run plan --flash-attn` (issue 14): llama.cpp's own -fa name and values, into the workload's settings. */
import { expect, test } from "vitest";
import { parsePlanArgs } from "../../scripts/lib/args.ts";

test.each([
  [["--flash-attn", "off"], "off"],
  [["-fa", "on"], "on"],
  [["--flash-attn=auto"], "auto"],
])("%j gives flashAttn %s", (flags, mode) => {
  expect(parsePlanArgs(["m/x", "--cluster", "c", ...flags]).workload.settings).toEqual({ flashAttn: mode });
});

test("a mode llama.cpp has not is refused, naming the three it has", () => {
  expect(() => parsePlanArgs(["m/x", "--cluster", "c", "--flash-attn", "1"])).toThrow(
    '--flash-attn takes one of on, off, auto, not "1"',
  );
});
