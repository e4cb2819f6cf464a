/**
 * The content of a project that needs the person's trust: everything in the project's files that can send
 * data off the machine, spend money or run code. Today that is the model entries of the project's
 * `weft.json` (each names a server that receives the project's files and, with a key, spends the person's
 * money). This module is the one place that says what the content is and how it is digested; the project
 * trust record (`project_trust.ts`) binds a digest from here to the project's real path.
 *
 * More kinds join as further members of {@linkcode TrustedContent} (the `commands` of `weft.json`, the
 * command steps of project workflows). An empty member is left out of the canonical form, so adding a kind
 * changes the digest only of projects that have such content: what they ask for is new, and is asked again.
 *
 * @module
 */
import { canonicalJson } from "../lib/canonical_json.ts";
import { sha256Hex } from "../engine/workflow/digest.ts";
import { baseUrlOf, type ModelEntry } from "./config.ts";

/** What the person trusts, in its canonical shape (members with nothing in them are absent). */
export type TrustedContent = {
  /** The model entries of the project's `weft.json`, by role, each taken whole. */
  models?: Record<string, ModelEntry>;
};

/** A project's content with its digest; `empty` when there is nothing to trust. */
export interface DigestedContent {
  content: TrustedContent;
  /** `sha256:` and the hex SHA-256 of the canonical JSON of `content`. */
  digest: string;
  empty: boolean;
}

/** One model entry as `weft trust` and Studio show it before asking. */
export interface TrustedRoleView {
  role: string;
  provider: string;
  model: string;
  /** The API root the entry talks to (its own, or the provider's hosted one). */
  baseURL: string;
  /** The name of the variable whose value would be sent as the key; never the value. */
  apiKeyEnv?: string;
}

/** The content of a project whose `weft.json` names `models` (what exists today), with its digest. */
export function trustedContentOf(parts: { models: Record<string, ModelEntry> }): DigestedContent {
  const content: TrustedContent = {};
  if (Object.keys(parts.models).length) content.models = parts.models;
  return {
    content,
    digest: `sha256:${sha256Hex(canonicalJson(content))}`,
    empty: Object.keys(content).length === 0,
  };
}

/** Each role of `content` as a person reviews it: provider, URL, key variable, model. */
export function trustedRoles(content: TrustedContent): TrustedRoleView[] {
  return Object.entries(content.models ?? {}).map(([role, entry]) => ({
    role,
    provider: entry.provider,
    model: entry.model,
    baseURL: baseUrlOf(entry),
    ...(entry.apiKeyEnv ? { apiKeyEnv: entry.apiKeyEnv } : {}),
  }));
}
