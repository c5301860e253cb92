/**
 * The workload's lengths against the context: a request of more input + output tokens than the context the
 * commands start is refused by the engine (vLLM's HTTP 400: "This model's maximum context length is 4096 tokens and
 * your request has 2778 input tokens (8000 > 4096 - 2778)", quoted in andrewcho-dev/opsconductor-ng
 * vLLM_transition/TOKEN_LIMIT_FIX.md), so the controls say so at the fields.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { ContextControls } from "../../src/ui/ContextControls.tsx";
import { contextFit, DEFAULT_WORKLOAD, shapeFromConfig, type Workload } from "../../src/plan/index.ts";
import { loadConfig } from "../plan/fixture.ts";

// Qwen/Qwen3-8B's config.json (huggingface.co/Qwen/Qwen3-8B): max_position_embeddings 40,960; its model card's YaRN
// stretch is factor 4 over 32,768 native positions. The controls ask the engine where the commands start.
const QWEN3_8B = shapeFromConfig(loadConfig("Qwen__Qwen3-8B"), null);

function markup(workload: Workload, yarn = false): string {
  const rope = yarn ? "yarn" : undefined;
  const fit = contextFit(QWEN3_8B, workload.contextTokens, rope);
  return renderToStaticMarkup(
    <ContextControls
      workload={workload}
      slidingContextTokens={null}
      maxContextTokens={fit.shape.maxContextTokens}
      plannedContextOf={(t) => contextFit(QWEN3_8B, t, rope).contextTokens}
      pastLimit={null}
      ropeScaling={yarn}
      onRopeScaling={() => undefined}
      onSlide={() => undefined}
      onSlideEnd={() => undefined}
      onChange={() => undefined}
    />,
  );
}

test("8,192 in + 1,024 out on an 8,192 context: the controls say the commands refuse it", () => {
  const html = markup({ ...DEFAULT_WORKLOAD, contextTokens: 8192, inputTokens: 8192, outputTokens: 1024 });
  expect(html).toContain("Input + output tokens (9,216) are more than the context (8,192)");
  expect(html).toContain("Raise the context to 9,216 or more");
});

test("the defaults (1,024 + 256) on an 8,192 context, and a request that just fits, say nothing", () => {
  expect(markup({ ...DEFAULT_WORKLOAD, contextTokens: 8192 })).not.toContain("request-past-context");
  expect(markup({ ...DEFAULT_WORKLOAD, contextTokens: 8192, inputTokens: 8000, outputTokens: 192 })).not.toContain(
    "request-past-context",
  );
});

test("past the model's own limit the plan is made at the limit: the request is held to that", () => {
  // Typed 65,536 on Qwen3-8B: the commands start 40,960 (contextFit), which a 50,000-token request outruns.
  const html = markup({ ...DEFAULT_WORKLOAD, contextTokens: 65_536, inputTokens: 50_000, outputTokens: 256 });
  expect(html).toContain("are more than the context (40,960)");
});

test("stretched by YaRN, the commands start the asked context, which the same request fits", () => {
  const request = { ...DEFAULT_WORKLOAD, contextTokens: 65_536, inputTokens: 50_000, outputTokens: 256 };
  expect(markup(request, true)).not.toContain("request-past-context");
  expect(markup({ ...request, inputTokens: 70_000 }, true)).toContain("are more than the context (65,536)");
});
