/**
 * Strict loading of workflows: the manifest is parsed, then every reference, route, file and schema is
 * checked. Each problem names the workflow-relative file and the JSON pointer, so an author can fix it
 * without guessing; a broken workflow is reported unavailable and never stops the others.
 *
 * @module
 */
import type { z } from "../../lib/zod.ts";
import { compileSchema } from "../json_schema.ts";
import { WorkflowContent } from "./content.ts";
import { Manifest, type StageDef, type StepDef } from "./manifest.ts";
import { assetPath, type LoadedSkill, loadSkill, skillFilePath } from "./skills.ts";
import { readWorkflowText, unreadable, type WorkflowFile, type WorkflowSource } from "./source.ts";
import { escapeToken } from "../json_pointer.ts";
import { fixedFolders, publishPathProblem } from "../publish_path.ts";
import { templateProblem } from "../template_render.ts";
import { commandFolderSegments, resolveCommandFolder } from "../command_folder.ts";

/** A workflow that passed every check. */
export interface LoadedWorkflow {
  manifest: Manifest;
  origin: WorkflowSource["origin"];
  hasAgentSteps: boolean;
  /** Instructions text of each agent step, by `stage/step`. */
  instructions: Map<string, string>;
  skills: Map<string, LoadedSkill>;
  /** The publish template text of each stage that declares one, by stage name. */
  templates: Map<string, string>;
  /** What this definition's version is the digest of, and the version itself. */
  content: WorkflowContent;
}

/** The outcome of loading one source. */
export type WorkflowEntry =
  | { ok: true; name: string; workflow: LoadedWorkflow }
  | {
    ok: false;
    name: string;
    origin: WorkflowSource["origin"];
    title: string;
    description: string;
    reason: string;
  };

/** The outcomes each step kind can produce; agent outcomes come from its output schema. */
const FIXED_OUTCOMES: Record<Exclude<StepDef["kind"], "agent">, string[]> = {
  ask: ["answered"],
  confirm: ["confirmed", "revise"],
  check: ["valid", "invalid"],
  commit: ["committed"],
  command: ["passed", "failed", "timed_out"],
  changes: ["changed", "unchanged"],
};

/** Loads and checks one workflow source. */
export function loadWorkflow(source: WorkflowSource): WorkflowEntry {
  const fail = (errors: string[], manifest?: unknown): WorkflowEntry => {
    const raw = (typeof manifest === "object" && manifest !== null ? manifest : {}) as Record<
      string,
      unknown
    >;
    return {
      ok: false,
      name: source.dirName,
      origin: source.origin,
      title: typeof raw.title === "string" ? raw.title : source.dirName,
      description: typeof raw.description === "string" ? raw.description : "",
      reason: errors.join("\n"),
    };
  };
  if (!source.manifest.ok) return fail([source.manifest.reason]);
  const file = `${source.label}/workflow.json`;
  const parsed = Manifest.safeParse(source.manifest.value);
  if (!parsed.success) {
    const raw = source.manifest.value;
    return fail(parsed.error.issues.map((issue) => describeIssue(file, issue, raw)), raw);
  }
  const checker = new Checker(source, file, parsed.data, source.manifest.value);
  checker.checkAll();
  if (checker.errors.length) return fail(checker.errors, parsed.data);
  return { ok: true, name: parsed.data.name, workflow: checker.result() };
}

/** The agent output outcomes an output schema declares, or undefined when it declares none. */
export function declaredOutcomes(schema: Record<string, unknown>): string[] | undefined {
  const outcome = (schema.properties as Record<string, { enum?: unknown }> | undefined)?.outcome;
  const values = outcome?.enum;
  if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === "string")) {
    return undefined;
  }
  return values;
}

/** One schema problem in the loader's own words (zod's wording is for programmers), at its JSON pointer. */
function describeIssue(file: string, issue: z.core.$ZodIssue, manifest: unknown): string {
  const at = `${file}#${toPointer(issue.path)}`;
  const value = valueAt(manifest, issue.path);
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((key) => `${at}/${escapeToken(key)}: unknown field`).join("\n");
    case "invalid_type":
      return value === undefined
        ? `${at}: missing; ${article(issue.expected)} is required`
        : `${at}: must be ${article(issue.expected)}, not ${article(typeName(value))}`;
    case "invalid_union": {
      if ("discriminator" in issue && issue.discriminator) {
        const what = issue.path.includes("steps") ? "step kind" : issue.discriminator;
        const options = (issue as { options?: unknown[] }).options?.join(", ");
        return value === undefined
          ? `${at}: missing; the ${what} is one of ${options}`
          : `${at}: unknown ${what} \`${show(value)}\`; one of ${options}`;
      }
      return `${at}: ${unionShape(issue.path)}`;
    }
    case "invalid_value":
      return `${at}: \`${show(value)}\` is not allowed; one of ${issue.values.map(show).join(", ")}`;
    case "invalid_key":
      return `${at}: the name ${issue.issues[0]?.message ?? "is not allowed"}`;
    case "too_small":
    case "too_big":
      return `${at}: ${sizeRule(issue)}`;
    default:
      // The remaining codes carry the manifest's own messages (formats written in manifest.ts).
      return `${at}: ${issue.message}`;
  }
}

/** What a route that fits none of its shapes should look like. */
function unionShape(path: PropertyKey[]): string {
  if (path.at(-2) === "routes" && path.includes("steps")) {
    return 'a step route is the name of a step, { "endStage": "<stage outcome>" }, or in a list stage ' +
      '{ "endItem": "done" | "skipped" | "failed" | "stopped" }';
  }
  if (path.at(-2) === "routes") return 'a stage route is the name of a stage, or { "end": "completed" }';
  return "does not have any of the accepted shapes";
}

function sizeRule(issue: z.core.$ZodIssue & { code: "too_small" | "too_big" }): string {
  const bound = Number(
    (issue as { minimum?: unknown; maximum?: unknown })[
      issue.code === "too_small" ? "minimum" : "maximum"
    ],
  );
  const least = issue.code === "too_small";
  switch (issue.origin) {
    case "array":
      return `needs ${least ? "at least" : "at most"} ${bound} item${bound === 1 ? "" : "s"}`;
    case "string":
      return least && bound === 1
        ? "must not be empty"
        : `needs ${least ? "at least" : "at most"} ${bound} character${bound === 1 ? "" : "s"}`;
    default:
      return `must be ${least ? "at least" : "at most"} ${bound}`;
  }
}

function valueAt(value: unknown, path: PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (node, key) =>
      typeof node === "object" && node !== null ? (node as Record<PropertyKey, unknown>)[key] : undefined,
    value,
  );
}

function typeName(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function article(type: string): string {
  return type === "null" ? "null" : `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

function show(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function toPointer(path: PropertyKey[]): string {
  return path.map((part) => "/" + escapeToken(String(part))).join("");
}

class Checker {
  readonly errors: string[] = [];
  readonly #instructions = new Map<string, string>();
  readonly #skills = new Map<string, LoadedSkill>();
  readonly #templates = new Map<string, string>();
  /** The files the manifest declares, which the version covers. */
  readonly #declared = new Map<string, WorkflowFile>();

  constructor(
    readonly source: WorkflowSource,
    readonly file: string,
    readonly manifest: Manifest,
    /** The manifest as read, which the version covers. */
    readonly raw: unknown,
  ) {}

  checkAll(): void {
    const { manifest } = this;
    if (manifest.name !== this.source.dirName) {
      this.#error("/name", `must equal the folder name "${this.source.dirName}"`);
    }
    if (!manifest.stages[manifest.entryStage]) {
      this.#error("/entryStage", `no stage "${manifest.entryStage}"`);
    }
    for (const [stageName, stage] of Object.entries(manifest.stages)) this.#checkStage(stageName, stage);
    this.#checkReachable(
      "/stages",
      manifest.entryStage,
      manifest.stages,
      (stage) => Object.values(stage.routes).flatMap((route) => typeof route === "string" ? [route] : []),
    );
  }

  result(): LoadedWorkflow {
    const steps = Object.values(this.manifest.stages).flatMap((stage) => Object.values(stage.steps));
    return {
      manifest: this.manifest,
      origin: this.source.origin,
      hasAgentSteps: steps.some((step) => step.kind === "agent"),
      instructions: this.#instructions,
      skills: this.#skills,
      templates: this.#templates,
      content: new WorkflowContent(this.source.origin, this.raw, this.#declared, this.source.tree),
    };
  }

  #error(pointer: string, message: string): void {
    this.errors.push(`${this.file}#${pointer}: ${message}`);
  }

  #schema(pointer: string, schema: unknown) {
    if (this.source.prechecked) return undefined;
    try {
      return compileSchema(schema);
    } catch (error) {
      this.#error(pointer, `not a usable JSON Schema (${error instanceof Error ? error.message : error})`);
      return undefined;
    }
  }

  #checkStage(stageName: string, stage: StageDef): void {
    const at = `/stages/${escapeToken(stageName)}`;
    const validate = this.#schema(`${at}/state/schema`, stage.state.schema);
    const verdict = validate?.(stage.state.initial);
    if (verdict && !verdict.ok) {
      this.#error(`${at}/state/initial`, `does not match the state schema: ${verdict.errors.join("; ")}`);
    }
    if (!stage.steps[stage.entryStep]) this.#error(`${at}/entryStep`, `no step "${stage.entryStep}"`);
    if (stage.publish) this.#checkPublish(stageName, `${at}/publish`, stage.publish);
    const stageOutcomes = new Set<string>();
    const itemEnds = new Set<string>();
    for (const [stepName, step] of Object.entries(stage.steps)) {
      const stepAt = `${at}/steps/${escapeToken(stepName)}`;
      const outcomes = this.#checkStep(stageName, stepName, stepAt, step);
      if (!outcomes) continue;
      for (const outcome of outcomes) {
        if (!Object.hasOwn(step.routes, outcome)) {
          this.#error(`${stepAt}/routes`, `outcome "${outcome}" has no route`);
        }
      }
      for (const [outcome, route] of Object.entries(step.routes)) {
        const routeAt = `${stepAt}/routes/${escapeToken(outcome)}`;
        if (!outcomes.includes(outcome)) {
          this.#error(
            routeAt,
            `"${outcome}" is not an outcome of this step (it has: ${outcomes.join(", ")})`,
          );
        }
        if (typeof route === "string") {
          if (!stage.steps[route]) this.#error(routeAt, `no step "${route}" in stage "${stageName}"`);
        } else if ("endStage" in route) stageOutcomes.add(route.endStage);
        else itemEnds.add(route.endItem);
      }
    }
    this.#checkList(at, stage, stageOutcomes, itemEnds);
    for (const outcome of stageOutcomes) {
      if (!Object.hasOwn(stage.routes, outcome)) {
        this.#error(`${at}/routes`, `stage outcome "${outcome}" has no route`);
      }
    }
    for (const [outcome, route] of Object.entries(stage.routes)) {
      const routeAt = `${at}/routes/${escapeToken(outcome)}`;
      if (!stageOutcomes.has(outcome)) this.#error(routeAt, `no step ends the stage with "${outcome}"`);
      if (typeof route === "string" && !this.manifest.stages[route]) {
        this.#error(routeAt, `no stage "${route}"`);
      }
    }
    this.#checkReachable(
      `${at}/steps`,
      stage.entryStep,
      stage.steps,
      (step) => Object.values(step.routes).flatMap((route) => typeof route === "string" ? [route] : []),
    );
  }

  /**
   * A list stage ends items, not itself: its steps route to `endItem` (never `endStage`), and it ends
   * `finished`, or `stopped` when a step can stop the list; the step it names as verify is a command of it.
   * Any other stage may neither end an item nor compare with an item's start.
   */
  #checkList(at: string, stage: StageDef, stageOutcomes: Set<string>, itemEnds: Set<string>): void {
    const forEach = stage.forEach;
    if (!forEach) {
      if (itemEnds.size) this.#error(`${at}/steps`, "only a list stage (with `forEach`) can end an item");
      for (const [stepName, step] of Object.entries(stage.steps)) {
        if (step.kind === "changes" && step.since === "item") {
          this.#error(
            `${at}/steps/${escapeToken(stepName)}/since`,
            "only a list stage has items to compare with",
          );
        }
      }
      return;
    }
    if (stageOutcomes.size) {
      this.#error(`${at}/steps`, 'a list stage\'s steps end items (`{ "endItem": … }`), not the stage');
    }
    if (!itemEnds.size) this.#error(`${at}/steps`, "no step ends an item");
    stageOutcomes.add("finished");
    if (itemEnds.has("stopped")) stageOutcomes.add("stopped");
    if (forEach.from === "input" && this.manifest.input === undefined) {
      this.#error(`${at}/forEach/from`, "the workflow declares no `input` to read items from");
    }
    if (forEach.inputTo !== undefined && this.manifest.input === undefined) {
      this.#error(`${at}/forEach/inputTo`, "the workflow declares no `input` to write");
    }
    const verify = forEach.verifyStep;
    if (verify !== undefined && stage.steps[verify]?.kind !== "command") {
      this.#error(`${at}/forEach/verifyStep`, `no command step "${verify}" in this stage`);
    }
  }

  /** Checks one step and returns the outcomes it can produce (undefined when they cannot be known). */
  #checkStep(stageName: string, stepName: string, at: string, step: StepDef): string[] | undefined {
    switch (step.kind) {
      case "agent":
        return this.#checkAgent(`${stageName}/${stepName}`, at, step);
      case "ask":
        if ((step.questions === undefined) === (step.questionsFrom === undefined)) {
          this.#error(at, "needs exactly one of `questions` or `questionsFrom`");
        }
        this.#unique(`${at}/questions`, step.questions ?? [], (question) => question.id, "question id");
        step.questions?.forEach((question, index) =>
          this.#unique(
            `${at}/questions/${index}/options`,
            question.options ?? [],
            (option) => option.id,
            "option id",
          )
        );
        break;
      case "confirm":
        if (step.context === undefined && step.evidence === undefined) {
          this.#error(at, "needs `context`, `evidence` or both: what the person confirms");
        }
        break;
      case "check":
        step.rules.forEach((rule, index) => {
          if ("schema" in rule) this.#schema(`${at}/rules/${index}/schema`, rule.schema);
          else if (!Object.hasOwn(this.manifest.stages, rule.covers.stage)) {
            this.#error(`${at}/rules/${index}/covers/stage`, `no stage "${rule.covers.stage}"`);
          }
        });
        break;
      case "command":
        this.#checkCommandFolder(`${at}/cwd`, step.cwd);
        break;
    }
    return FIXED_OUTCOMES[step.kind as keyof typeof FIXED_OUTCOMES];
  }

  #checkAgent(key: string, at: string, step: Extract<StepDef, { kind: "agent" }>): string[] | undefined {
    const instructions = this.source.files.get(step.instructions);
    if (!instructions || instructions.kind === "symlink") {
      this.#error(`${at}/instructions`, `${this.source.label}/${step.instructions}: missing`);
    } else {
      // The text as read is what the version covers, even if the file changes after this load.
      try {
        const text = readWorkflowText(this.source, instructions);
        this.#instructions.set(key, text);
        this.#declared.set(step.instructions, { kind: "text", text });
      } catch (error) {
        this.#error(`${at}/instructions`, unreadable(error));
      }
    }
    step.skills?.forEach((name, index) => {
      if (this.#skills.has(name)) return;
      const skill = loadSkill(this.source, name);
      if ("errors" in skill) {
        skill.errors.forEach((message) => this.#error(`${at}/skills/${index}`, message));
        return;
      }
      this.#skills.set(name, skill);
      this.#declared.set(skillFilePath(name), { kind: "text", text: skill.text });
      for (const asset of skill.assets) this.#declared.set(assetPath(asset.id), asset.file);
    });
    const tools = step.tools ?? [];
    this.#unique(`${at}/tools`, tools, (tool) => tool.id, "tool id");
    tools.forEach((tool, index) => {
      if (tool.kind === "submit_state" && tool.target === undefined) {
        this.#error(`${at}/tools/${index}`, "a submit_state tool needs a `target` pointer");
      }
      if (tool.kind !== "submit_state" && tool.target !== undefined) {
        this.#error(`${at}/tools/${index}/target`, "only submit_state tools take a target");
      }
    });
    this.#schema(`${at}/output/schema`, step.output.schema);
    const outcomes = declaredOutcomes(step.output.schema);
    if (!outcomes) {
      this.#error(`${at}/output/schema`, "must declare properties.outcome with a non-empty string enum");
    } else if (!(step.output.schema.required as unknown[] | undefined)?.includes("outcome")) {
      this.#error(`${at}/output/schema/required`, 'must list "outcome"');
    }
    return outcomes;
  }

  /**
   * A publish path must stay in the project and off `.git`, `.weft` and `.env*`; the folders it names before
   * any placeholder must not be links (checked again, whole, at each write). Its template is read now, so
   * the version covers it, and parsed, so a broken one is refused here rather than at a commit.
   */
  #checkPublish(stageName: string, at: string, publish: NonNullable<StageDef["publish"]>): void {
    const problem = publishPathProblem(publish.path);
    if (problem) this.#error(`${at}/path`, `${publish.path}: ${problem}`);
    else if (this.source.tree !== undefined) {
      const folders = fixedFolders(publish.path);
      for (let i = 1; i <= folders.length; i++) {
        const folder = folders.slice(0, i).join("/");
        const info = this.source.tree.stat(folders.slice(0, i));
        if (info?.kind === "symlink") {
          this.#error(
            `${at}/path`,
            `${publish.path}: the folder ${folder} is a symbolic link; weft does not follow links`,
          );
          break;
        }
        if (info && info.kind !== "folder") {
          this.#error(`${at}/path`, `${publish.path}: ${folder} is not a folder`);
          break;
        }
      }
    }
    if (publish.template === undefined) return;
    const file = this.source.files.get(publish.template);
    if (!file || file.kind === "symlink") {
      this.#error(`${at}/template`, `${this.source.label}/${publish.template}: missing`);
      return;
    }
    try {
      const text = readWorkflowText(this.source, file);
      const broken = templateProblem(text);
      if (broken) this.#error(`${at}/template`, `${this.source.label}/${publish.template}: ${broken}`);
      this.#templates.set(stageName, text);
      this.#declared.set(publish.template, { kind: "text", text });
    } catch (error) {
      this.#error(`${at}/template`, unreadable(error));
    }
  }

  /** A command's folder must stay in the project; a project workflow's is checked on disk too. */
  #checkCommandFolder(at: string, cwd: string | undefined): void {
    if (cwd === undefined) return;
    const verdict = this.source.tree === undefined
      ? commandFolderSegments(cwd)
      : resolveCommandFolder(this.source.tree, cwd);
    if (!verdict.ok) this.#error(at, verdict.reason);
  }

  #unique<T>(at: string, items: T[], key: (item: T) => string, what: string): void {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (seen.has(key(item))) this.#error(`${at}/${index}`, `duplicate ${what} "${key(item)}"`);
      seen.add(key(item));
    });
  }

  #checkReachable<T>(at: string, entry: string, nodes: Record<string, T>, next: (node: T) => string[]): void {
    const seen = new Set<string>();
    const queue = nodes[entry] ? [entry] : [];
    while (queue.length) {
      const name = queue.pop()!;
      if (seen.has(name)) continue;
      seen.add(name);
      queue.push(...next(nodes[name]).filter((target) => nodes[target] && !seen.has(target)));
    }
    for (const name of Object.keys(nodes)) {
      if (!seen.has(name)) this.#error(`${at}/${escapeToken(name)}`, "unreachable from the entry");
    }
  }
}
