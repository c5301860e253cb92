import { expect, test } from "vitest";
import { planOnce } from "../../src/app/planOnce.ts";
import { defaultChoices } from "../../src/app/defaults.ts";
import { plan, readModel } from "../../src/plan/index.ts";
import { catalogSnapshot, EXAMPLE_REPO } from "../../scripts/lib/catalog.ts";

const snapshot = catalogSnapshot(EXAMPLE_REPO);
if (!snapshot) throw new Error("the example is not in the catalog");
const model = readModel(snapshot);
const { cluster, workload } = defaultChoices();

test("the plan at rest and the committed plan of the same context are one plan, made once", () => {
  const atRest = planOnce(snapshot, model, cluster, { ...workload, contextTokens: 20_000 });
  // Released where it rested: the store's workload, a new object with the same fields.
  const committed = planOnce(snapshot, model, cluster, { ...workload, contextTokens: 20_000 });
  expect(committed).toBe(atRest);
  expect(committed).toEqual(
    plan({ repo: snapshot.repo, revision: snapshot.sha, ...model }, cluster, { ...workload, contextTokens: 20_000 }),
  );
});

test("another context, cluster or setting is planned anew", () => {
  const first = planOnce(snapshot, model, cluster, { ...workload, contextTokens: 20_000 });
  expect(planOnce(snapshot, model, cluster, { ...workload, contextTokens: 20_001 })).not.toBe(first);
  const other = { nodes: cluster.nodes.slice(0, 1) };
  const one = planOnce(snapshot, model, other, { ...workload, contextTokens: 20_001 });
  expect(one).not.toBe(first);
  const eager = { ...workload, contextTokens: 20_001, settings: { enforceEager: true } };
  expect(planOnce(snapshot, model, other, eager)).not.toBe(one);
});
