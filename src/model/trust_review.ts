/**
 * What `weft trust` and Studio's `trust_project` show and do: the project's content that needs trust, each
 * model role as the person reviews it (provider, URL, key variable, model), its digest and whether it is
 * trusted; a grant that names the digest it was shown, so that content changed in between is refused
 * (`CONFLICT`) instead of trusted unseen; and revoking.
 *
 * @module
 */
import { conflict, invalid, WeftError } from "../errors.ts";
import { ModelConfig } from "./config.ts";
import { writeTrust } from "./project_trust.ts";
import { type TrustedContent, trustedRoles, type TrustedRoleView } from "./trusted_content.ts";

/** The project's trust as a person reviews it. No path of the machine: Studio shows it too. */
export interface TrustReview {
  /** `nothing_to_trust`: the project's files ask for nothing that needs trust (or weft.json is broken). */
  state: "trusted" | "not_trusted" | "nothing_to_trust";
  /** The digest of exactly the content shown; a grant must name it. */
  digest: string;
  content: TrustedContent;
  roles: TrustedRoleView[];
  /** Why weft.json's content cannot be trusted as it is (it does not parse), when so. */
  problem?: string;
}

type Env = (name: string) => string | undefined;

/** The trust of the project at `projectDir` as the files and the record say now. */
export function reviewTrust(projectDir: string, env?: Env): TrustReview {
  return reviewOf(ModelConfig.read(projectDir, env));
}

/** The review of a configuration already read. */
export function reviewOf(config: ModelConfig): TrustReview {
  const { trust, project } = config;
  return {
    state: trust.empty ? "nothing_to_trust" : trust.trusted ? "trusted" : "not_trusted",
    digest: trust.digest,
    content: trust.content,
    roles: trustedRoles(trust.content),
    ...(project.kind === "invalid" ? { problem: project.problem } : {}),
  };
}

/**
 * Trusts the project's content if its digest is still `digest` (the one the person was shown); `CONFLICT`
 * when it changed meanwhile, `INVALID_REQUEST` when there is nothing to trust.
 */
export async function grantTrust(projectDir: string, digest: string, env?: Env): Promise<TrustReview> {
  const config = ModelConfig.read(projectDir, env);
  const review = reviewOf(config);
  if (review.problem) throw invalid(`weft.json cannot be trusted as it is: ${review.problem}`);
  if (review.state === "nothing_to_trust") throw invalid("this project asks for nothing that needs trust");
  if (review.digest !== digest) {
    throw conflict(
      `the project's content changed since it was shown (now ${review.digest}): review it again and trust ` +
        "what you see",
    );
  }
  await write(config, digest);
  return reviewOf(ModelConfig.read(projectDir, env));
}

/** Forgets the person's trust of the project, whatever it trusted. */
export async function revokeTrust(projectDir: string, env?: Env): Promise<TrustReview> {
  const config = ModelConfig.read(projectDir, env);
  if (
    config.trust.record.kind === "ok" && config.trust.key && config.trust.key in config.trust.record.projects
  ) {
    await write(config, null);
  }
  return reviewOf(ModelConfig.read(projectDir, env));
}

async function write(config: ModelConfig, digest: string | null): Promise<void> {
  const { trustFile } = config.locations;
  const { key } = config.trust;
  if (!trustFile || !key) {
    throw new WeftError(
      "CONFIGURATION_REQUIRED",
      "weft keeps trust in your user config folder, and none is known here: set HOME",
    );
  }
  try {
    await writeTrust(trustFile, key, digest);
  } catch (error) {
    // The OS's message names the path; the kind of failure is enough to act on.
    throw new WeftError(
      "STORAGE_ERROR",
      `the trust record in your user config folder could not be written (${(error as Error).name})`,
    );
  }
}
