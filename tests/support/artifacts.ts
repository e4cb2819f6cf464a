/**
 * Test support: Artifacts written straight through the store, for suites that need many of them and would
 * only slow down by driving one Run per Artifact.
 *
 * @module
 */

import type { Database } from "../../src/store/database.ts";
import { ArtifactStore } from "../../src/store/artifact_store.ts";

/**
 * Commits `count` Artifacts (with their Records) in one transaction: `art_<i>` at stage `stage_<i>`, in flow
 * `odd` or `even` by the parity of `i`, created one second apart.
 */
export async function seedOddEvenArtifacts(db: Database, count: number): Promise<ArtifactStore> {
  const store = new ArtifactStore(db);
  await db.transaction(async () => {
    for (let i = 0; i < count; i++) {
      await store.commit({
        artifactId: `art_${i}`,
        recordId: `rec_${i}`,
        runId: "run_seed",
        flowName: i % 2 ? "odd" : "even",
        stageName: `stage_${i}`,
        data: { i },
        answers: [],
        at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      });
    }
  });
  return store;
}
