/**
 * The Markdown file a stage publishes: frontmatter naming what it is (workflow, stage, Artifact and revision,
 * Run, workflow version, the digest of the body), then the body, rendered from the committed data by the
 * stage's template or, without one, readably from its schema.
 *
 * Templates are Mustache (mustache.js parses them): logic-less, so a template from a repository can only place
 * the data, never run code. They are rendered with bounded work (`template_render.ts`), so a template that
 * would expand without end fails instead of holding the service. Output is not HTML-escaped: the target is
 * Markdown, whose own rules the template author controls.
 *
 * @module
 */
import { WeftError } from "../errors.ts";
import { readableMarkdown } from "../lib/readable_markdown.ts";
import { sha256Hex } from "../lib/sha256.ts";
import { MAX_RENDER_STEPS, renderTemplate } from "./template_render.ts";

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

/**
 * The body alone, ending in a newline; `PUBLISH_FAILED` when the template of stage `stageName` fails or
 * passes a bound of its work or its size.
 */
export function renderBody(
  stageName: string,
  data: unknown,
  options: { template?: string; markdown: readonly string[] },
): string {
  const what = `the publish template of stage "${stageName}"`;
  let body: string;
  try {
    body = options.template === undefined
      ? readableMarkdown(data, options.markdown)
      : renderTemplate(options.template, data, { steps: MAX_RENDER_STEPS, chars: MAX_PUBLISHED_BYTES }, what);
  } catch (error) {
    if (error instanceof WeftError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new WeftError("PUBLISH_FAILED", `${what} failed: ${reason}`);
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
