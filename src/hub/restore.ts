/**
 * What localStorage kept of react-query's cache, checked before the page
 * uses it: each read must be a sound snapshot at a commit. Apart from
 * persist.ts so zod loads only when something was kept (issue 19).
 */
import type { PersistedClient } from "@tanstack/react-query-persist-client";
import { z } from "zod";
import { snapshotSchema } from "./schemas.ts";

const persistedQuery = z.object({
  queryKey: z.tuple([z.literal("repo"), z.string(), z.string().regex(/^[0-9a-f]{40}$/)]),
  queryHash: z.string(),
  state: z.looseObject({ status: z.literal("success"), dataUpdatedAt: z.number(), data: snapshotSchema }),
});

/** What was stored, with every query that is not a sound snapshot read dropped (a hand-edited or older entry). */
export function restoreClient(text: string): PersistedClient {
  const empty: PersistedClient = { timestamp: 0, buster: "", clientState: { queries: [], mutations: [] } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return empty;
  }
  const outer = z
    .looseObject({
      timestamp: z.number(),
      buster: z.string(),
      clientState: z.looseObject({ queries: z.array(z.unknown()) }),
    })
    .safeParse(value);
  if (!outer.success) return empty;
  const queries = outer.data.clientState.queries.filter(
    (q) => persistedQuery.safeParse(q).success,
  ) as PersistedClient["clientState"]["queries"];
  return { timestamp: outer.data.timestamp, buster: outer.data.buster, clientState: { queries, mutations: [] } };
}
