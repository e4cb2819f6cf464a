/**
 * `weft artifact`: one Artifact with its data, shown or exported to a file.
 *
 * @module
 */

import type { ArtifactView } from "../../client/views.ts";
import { UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { CommandFailure, writeFailureReason } from "../command_line/failure.ts";
import { hint, indent, paint, printJson, relativeTime } from "../terminal/format.ts";
import { readable } from "../../lib/readable.ts";
import { withClient } from "../../client/weft_client.ts";
import { say } from "../terminal/screen.ts";

/** `weft artifact` */
export const artifactCommand = defineCommand({
  name: "artifact",
  summary: "show or export one Artifact",
  synopsis: "artifact (<id> | --flow F --stage S) [--revision N] [--output FILE [--overwrite]]",
  description: "Shows one Artifact with its data: by id, or the current output of a workflow stage.",
  options: {
    flow: { type: "string", arg: "F", help: "the workflow whose stage output to show (with --stage)" },
    stage: { type: "string", arg: "S", help: "the stage (with --flow)" },
    revision: { type: "integer", arg: "N", min: 1, help: "an earlier revision (revisions only grow)" },
    output: {
      type: "string",
      arg: "FILE",
      short: "o",
      help: `export the data to FILE: text as it is, anything else as indented JSON;
an existing FILE is refused (OUTPUT_EXISTS) unless --overwrite is given`,
    },
    overwrite: { type: "boolean", help: "replace an existing --output FILE" },
  },
  json: 'print { "artifact": ArtifactView } (with --output: the metadata and "output")',
  async run({ options, positionals, projectDir, json }) {
    const query = selector(positionals, options);
    const output = options.output;
    if (options.overwrite && output === undefined) {
      throw new UsageError("--overwrite goes with --output FILE");
    }
    const { artifact } = await withClient(
      projectDir,
      (client) => client.call<{ artifact: ArtifactView | null }>("get_artifact", query),
    );
    if (!artifact) {
      throw new CommandFailure(
        "NOT_FOUND",
        `no Artifact ${describe(query)}`,
        "`weft artifacts` lists what was committed",
      );
    }
    if (output !== undefined) {
      await exportData(artifact, output, options.overwrite);
      const { data: _data, ...metadata } = artifact;
      if (json) printJson({ artifact: metadata, output });
      else {
        say(
          `wrote ${artifact.flowName}/${artifact.stageName} revision ${artifact.revision} to ${output}`,
        );
      }
      return EXIT.OK;
    }
    if (json) printJson({ artifact });
    else say(describeArtifact(artifact));
    return EXIT.OK;
  },
});

function selector(
  positionals: string[],
  values: { flow?: string; stage?: string; revision?: number },
): Record<string, unknown> {
  const byStage = values.flow !== undefined || values.stage !== undefined;
  if (positionals.length > 1) throw new UsageError("takes at most one Artifact id");
  if ((positionals.length === 1) === byStage) {
    throw new UsageError("name the Artifact by its id, or by --flow F --stage S (one of the two)");
  }
  if (byStage && (values.flow === undefined || values.stage === undefined)) {
    throw new UsageError("--flow and --stage go together");
  }
  const revision = values.revision;
  return {
    ...(byStage ? { flowName: values.flow, stageName: values.stage } : { artifactId: positionals[0] }),
    ...(revision !== undefined ? { revision } : {}),
  };
}

function describe(query: Record<string, unknown>): string {
  const what = query.artifactId ? `"${query.artifactId}"` : `for ${query.flowName}/${query.stageName}`;
  return query.revision ? `${what} at revision ${query.revision}` : what;
}

/** Writes the data: text as it is (a Markdown document stays Markdown), anything else as indented JSON. */
async function exportData(artifact: ArtifactView, path: string, overwrite: boolean): Promise<void> {
  const text = typeof artifact.data === "string"
    ? artifact.data
    : JSON.stringify(artifact.data, null, 2) + "\n";
  try {
    await Deno.writeTextFile(path, text, overwrite ? {} : { createNew: true });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw new CommandFailure(
        "OUTPUT_EXISTS",
        `${path} already exists; it was left untouched`,
        "add --overwrite to replace it, or choose another --output",
      );
    }
    throw new CommandFailure(
      "OUTPUT_UNWRITABLE",
      `cannot write ${path}: ${writeFailureReason(error)}`,
      "check the folder exists and is writable",
    );
  }
}

function describeArtifact(artifact: ArtifactView): string {
  const now = new Date();
  return [
    `${
      paint("bold", artifact.artifactId)
    }  ${artifact.flowName}/${artifact.stageName}  revision ${artifact.revision}`,
    `  ${paint("dim", "run")}      ${artifact.runId}`,
    `  ${paint("dim", "record")}   ${artifact.recordId}`,
    `  ${paint("dim", "updated")}  ${relativeTime(artifact.updatedAt, now)}`,
    ...publicationLines(artifact.publication),
    "",
    indent(readable(artifact.data, "`--json` or `--output FILE` has the raw data", artifact.markdown)),
    "",
    hint("export with", `weft artifact ${artifact.artifactId} --output FILE`),
  ].join("\n");
}

/** Where the revision was published, or why its file was left as it was. */
function publicationLines(publication: ArtifactView["publication"]): string[] {
  if (!publication) return [];
  if (publication.status === "published") return [`  ${paint("dim", "file")}     ${publication.path}`];
  const what = publication.status === "skipped" ? "not written" : "publish failed";
  return [`  ${paint("dim", "file")}     ${publication.path} (${what}: ${publication.message})`];
}
