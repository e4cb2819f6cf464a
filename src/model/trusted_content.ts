/**
 * The content of a project that needs the person's trust: everything in the project's files that can send
 * data off the machine, spend money or run code. Today that is the model entries of the project's
 * `weft.json` (each names a server that receives the project's files and, with a key, spends the person's
 * money), the project commands of its `weft.json` and the command steps of its workflows (each runs a
 * program on the person's machine), and the agent steps of its workflows that declare tools writing the
 * project's files (each lets a model change the person's files). This module is the one place that says what the content is and how it is digested; the project
 * trust record (`project_trust.ts`) binds a digest from here to the project's real path.
 *
 * Each kind is a member of {@linkcode TrustedContent}; the digest covers all of them, so a change to any asks
 * again for the whole. Embedded workflows' steps are not here: they are trusted by shipping. An
 * empty member is left out of the canonical form, so adding a kind
 * changes the digest only of projects that have such content: what they ask for is new, and is asked again.
 *
 * @module
 */
import { canonicalJson } from "../lib/canonical_json.ts";
import { sha256Hex } from "../lib/sha256.ts";
import { baseUrlOf, type ModelEntry } from "./config.ts";
import type { DeclaredCommandStep, DeclaredEditStep } from "../engine/workflow/trusted_steps.ts";

/** What the person trusts, in its canonical shape (members with nothing in them are absent). */
export type TrustedContent = {
  /** The model entries of the project's `weft.json`, by role, each taken whole. */
  models?: Record<string, ModelEntry>;
  /** The project commands of `weft.json`, by name: the exact argument vectors. */
  commands?: Record<string, string[]>;
  /**
   * Every command step of the project's workflows: exact vector (or command name and the names tried after
   * it), folder, variable names.
   */
  commandSteps?: DeclaredCommandStep[];
  /** Every agent step of the project's workflows that declares tools writing files: which tools. */
  editSteps?: DeclaredEditStep[];
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

/**
 * The content of a project (its `weft.json`'s models and commands, its workflows' command steps and edit
 * steps) and its digest.
 */
export function trustedContentOf(parts: {
  models: Record<string, ModelEntry>;
  commands?: Record<string, string[]>;
  commandSteps?: DeclaredCommandStep[];
  editSteps?: DeclaredEditStep[];
}): DigestedContent {
  const content: TrustedContent = {};
  if (Object.keys(parts.models).length) content.models = parts.models;
  if (Object.keys(parts.commands ?? {}).length) content.commands = parts.commands;
  if (parts.commandSteps?.length) content.commandSteps = parts.commandSteps;
  if (parts.editSteps?.length) content.editSteps = parts.editSteps;
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
