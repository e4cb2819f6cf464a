/**
 * The Markdown file a stage publishes: frontmatter naming what it is (workflow, stage, Artifact and revision,
 * Run, workflow version, the digest of the body), then the body, rendered from the committed data by the
 * stage's template or, without one, readably from its schema.
 *
 * Templates are Mustache (mustache.js): logic-less, so a template from a repository can only place the data,
 * never run code; mustache.js interprets templates without generating code (no `eval`, no `new Function`),
 * has no dependencies and works unchanged in Deno and in a bundle. Output is not HTML-escaped: the target is
 * Markdown, whose own rules the template author controls.
 *
 * @module
 */
import Mustache from "mustache";
import { WeftError } from "../errors.ts";
import { readableMarkdown } from "../lib/readable_markdown.ts";
import { sha256Hex } from "../lib/sha256.ts";

/** Largest document a publication writes, in bytes; a template that expands past it fails. */
export const MAX_PUBLISHED_BYTES = 1024 * 1024;

/** What the frontmatter names. */
export interface DocumentOrigin {
  flowName: string;
  stageName: string;
  artifactId: string;
  revision: number;
  runId: string;
  version: string;
}

/** Why `template` does not parse as Mustache, or undefined when it does. */
export function templateProblem(template: string): string | undefined {
  try {
    Mustache.parse(template);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * The whole file: frontmatter and body. `PUBLISH_FAILED` when the template fails or the document would be
 * larger than {@linkcode MAX_PUBLISHED_BYTES}.
 */
export function renderDocument(
  origin: DocumentOrigin,
  data: unknown,
  options: { template?: string; markdown: readonly string[] },
): string {
  const body = renderBody(origin.stageName, data, options);
  const document = frontmatter(origin, sha256Hex(body)) + body;
  const size = new TextEncoder().encode(document).length;
  if (size > MAX_PUBLISHED_BYTES) {
    throw new WeftError(
      "PUBLISH_FAILED",
      `the published document of stage "${origin.stageName}" would take ${size} bytes, more than ` +
        `${MAX_PUBLISHED_BYTES}`,
    );
  }
  return document;
}

/** The body alone, ending in a newline; `PUBLISH_FAILED` when the template of stage `stageName` fails. */
export function renderBody(
  stageName: string,
  data: unknown,
  options: { template?: string; markdown: readonly string[] },
): string {
  let body: string;
  try {
    body = options.template === undefined
      ? readableMarkdown(data, options.markdown)
      : Mustache.render(options.template, data, {}, { escape: (text: string) => text });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new WeftError("PUBLISH_FAILED", `the publish template of stage "${stageName}" failed: ${reason}`);
  }
  return body.endsWith("\n") ? body : body + "\n";
}

/** YAML frontmatter; every value is an identifier or a number, so none needs quoting. */
function frontmatter(origin: DocumentOrigin, bodyDigest: string): string {
  return [
    "---",
    "weft:",
    `  workflow: ${origin.flowName}`,
    `  version: ${origin.version}`,
    `  stage: ${origin.stageName}`,
    `  artifact: ${origin.artifactId}`,
    `  revision: ${origin.revision}`,
    `  run: ${origin.runId}`,
    `  digest: sha256:${bodyDigest}`,
    "---",
    "",
  ].join("\n");
}
