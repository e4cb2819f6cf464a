/**
 * Whether the person trusts the file edits of a project workflow's agent step: the step must be in the
 * project's trusted content exactly as the Run's version declares it (which edit tools), and the person must
 * trust that content (`trusted_content.ts`). An embedded workflow's edit tools are trusted by shipping and
 * never asked about.
 *
 * @module
 */
import { canonicalJson } from "../lib/canonical_json.ts";
import type { DeclaredEditStep } from "../engine/workflow/trusted_steps.ts";
import type { ModelConfig } from "./config.ts";

/** Why the edits of `site` may not be made now, or undefined when the person trusts them. */
export function editRefusal(config: ModelConfig, site: DeclaredEditStep): string | undefined {
  const { trust } = config;
  const wanted = canonicalJson(site);
  const declared = (trust.content.editSteps ?? []).some((entry) => canonicalJson(entry) === wanted);
  if (declared && trust.trusted) return undefined;
  return `the step ${site.stage}/${site.step} of the project's workflow "${site.workflow}" would change ` +
    "your files, and you have not trusted the project's workflows as they are now: review them with " +
    "`weft trust`, then try again";
}
