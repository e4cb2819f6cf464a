/**
 * Which names a project's workflow may take, as `weft init` checks them offline: the manifest's pattern, and
 * none of the workflows built into weft (the service would refuse such a workflow when it loads).
 *
 * @module
 */

import { NamePattern } from "../engine/workflow/manifest.ts";
import { EMBEDDED_WORKFLOWS } from "../workflows/embedded.ts";

/** Whether `name` has the form of a workflow's name: a lowercase identifier such as `release-note`. */
export function isWorkflowName(name: string): boolean {
  return NamePattern.test(name);
}

/** Whether `name` is the name of a workflow built into weft. */
export function isEmbeddedWorkflow(name: string): boolean {
  return EMBEDDED_WORKFLOWS.some((source) => source.dirName === name);
}
