/**
 * The workflow manifest (`workflow.json`), written once in zod: the loader parses with it and
 * `schema/workflow.schema.json` is generated from it for editors.
 *
 * @module
 */
import { z } from "../../lib/zod.ts";
import { AnswerFromSchema } from "../views.ts";

/** An identifier of a workflow, stage, step, outcome, tool or agent: lowercase, `-` or `_` separated. */
export const NamePattern = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;
const Name = z.string().regex(NamePattern, "must be a lowercase identifier such as `draft-spec`");

/** An RFC 6901 JSON pointer into the stage state (`""` is the whole state). */
const Pointer = z.string().regex(/^(?:\/(?:[^~/]|~[01])*)*$/, "must be a JSON pointer such as `/spec/goals`")
  .describe("RFC 6901 JSON pointer into the stage state");

const JsonSchema = z.record(z.string(), z.unknown()).describe("a JSON Schema (draft 2020-12 subset)");
const RelativeFile = z.string().regex(
  /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$)).+\.md$/,
  "must be a relative `.md` path",
)
  .describe("a Markdown file, relative to the workflow folder");

const Budget = z.strictObject({
  maxVisits: z.int().min(1).max(1000).describe("how many times one Run may enter this step"),
}).describe("bounds loops through this step; the default is 25 visits");

/** How a list item can end: each is the item's status, and `stopped` also stops the list. */
export const ITEM_ENDS = ["done", "skipped", "failed", "stopped"] as const;

/** The stage outcomes of a list stage: every item ended, or one stopped the list. */
export const LIST_OUTCOMES = ["finished", "stopped"] as const;

/**
 * Where a step outcome leads: another step of the stage, the end of the stage with a stage outcome, or (in
 * a list stage) the end of the current item.
 */
const StepRoute = z.union([
  Name,
  z.strictObject({ endStage: Name }),
  z.strictObject({
    endItem: z.enum(ITEM_ENDS).describe("list stages only: ends the current item with this status"),
  }),
]);
/** Where a stage outcome leads: another stage, or the end of the Run. */
const StageRoute = z.union([Name, z.strictObject({ end: z.literal("completed") })]);

const stepBase = {
  title: z.string().optional(),
  budget: Budget.optional(),
  routes: z.record(Name, StepRoute).describe("outcome → next step or { endStage: outcome }"),
};

/** The built-in agent tool kinds; each runs in the service with its own input and output schema. */
export const TOOL_KINDS = [
  "run_context",
  "submit_state",
  "list_project_files",
  "read_project_file",
  "write_project_file",
  "patch_project_file",
] as const;

/** The tool kinds that change the project's files: a project workflow that declares one needs trust. */
export const EDIT_TOOL_KINDS: readonly (typeof TOOL_KINDS)[number][] = [
  "write_project_file",
  "patch_project_file",
];

const AgentTool = z.strictObject({
  id: Name,
  kind: z.enum(TOOL_KINDS),
  description: z.string().optional(),
  target: Pointer.optional().describe("submit_state only: where in the stage state the value goes"),
});

/** How the service's model runs an agent step (Runs started from the CLI or Studio); IDE agents ignore it. */
const ModelSettings = z.strictObject({
  role: Name.optional().describe("the model role of weft.json that runs it; default: `default`"),
  maxTurns: z.int().min(1).max(200).optional().describe("model requests per agent call; default 20"),
  maxToolCalls: z.int().min(0).max(256).optional().describe("tool calls per agent call; default 50"),
  maxSeconds: z.int().min(1).max(86_400).optional().describe("wall time per agent call; default 600"),
  maxRepairs: z.int().min(0).max(10).optional().describe(
    "how often an invalid result is sent back with its violations; default 2",
  ),
}).describe("the service's model: its role and the budgets of one agent call");

const AgentStep = z.strictObject({
  kind: z.literal("agent"),
  agentId: Name,
  instructions: RelativeFile,
  skills: z.array(Name).optional().describe("names of folders under skills/"),
  tools: z.array(AgentTool).optional(),
  output: z.strictObject({
    schema: JsonSchema.describe("must declare properties.outcome with an enum; each value needs a route"),
  }),
  outputTo: Pointer.optional().describe("where the validated result is written into the stage state"),
  model: ModelSettings.optional(),
  ...stepBase,
});

/** One question a human is asked. */
export const Question = z.strictObject({
  id: z.string().min(1).max(128),
  question: z.string().min(1),
  description: z.string().optional(),
  options: z.array(z.strictObject({ id: z.string().min(1), label: z.string().min(1) })).min(1).optional(),
  allowOther: z.boolean().optional().describe(
    "with options: the options are suggestions, and a written answer that is none of them is accepted too",
  ),
  isSkippable: z.boolean().optional(),
});

/** Who may answer an ask or confirm step; a decision only the person may make says `person`. */
const AnswerFrom = AnswerFromSchema.optional().describe(
  "`person`: only the person answers (the IDE's form, `weft attach`, Studio), never the IDE's agent through " +
    "`answer_ask`; `person_or_relay` (default): the agent may also relay the person's exact answer",
);

/** What a person sees beside a question or a confirmation, read from the stage state as the action opens. */
const Evidence = z.strictObject({
  summary: Pointer.optional().describe("a string: what the agent said it did"),
  verify: Pointer.optional().describe(
    "a command step's result (its `resultTo`): shown as the command, how it ended and the useful part of its output",
  ),
  changes: Pointer.optional().describe(
    "a changes step's result (its `resultTo`): shown as the files changed and their diff, file by file",
  ),
}).describe(
  "what the person sees to judge: the agent's summary, a command's outcome, the changes; in a list stage the " +
    "current item is named too",
);

const AskStep = z.strictObject({
  kind: z.literal("ask"),
  questions: z.array(Question).min(1).optional(),
  questionsFrom: Pointer.optional().describe("read the questions from the stage state instead"),
  answersTo: Pointer.optional().describe("where the answer array is written into the stage state"),
  answerFrom: AnswerFrom,
  evidence: Evidence.optional(),
  ...stepBase,
});

const ConfirmStep = z.strictObject({
  kind: z.literal("confirm"),
  context: Pointer.optional().describe(
    "the part of the stage state shown for confirmation; a step may show `evidence` instead, or both",
  ),
  evidence: Evidence.optional(),
  feedbackTo: Pointer.optional().describe("where the feedback of a `revise` answer is written"),
  answerFrom: AnswerFrom,
  ...stepBase,
});

const SchemaRule = z.strictObject({
  at: Pointer,
  schema: JsonSchema,
  message: z.string().optional().describe("feedback to give instead of the schema violations"),
});

const CoversRule = z.strictObject({
  at: Pointer.describe("the array in the stage state whose items must cover every id (a plan's tasks)"),
  covers: z.strictObject({
    stage: Name.describe("an earlier stage of this Run whose committed data holds what must be covered"),
    items: Pointer.describe("the array in that data whose items' ids must each be covered (requirements)"),
    id: Pointer.optional().describe("each such item's id, within the item; default /id"),
    by: Pointer.describe("the ids each item at `at` covers (an array of strings), within the item"),
  }),
  message: z.string().optional().describe("feedback to give before the ids left uncovered"),
}).describe(
  "every id of an earlier stage's list (the specification's requirements) is named by some item at `at` " +
    "(a plan's tasks); a Run that committed no such stage has nothing to cover",
);

const CheckRule = z.union([SchemaRule, CoversRule]);

const CheckStep = z.strictObject({
  kind: z.literal("check"),
  rules: z.array(CheckRule).min(1),
  feedbackTo: Pointer.optional().describe("where the list of violations is written (empty when valid)"),
  ...stepBase,
});

const CommitStep = z.strictObject({
  kind: z.literal("commit"),
  data: Pointer.describe("the part of the stage state committed as the stage Artifact"),
  ...stepBase,
});

/** How long a command step may run when it says nothing, and at most, in seconds. */
export const COMMAND_TIMEOUT_SECONDS = { default: 600, max: 3600 } as const;

/** The name of an environment variable, as a shell writes it. */
export const EnvNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A program and its arguments, run as they are: no shell unless the vector names one. */
export const ArgumentVector = z.array(z.string().min(1).max(4096)).min(1).max(256)
  .describe('the program and its arguments, e.g. ["deno", "task", "test"]; no shell unless it names one');

const CommandStep = z.strictObject({
  kind: z.literal("command"),
  run: z.union([
    ArgumentVector,
    Name.describe("the name of a command of the project's weft.json `commands`"),
  ]),
  fallback: z.array(Name).min(1).max(8).optional().describe(
    "when `run` names a project command weft.json does not have: the project commands tried in its place, in order",
  ),
  cwd: z.string().min(1).max(1024).optional().describe(
    "the folder it runs in, relative to the project root (no `..`, no symlink); default: the project root",
  ),
  env: z.array(z.string().regex(EnvNamePattern, "must be the name of an environment variable")).max(64)
    .optional().describe(
      "names of the service's environment variables passed through, beside PATH, HOME, LANG, LC_ALL and TMPDIR",
    ),
  timeoutSeconds: z.int().min(1).max(COMMAND_TIMEOUT_SECONDS.max).optional().describe(
    `how long it may run before its process group is ended (outcome timed_out); default ${COMMAND_TIMEOUT_SECONDS.default}`,
  ),
  resultTo: Pointer.optional().describe(
    "where { exitCode, signal, timedOut, durationMs, stdout, stderr, run } is written into the stage state",
  ),
  ...stepBase,
});

/** The points of a Run that a `changes` step can compare the project's files with. */
export const CHANGES_SINCE = ["run", "stage", "item"] as const;

/** How much of a diff a `changes` step writes into the state, in bytes. */
export const CHANGES_DIFF_BYTES = { default: 64 * 1024, max: 1024 * 1024 } as const;

const ChangesStep = z.strictObject({
  kind: z.literal("changes"),
  since: z.enum(CHANGES_SINCE).describe(
    "compare with the project's files as they were when the Run started (`run`), this stage was entered " +
      "(`stage`) or, in a list stage, the current item began (`item`)",
  ),
  resultTo: Pointer.describe(
    "where { files: [{ path, status }], diff, cutBytes } is written into the stage state",
  ),
  maxDiffBytes: z.int().min(1024).max(CHANGES_DIFF_BYTES.max).optional().describe(
    `how much of the diff is kept; default ${CHANGES_DIFF_BYTES.default}`,
  ),
  ...stepBase,
});

/** One step of a stage. */
export const Step = z.discriminatedUnion("kind", [
  AgentStep,
  AskStep,
  ConfirmStep,
  CheckStep,
  CommitStep,
  CommandStep,
  ChangesStep,
]);

/** The placeholders a publish path may hold, each filled from the Run that commits. */
export const PUBLISH_PLACEHOLDERS = ["flowName", "stageName", "runId", "slug", "publishFolder"] as const;

const Publish = z.strictObject({
  path: z.string().min(1).max(512).describe(
    "where each commit's Markdown is written, relative to the project; may hold {flowName}, {stageName}, " +
      "{runId}, {slug} (a short, file-safe form of the Run's intent) and {publishFolder} (weft.json's " +
      "publishFolder, default docs/weft)",
  ),
  template: z.string().regex(/^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$)).+$/, "must be a relative path")
    .optional().describe(
      "a Mustache template in the workflow folder rendering the committed data; without it the data is " +
        "rendered readably from its schema",
    ),
}).describe("publishes each commit of this stage to a Markdown file of the project");

/** Where a list stage's items come from: its own state as it is entered, or the Run's resolved input. */
export const LIST_SOURCES = ["state", "input"] as const;

const ForEach = z.strictObject({
  from: z.enum(LIST_SOURCES).optional().describe(
    "`state` (default): the stage state as the stage is entered; `input`: the Run's input (the workflow's `input`)",
  ),
  items: Pointer.describe("where the array of items is, in what `from` names"),
  id: Pointer.optional().describe(
    "each item's id (a non-empty string, unique), within the item; default /id",
  ),
  title: Pointer.optional().describe(
    "each item's title, within the item; default /title (its id when absent)",
  ),
  dependsOn: Pointer.optional().describe(
    "each item's dependencies (an array of ids), within the item; an item begins only once they are done",
  ),
  as: Pointer.describe("where the current item is written into the stage state when it begins"),
  inputTo: Pointer.optional().describe(
    "where the Run's input (such as the plan and its specification) is written when each item begins",
  ),
  attemptTo: Pointer.optional().describe(
    "where the item's attempt number (1, 2, …) is written each time its first step is entered",
  ),
  verifyStep: Name.optional().describe(
    "a command step of this stage whose result is the item's verify, as the Run's list shows it",
  ),
}).describe(
  "makes this a list stage: its steps run once per item, in dependency order, each item from the stage's " +
    'initial state; steps end items with { "endItem": … }, and the stage ends `finished` or `stopped`',
);

const Stage = z.strictObject({
  title: z.string().optional(),
  description: z.string().optional(),
  forEach: ForEach.optional(),
  publish: Publish.optional(),
  state: z.strictObject({ schema: JsonSchema, initial: z.unknown() }),
  entryStep: Name,
  steps: z.record(Name, Step),
  routes: z.record(Name, StageRoute).describe('stage outcome → next stage or { end: "completed" }'),
});

const Limits = z.strictObject({
  stateBytes: z.int().min(1024).max(16 * 1024 * 1024).optional()
    .describe("largest stage state, in bytes of JSON; default 1 MiB"),
  resultBytes: z.int().min(1024).max(4 * 1024 * 1024).optional()
    .describe("largest agent result, in bytes of JSON; default 1 MiB"),
}).describe("size bounds on what a Run keeps; a write past them is refused with INVALID_REQUEST");

/** The whole manifest. */
export const Manifest = z.strictObject({
  $schema: z.string().optional(),
  name: Name,
  title: z.string().min(1),
  description: z.string(),
  exclusive: z.boolean().optional().describe("at most one running or waiting Run at a time"),
  limits: Limits.optional(),
  model: ModelSettings.optional().describe("defaults for every agent step; a step's own fields win"),
  input: z.enum(["plan"]).optional().describe(
    "`plan`: the Run's intent names a plan (an intent Run id, a plan Artifact id or a published plan file), " +
      "resolved when the Run starts; list stages read it with `from: input`",
  ),
  next: z.strictObject({
    flowName: Name.describe("the workflow to start next"),
    say: z.string().min(1).max(200).describe('how to tell it, before the command: "deliver its plan with"'),
  }).optional().describe("what a completed Run suggests starting next, with the Run's id as the intent"),
  entryStage: Name,
  stages: z.record(Name, Stage),
});

/** A parsed manifest. */
export type Manifest = z.infer<typeof Manifest>;
/** A parsed stage. */
export type StageDef = Manifest["stages"][string];
/** A parsed step. */
export type StepDef = z.infer<typeof Step>;
/** A parsed publish declaration. */
export type PublishDef = z.infer<typeof Publish>;
/** A parsed question. */
export type Question = z.infer<typeof Question>;
/** How the service's model runs an agent step, as declared. */
export type ModelSettings = z.infer<typeof ModelSettings>;
/** A parsed commit step. */
export type CommitStepDef = z.infer<typeof CommitStep>;
/** A parsed command step. */
export type CommandStepDef = z.infer<typeof CommandStep>;
/** What an ask or confirm step shows beside its question, as declared. */
export type EvidenceDef = z.infer<typeof Evidence>;
/** A parsed changes step. */
export type ChangesStepDef = z.infer<typeof ChangesStep>;
/** A parsed `forEach` of a list stage. */
export type ForEachDef = z.infer<typeof ForEach>;
/** A parsed step route. */
export type StepRouteDef = z.infer<typeof StepRoute>;
/** A parsed agent tool declaration. */
export type AgentToolDef = z.infer<typeof AgentTool>;

/** The JSON Schema of the manifest, as shipped in `schema/workflow.schema.json`. */
export function manifestJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(Manifest, { io: "input", target: "draft-2020-12" }),
    $id: "https://weft.local/schema/workflow.schema.json",
    title: "weft workflow manifest",
  };
}
