/**
 * The built-in agent tool kinds. Each runs in the service, with zod input and output schemas published to the
 * agent as JSON Schema; input is validated before the tool runs and output before it is returned.
 *
 * @module
 */
import { z } from "../lib/zod.ts";
import { invalid, WeftError } from "../errors.ts";
import type { AgentToolView } from "./views.ts";
import type { AgentToolDef } from "./workflow/manifest.ts";
import { pointerTokens } from "./json_pointer.ts";
import { listProjectFiles, MAX_READ_BYTES, readProjectFile } from "./file_tools.ts";
import { type EditOutcome, type FileEdit, MAX_EDIT_BYTES, MAX_PATCH_EDITS } from "./file_edits.ts";
import type { ProjectFiles } from "./project_files.ts";
import { type JsonSchema, publishedSchema } from "./published_schema.ts";

/** What a tool may see and do; the engine supplies it per call. */
export interface ToolContext {
  /** The project's files, which file tools reach. */
  files: ProjectFiles;
  /** The `run_context` document of the current Run. */
  runContext: () => Promise<RunContext>;
  /** Validates and persists `value` at `target` in the stage state; throws `INVALID_REQUEST` on rejection. */
  submitState: (target: string, value: unknown) => Promise<void>;
  /** Applies one edit to a project file as this call's write: bounded, trusted, recorded on the timeline. */
  editFile: (path: string, edit: FileEdit) => Promise<EditOutcome>;
}

const Edited = z.object({
  path: z.string(),
  status: z.enum(["created", "modified", "unchanged"]),
  size: z.number(),
});

const ProjectPath = z.string().min(1).max(4096);

const RunContext = z.object({
  runId: z.string(),
  flowName: z.string(),
  intent: z.string(),
  stageName: z.string(),
  stepName: z.string(),
  state: z.unknown(),
  answers: z.array(z.unknown()).describe("human answers given in this stage, oldest first"),
  feedback: z.array(z.string()).describe("revision requests from confirmations in this stage, oldest first"),
  artifacts: z.array(z.object({
    stageName: z.string(),
    artifactId: z.string(),
    revision: z.number(),
    data: z.unknown(),
  })).describe("what earlier stages of this Run committed"),
});

/** The `run_context` document. */
export type RunContext = z.infer<typeof RunContext>;

const KINDS = {
  run_context: {
    description:
      "Returns the Run's intent, the stage state, answers, feedback and earlier stages' artifacts.",
    input: z.strictObject({}),
    output: RunContext,
  },
  submit_state: {
    description:
      "Replaces one part of the stage state; the whole state is validated against the stage schema.",
    input: z.strictObject({ value: z.unknown() }),
    output: z.object({ accepted: z.literal(true), target: z.string() }),
  },
  list_project_files: {
    description:
      "Lists project files under an optional folder (recursive, capped; .git, .weft, .env* hidden).",
    input: z.strictObject({ dir: z.string().max(4096).optional() }),
    output: z.object({ files: z.array(z.string()), truncated: z.boolean() }),
  },
  read_project_file: {
    description: `Reads one UTF-8 project file by project-relative path (at most ${
      MAX_READ_BYTES / 1024
    } KiB).`,
    input: z.strictObject({ path: ProjectPath }),
    output: z.object({ path: z.string(), size: z.number(), content: z.string() }),
  },
  write_project_file: {
    description: "Creates or replaces one UTF-8 project file with the whole `content` given, creating its " +
      `folders (at most ${MAX_EDIT_BYTES / 1024} KiB; .git, .weft, .env* and symbolic links are refused).`,
    input: z.strictObject({ path: ProjectPath, content: z.string().max(MAX_EDIT_BYTES) }),
    output: Edited,
  },
  patch_project_file: {
    description: "Changes one existing UTF-8 project file by exact search/replace edits, applied in order: " +
      "each `search` must occur exactly once in the file as it then stands (copy it from the file, with " +
      "enough lines around it to be unique), and is replaced by `replace`.",
    input: z.strictObject({
      path: ProjectPath,
      edits: z.array(z.strictObject({
        search: z.string().min(1).max(MAX_EDIT_BYTES),
        replace: z.string().max(MAX_EDIT_BYTES),
      })).min(1).max(MAX_PATCH_EDITS),
    }),
    output: Edited,
  },
} as const;

/** The tool as published in a task; `submit_state` advertises the stage schema of its target. */
export function publishTool(tool: AgentToolDef, stateSchema: Record<string, unknown>): AgentToolView {
  const kind = KINDS[tool.kind];
  const schemas = publishedSchemas(tool.kind);
  const inputSchema = tool.kind === "submit_state"
    ? {
      type: "object",
      properties: { value: subSchema(stateSchema, tool.target ?? "") },
      required: ["value"],
      additionalProperties: false,
    }
    : schemas.input;
  return {
    id: tool.id,
    kind: tool.kind,
    description: tool.description ?? kind.description,
    inputSchema,
    outputSchema: schemas.output,
  };
}

type Kind = keyof typeof KINDS;
const PUBLISHED = new Map<Kind, { input: JsonSchema; output: JsonSchema }>();

/**
 * A kind's schemas as JSON Schema, converted once: every claim publishes them, and the conversion was most
 * of a claim's own time. Tasks only ever serialize them, so sharing one object is safe.
 */
function publishedSchemas(kind: Kind): { input: JsonSchema; output: JsonSchema } {
  let schemas = PUBLISHED.get(kind);
  if (!schemas) {
    schemas = {
      input: publishedSchema(KINDS[kind].input, "input"),
      output: publishedSchema(KINDS[kind].output, "output"),
    };
    PUBLISHED.set(kind, schemas);
  }
  return schemas;
}

/** Runs one declared tool with validated input and output. */
export async function executeTool(
  tool: AgentToolDef,
  input: unknown,
  context: ToolContext,
): Promise<unknown> {
  const kind = KINDS[tool.kind];
  const parsed = kind.input.safeParse(input);
  if (!parsed.success) {
    throw invalid(
      `input of tool "${tool.id}" is invalid: ${parsed.error.issues.map((i) => i.message).join("; ")}`,
    );
  }
  const output = await run(tool, parsed.data as Record<string, unknown>, context);
  const checked = kind.output.safeParse(output);
  if (!checked.success) {
    throw new WeftError("TOOL_FAILED", `tool "${tool.id}" produced output outside its schema`);
  }
  return checked.data;
}

async function run(
  tool: AgentToolDef,
  input: Record<string, unknown>,
  context: ToolContext,
): Promise<unknown> {
  switch (tool.kind) {
    case "run_context":
      return await context.runContext();
    case "submit_state":
      await context.submitState(tool.target ?? "", input.value);
      return { accepted: true, target: tool.target ?? "" };
    case "list_project_files":
      return await listProjectFiles(context.files, input.dir as string | undefined);
    case "read_project_file":
      return await readProjectFile(context.files, input.path as string);
    case "write_project_file":
      return await context.editFile(input.path as string, {
        kind: "write",
        content: input.content as string,
      });
    case "patch_project_file":
      return await context.editFile(input.path as string, {
        kind: "patch",
        edits: input.edits as { search: string; replace: string }[],
      });
  }
}

/** The part of a JSON Schema that describes the value at `pointer`, or `{}` when it cannot be told. */
function subSchema(schema: Record<string, unknown>, pointer: string): unknown {
  let current: unknown = schema;
  for (const token of pointerTokens(pointer)) {
    const node = current as { properties?: Record<string, unknown>; items?: unknown } | undefined;
    if (node?.properties && Object.hasOwn(node.properties, token)) current = node.properties[token];
    else if (node?.items && /^\d+$|^-$/.test(token)) current = node.items;
    else return {};
  }
  return current;
}
