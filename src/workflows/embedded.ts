/**
 * The workflows built into the program. Every file is imported with an import attribute so that a bundle or
 * a compiled binary carries it; nothing here is read from disk at run time.
 *
 * @module
 */
import type { WorkflowFile, WorkflowSource } from "../engine/workflow/source.ts";
import intentManifest from "./intent/workflow.json" with { type: "json" };
import deliverManifest from "./deliver/workflow.json" with { type: "json" };
import deliverImplementer from "./deliver/implementer.md" with { type: "text" };
import intentSpecifier from "./intent/specifier.md" with { type: "text" };
import intentPlanner from "./intent/planner.md" with { type: "text" };
import intentSpecSkill from "./intent/skills/specification-writing/SKILL.md" with { type: "text" };
import intentSpecTemplate from "./intent/skills/specification-writing/template.md" with { type: "text" };
import intentPlanSkill from "./intent/skills/implementation-planning/SKILL.md" with { type: "text" };
import intentPlanTemplate from "./intent/skills/implementation-planning/plan-template.md" with {
  type: "text",
};

/** Builds the in-memory source of one embedded workflow. */
export function embeddedSource(
  dirName: string,
  manifest: unknown,
  texts: Record<string, string>,
): WorkflowSource {
  const files = new Map<string, WorkflowFile>(
    Object.entries(texts).map(([path, text]) => [path, { kind: "text", text }]),
  );
  files.set("workflow.json", { kind: "text", text: JSON.stringify(manifest) });
  return {
    origin: "embedded",
    dirName,
    label: `embedded/${dirName}`,
    manifest: { ok: true, value: manifest },
    files,
  };
}

/** Every embedded workflow, marked as checked in full by the test suite (see `WorkflowSource.prechecked`). */
export const EMBEDDED_WORKFLOWS: WorkflowSource[] = [
  prechecked(embeddedSource("intent", intentManifest, {
    "specifier.md": intentSpecifier,
    "planner.md": intentPlanner,
    "skills/specification-writing/SKILL.md": intentSpecSkill,
    "skills/specification-writing/template.md": intentSpecTemplate,
    "skills/implementation-planning/SKILL.md": intentPlanSkill,
    "skills/implementation-planning/plan-template.md": intentPlanTemplate,
  })),
  prechecked(embeddedSource("deliver", deliverManifest, { "implementer.md": deliverImplementer })),
];

function prechecked(source: WorkflowSource): WorkflowSource {
  return { ...source, prechecked: true };
}
