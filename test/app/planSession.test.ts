import { expect, test } from "vitest";
import { planSession, type PlanJob } from "../../src/app/planSession.ts";
import { defaultChoices } from "../../src/app/defaults.ts";
import { plan, readModel, withWorkload } from "../../src/plan/index.ts";
import { catalogSnapshot, EXAMPLE_REPO } from "../../scripts/lib/catalog.ts";

const snapshot = catalogSnapshot(EXAMPLE_REPO);
if (!snapshot) throw new Error("the example is not in the catalog");
const input = { repo: snapshot.repo, revision: snapshot.sha, ...readModel(snapshot) };
const { cluster, workload } = defaultChoices();
const at = (contextTokens: number, more: Partial<PlanJob> = {}): PlanJob => ({
  input,
  cluster,
  workload: { ...workload, contextTokens },
  ...more,
});

test("the plan at rest and the committed plan of the same context are one plan, made once", () => {
  const session = planSession();
  const atRest = session.run(at(20_000));
  // Released where it rested: the store's workload, a new object with the same fields.
  const committed = session.run(at(20_000));
  expect(committed).toBe(atRest);
  expect(committed).toEqual(plan(input, cluster, { ...workload, contextTokens: 20_000 }));
});

test("another context, cluster or setting is planned anew", () => {
  const session = planSession();
  const first = session.run(at(20_000));
  expect(session.run(at(20_001))).not.toBe(first);
  const other = { nodes: cluster.nodes.slice(0, 1) };
  const one = session.run(at(20_001, { cluster: other }));
  expect(one).not.toBe(first);
  const eager = { ...workload, contextTokens: 20_001, settings: { enforceEager: true } };
  expect(session.run({ input, cluster: other, workload: eager })).not.toBe(one);
});

test("the committed plan and the one where the thumb rested are both kept: going back to either makes nothing", () => {
  const session = planSession();
  const committed = session.run(at(8_192));
  const rested = session.run(at(30_000));
  expect(session.run(at(8_192))).toBe(committed);
  expect(session.run(at(30_000))).toBe(rested);
});

test("a slider move between rests is the kept plan's layouts re-evaluated at the thumb (withWorkload), not a new plan", () => {
  const session = planSession();
  const committed = session.run(at(8_192));
  const thumb = { ...workload, contextTokens: 60_000 };
  const moved = session.run(at(8_192, { slideTo: thumb }));
  expect(moved.workload).toBe(thumb);
  expect(moved).toEqual(withWorkload(committed, thumb));
  // The same layouts: their ids are the committed plan's, though fitting may re-rank them.
  expect(new Set(moved.options.map((o) => o.id))).toEqual(new Set(committed.options.map((o) => o.id)));
  expect(session.run(at(8_192))).toBe(committed);
});

test("between rests only the opened option's commands are made, as the job asks", () => {
  const session = planSession();
  const committed = session.run(at(8_192));
  const opened = committed.options[0]?.id ?? "";
  const thumb = { ...workload, contextTokens: 60_000 };
  const moved = session.run(at(8_192, { slideTo: thumb, commandsFor: [opened] }));
  expect(moved).toEqual(withWorkload(committed, thumb, { commandsFor: [opened] }));
  expect(moved.options.find((o) => o.id === opened)?.commands).toEqual(
    withWorkload(committed, thumb).options.find((o) => o.id === opened)?.commands,
  );
  expect(moved.options.filter((o) => o.commands.length > 0).map((o) => o.id)).toEqual([opened]);
});
