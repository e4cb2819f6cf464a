/**
 * `trust_project`: the person's trust of the project's content (the model entries of its weft.json), as
 * `weft trust` shows it. Offered on the internal endpoints only, never to an IDE's agent: what a repository
 * asks weft to send or spend is the person's to allow. Granting names the digest the person was shown, so
 * content that changed in between is refused (`CONFLICT`) rather than trusted unseen.
 *
 * @module
 */

import { z } from "../../lib/zod.ts";
import { defineTool } from "../tool.ts";

const TrustView = z.object({
  state: z.enum(["trusted", "not_trusted", "nothing_to_trust"]),
  digest: z.string(),
  content: z.looseObject({}),
  roles: z.array(z.object({
    role: z.string(),
    provider: z.string(),
    model: z.string(),
    baseURL: z.string(),
    apiKeyEnv: z.string().optional(),
  })),
  problem: z.string().optional(),
});

/** The trust of the project as the service's files say now. */
export type ProjectTrustView = z.infer<typeof TrustView>;

/** What the tool asks of the service: the current review, and a grant bound to a digest. */
export interface ProjectTrustPort {
  review(): ProjectTrustView;
  grant(digest: string): Promise<ProjectTrustView>;
}

/** `trust_project` (internal endpoints only). */
export const trustProjectTool = defineTool({
  name: "trust_project",
  title: "Trust the project",
  description: "Show what this project's weft.json needs the person to trust, with its digest; with " +
    "digest, trust exactly that (CONFLICT if it changed). Person only.",
  input: z.strictObject({ digest: z.string().max(100).optional() }),
  output: z.object({ trust: TrustView }),
  effects: { readOnly: false, destructive: false, idempotent: true },
  run: async ({ digest }, { service }) => ({
    trust: digest === undefined ? service.projectTrust.review() : await service.projectTrust.grant(digest),
  }),
});
