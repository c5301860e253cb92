/**
 * The plan worker's transport, run across the same structured clone a worker
 * posts through (inlinePlanPort: the worker's own replier, a task later): the
 * page's plan must be the engine's, and a drag's stale moves are never made.
 */
import { afterEach, expect, test, vi } from "vitest";
import {
  inlinePlanPort,
  planClient,
  type PlanAnswer,
  type PlanClient,
  type PlanPort,
} from "../../src/app/planClient.ts";
import type { PlanJob } from "../../src/app/planSession.ts";
import { defaultChoices } from "../../src/app/defaults.ts";
import { checkTensorSplit, plan, readModel, withWorkload, type Cluster, type HandSplit } from "../../src/plan/index.ts";
import { LLAMA70_Q4KM, RTX4090_AND_3090 } from "../plan/splitFixture.ts";
import { MANY_CLASSES, twoNodesEach } from "./speedCluster.ts";
import { catalogSnapshot } from "../../scripts/lib/catalog.ts";

// Issue 13's case, as e2e/speed.spec.ts drags it: DeepSeek-R1's 13 GGUF artifacts on 17 card classes, ~230 options.
const snapshot = catalogSnapshot("unsloth/DeepSeek-R1-GGUF");
if (!snapshot) throw new Error("DeepSeek-R1-GGUF is not in the catalog");
const input = { repo: snapshot.repo, revision: snapshot.sha, ...readModel(snapshot) };
const cluster = twoNodesEach(MANY_CLASSES);
const workload = { ...defaultChoices().workload, contextTokens: 4096 };
const committed: PlanJob = { input, cluster, workload };
const slide = (contextTokens: number): PlanJob => ({ ...committed, slideTo: { ...workload, contextTokens } });

/** Each answer as it is delivered, drawn at once (as the page says once it has drawn it) unless told not to. */
function collect(
  client: PlanClient,
  draw = true,
): { answers: PlanAnswer[]; deliver: (a: PlanAnswer) => void; next: () => Promise<PlanAnswer> } {
  const answers: PlanAnswer[] = [];
  const waiters: ((a: PlanAnswer) => void)[] = [];
  return {
    answers,
    deliver: (a) => {
      answers.push(a);
      waiters.shift()?.(a);
      if (draw) client.drawn();
    },
    next: () => new Promise((done) => waiters.push(done)),
  };
}

function planned(a: PlanAnswer | undefined) {
  if (!a || !("plan" in a)) throw new Error(`no plan: ${a && "error" in a ? a.error : "no answer"}`);
  return a.plan;
}

afterEach(() => vi.restoreAllMocks());

test("a plan made across the worker's messages is the engine's own, and holds the page's objects", async () => {
  const client = planClient(inlinePlanPort);
  const got = collect(client);
  client.request(committed, got.deliver);
  const answer = planned(await got.next());
  const direct = plan(input, cluster, workload);
  expect(answer.options.length).toBeGreaterThan(100);
  expect(answer).toEqual(direct);
  // The page's own objects, not clones: the command form and the views key on them.
  expect(answer.workload).toBe(workload);
  expect(answer.shape).toBe(input.shape);
  expect(answer.cluster).toBe(cluster);

  // A slider move: the same refusals (not sent again), the options the engine's withWorkload gives.
  client.request(slide(32_768), got.deliver);
  const moved = planned(await got.next());
  expect(moved.refused).toBe(answer.refused);
  // The engines' defaults too (the engine makes one object per card and release): the page's settings keep theirs.
  expect(moved.settingDefaults).toBe(answer.settingDefaults);
  expect(answer.settingDefaults.engines.vllm.defaults["gpuMemoryUtilization"]?.value).toBe(0.92);
  expect(moved).toEqual(withWorkload(direct, { ...workload, contextTokens: 32_768 }));

  // Mid-drag the page asks for the opened option's commands alone, and the worker makes those alone.
  const opened = direct.options[3]?.id ?? "";
  client.request({ ...slide(16_384), commandsFor: [opened] }, got.deliver);
  const openedOnly = planned(await got.next());
  expect(openedOnly).toEqual(withWorkload(direct, { ...workload, contextTokens: 16_384 }, { commandsFor: [opened] }));
  expect(openedOnly.options.filter((o) => o.commands.length > 0).map((o) => o.id)).toEqual([opened]);
  // The command form's facts come with the commands: the opened option's alone.
  expect(openedOnly.options.filter((o) => o.shortfall !== undefined).map((o) => o.id)).toEqual([opened]);

  // Another release named: the worker sends the engines' defaults for it, and the page shows those.
  const older = { ...workload, settings: { vllmVersion: "0.19" } };
  client.request({ input, cluster, workload: older }, got.deliver);
  const named = planned(await got.next());
  expect(named.settingDefaults).not.toBe(answer.settingDefaults);
  // vLLM's CacheConfig.gpu_memory_utilization through 0.20 (src/plan/engines/vllm/settings.ts).
  expect(named.settingDefaults.engines.vllm.defaults["gpuMemoryUtilization"]?.value).toBe(0.9);
  expect(named.settingDefaults.vllmRelease.chosen).toBe("0.19");
});

test("latest wins: of the moves asked while one is being made, only the newest is made next", async () => {
  const client = planClient(inlinePlanPort);
  const got = collect(client);
  client.request(committed, got.deliver);
  const contexts = [8_000, 9_000, 10_000, 11_000, 12_000, 13_000];
  for (const tokens of contexts) client.request(slide(tokens), got.deliver);
  await got.next();
  const last = planned(await got.next());
  // Nothing else comes: the four moves between were dropped, never posted.
  await new Promise((done) => setTimeout(done, 50));
  expect(got.answers.map((a) => a.job.slideTo?.contextTokens ?? a.job.workload.contextTokens)).toEqual([4096, 13_000]);
  expect(last).toEqual(withWorkload(plan(input, cluster, workload), { ...workload, contextTokens: 13_000 }));
});

test("paced by the page: nothing more is asked of the worker until the page has drawn the last answer", async () => {
  let posted = 0;
  const counted = (): PlanPort => {
    const port = inlinePlanPort();
    return { post: (r) => (posted++, port.post(r)), listen: (on) => port.listen(on) };
  };
  const client = planClient(counted);
  const got = collect(client, false);
  client.request(committed, got.deliver);
  await got.next();
  client.request(slide(8_000), got.deliver);
  client.request(slide(9_000), got.deliver);
  await new Promise((done) => setTimeout(done, 50));
  expect(posted).toBe(1);
  client.drawn();
  expect(planned(await got.next()).workload.contextTokens).toBe(9_000);
  expect(posted).toBe(2);
});

test("a worker that fails to start: the job asked is made on the page's thread instead, and the next ones too", async () => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  const broken = (): PlanPort => {
    let fail: (why: string) => void = () => undefined;
    return {
      post: () => setTimeout(() => fail("a CSP without worker-src"), 0),
      listen: (on) => {
        fail = on.fail;
      },
    };
  };
  const client = planClient(broken);
  // The broken worker gives way to the page's thread, which answers the job asked.
  const got = collect(client);
  client.request(committed, got.deliver);
  expect(planned(await got.next())).toEqual(plan(input, cluster, workload));
  // The page's thread answers from here on, and says so.
  expect(warn).toHaveBeenCalledWith(expect.stringContaining("a CSP without worker-src"));
  client.request(slide(20_000), got.deliver);
  expect(planned(await got.next()).workload.contextTokens).toBe(20_000);
});

test("a job the engine throws on comes back as its message, and the worker answers the next job", async () => {
  const client = planClient(inlinePlanPort);
  const got = collect(client);
  // The engine guards every input the page can give it; a cluster with no node list stands in for a bug in it.
  const broken = { nodes: null } as unknown as Cluster;
  client.request({ ...committed, cluster: broken }, got.deliver);
  const answer = await got.next();
  expect("error" in answer ? answer.error : "a plan").toBe("cluster.nodes is not iterable");
  client.request(committed, got.deliver);
  expect(planned(await got.next())).toEqual(plan(input, cluster, workload));
});

test("the command form's --tensor-split is checked by the worker's engine, across the clone, as the engine checks it", async () => {
  // Llama-3.3-70B Q4_K_M on an RTX 4090 and an RTX 3090: llama.cpp splits it.
  const split: PlanJob = { input: LLAMA70_Q4KM, cluster: RTX4090_AND_3090, workload };
  const client = planClient(inlinePlanPort);
  const got = collect(client);
  client.request(split, got.deliver);
  const made = planned(await got.next());
  const option = made.options.find((o) => o.placement.tensorSplit !== undefined);
  if (!option) throw new Error("no --tensor-split option for Llama-3.3-70B on a 4090 and a 3090");
  const ask = (text: string) =>
    new Promise<HandSplit>((answer) => client.checkSplit({ workload: made.workload, option, text }, answer));
  // All on the 3090 and none on the 4090 cannot hold 42.5 GB on one 24 GB card; an even split does, as the engine says.
  for (const text of ["0,1", "1,1", "one,two"]) expect(await ask(text)).toEqual(checkTensorSplit(made, option, text));
  expect((await ask("0,1")).ok).toBe(false);
  expect(await ask("one,two")).toMatchObject({ ok: false });
});
