/**
 * Tests that draw the page run where there is no Worker (Node, happy-dom): the page then plans inline,
 * in the render, with the session given here. The built page plans only in its worker
 * (src/app/usePlanView.ts), so the engine is not in its first screen's JS.
 */
import { planSession } from "../../src/app/planSession.ts";
import { planInlineWith } from "../../src/app/usePlanView.ts";

planInlineWith(planSession);
