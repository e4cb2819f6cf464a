/**
 * `weft doctor`: checks the project and its service and says, for each finding, the command that fixes it.
 *
 * The service is asked first (status, workflows, publications). What it cannot say while it is down is read
 * from `.weft/` directly and from the project's files as the service would read them (`src/service/inspect.ts`),
 * read-only: doctor never changes anything.
 *
 * @module
 */

import { join, relative } from "node:path";
import type { WorkflowView } from "../../client/views.ts";
import { readConnection } from "../../weft_dir/connection.ts";
import { inspectLock, type LockState } from "../../weft_dir/lock.ts";
import { type WeftPaths, weftPaths } from "../../weft_dir/paths.ts";
import { UNTRUSTED_FIX, UntrustedStateError } from "../../weft_dir/trust.ts";
import { UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { paint, printJson } from "../terminal/format.ts";
import { observeService, type ServiceReport } from "../../client/observe.ts";
import { inspectModels, loadProjectWorkflows, type ModelsInspection } from "../../service/inspect.ts";
import { withClient } from "../../client/weft_client.ts";
import { CONFIG_SCHEMA_PATH, PROJECT_SCHEMAS } from "../scaffold/scaffold.ts";
import { VERSION } from "../../version.ts";

/** One thing doctor found: fine, worth knowing, or a problem, with the command that fixes it. */
export interface Finding {
  check:
    | "service"
    | "leftovers"
    | "port"
    | "workflows"
    | "schema"
    | "modes"
    | "git"
    | "model"
    | "trust"
    | "publications";
  state: "ok" | "note" | "problem";
  message: string;
  fix?: string;
}

/** `weft doctor` */
export const doctorCommand = defineCommand({
  name: "doctor",
  summary: "check the project and its service; each finding comes with its fix",
  synopsis: "doctor",
  description: `Checks this project and its service, and gives each problem the command that fixes it:
whether the service runs, leftovers of a crashed service (a stale lock, half-written files),
whether the port used last time is taken, workflows that fail to load and why (file and
JSON pointer), whether .weft/ is weft's own (owned by you, modes 0700/0600, no links, not
tracked by git; state that is not is never used), whether git would track .weft/ (it holds
tokens and answers), whether the schema \`weft init\` wrote is this weft's, whether you trust
this project's weft.json (\`weft trust\`), whether the service has a model for agent steps, and
which files weft published were edited or removed since (weft leaves an edited file as it is).
The project's model servers are asked only once you trust it.`,
  json: 'print { "findings": [{ check, state: ok|note|problem, message, fix? }], "problems" }',
  notes: "Exit code 0 when no problem is found, 1 otherwise. Doctor never changes anything.",
  async run({ positionals, projectDir, json }) {
    if (positionals.length) throw new UsageError("takes no arguments");
    const paths = weftPaths(projectDir);
    const findings = await examine(paths);
    const problems = findings.filter((f) => f.state === "problem").length;
    if (json) printJson({ findings, problems });
    else {
      const width = Math.max(...findings.map((f) => f.check.length));
      for (const f of findings) {
        const mark = f.state === "ok"
          ? paint("green", "✓")
          : f.state === "note"
          ? paint("yellow", "•")
          : paint("red", "✗");
        console.log(
          `${mark} ${paint("bold", f.check.padEnd(width))}  ${
            f.message.replaceAll("\n", "\n" + " ".repeat(width + 4))
          }`,
        );
        if (f.fix) console.log(`${" ".repeat(width + 4)}${paint("dim", "fix:")} ${f.fix}`);
      }
      console.log(
        problems
          ? paint("red", `\n${problems} problem${problems === 1 ? "" : "s"} found`)
          : "\nno problems found",
      );
    }
    return problems ? EXIT.FAILURE : EXIT.OK;
  },
});

async function examine(paths: WeftPaths): Promise<Finding[]> {
  const trust = await trustFinding(paths);
  // Untrusted state is not read at all: its lock, metadata and port mean nothing.
  if (trust.state === "problem") {
    return [
      trust,
      ...workflowFindings(loadProjectWorkflows(paths.projectDir)),
      ...await schemaFindings(paths.projectDir),
      ...await gitFindings(paths),
    ];
  }
  const lock = await inspectLock(paths);
  const status = await observeService(paths.projectDir);
  const findings: Finding[] = [serviceFinding(status, lock), ...await leftovers(paths, lock)];
  if (status.state === "running") {
    findings.push({ check: "port", state: "ok", message: `the service listens on ${status.url}` });
    const { workflows, publications } = await withClient(paths.projectDir, async (client) => ({
      ...await client.call<{ workflows: WorkflowView[] }>("list_workflows"),
      ...(await client.call<{ service: { publications: Publications } }>("status")).service,
    }));
    findings.push(...workflowFindings(workflows));
    findings.push(...publicationFindings(publications));
    findings.push(...await modelFindings(paths.projectDir, workflows));
  } else {
    findings.push(...await portFinding(paths));
    findings.push(...workflowFindings(loadProjectWorkflows(paths.projectDir)));
    findings.push(...await modelFindings(paths.projectDir, []));
  }
  findings.push(...await schemaFindings(paths.projectDir));
  findings.push(trust);
  findings.push(...await gitFindings(paths));
  return findings;
}

/** What `status` says of the files weft published. */
interface Publications {
  files: number;
  changed: { path: string; revision: number; state: "edited" | "missing" }[];
}

/** Published files a person changed since weft wrote them: kept as they are, and weft says so. */
function publicationFindings(publications: Publications): Finding[] {
  if (publications.files === 0) return [];
  if (publications.changed.length === 0) {
    const { files } = publications;
    const message = files === 1
      ? "the published file is as weft wrote it"
      : `the ${files} published files are as weft wrote them`;
    return [{ check: "publications", state: "ok", message }];
  }
  return [{
    check: "publications",
    state: "note",
    message: publications.changed.map((file) =>
      file.state === "edited"
        ? `${file.path} was edited since weft wrote revision ${file.revision}; weft leaves it as it is`
        : `${file.path} (revision ${file.revision}) was removed; the next commit writes it again`
    ).join("\n"),
    fix: "`weft revise PATH` brings the edit back as the next revision once you confirm it; or delete the " +
      "file to let weft write it again",
  }];
}

function serviceFinding(status: ServiceReport, lock: LockState): Finding {
  if (status.state === "running") {
    return { check: "service", state: "ok", message: `running at ${status.url} (pid ${status.pid})` };
  }
  if (status.state === "needs_recovery" && lock.kind !== "stale") {
    return {
      check: "service",
      state: "problem",
      message: status.reason,
      fix: "check the process named above; `weft stop` refuses to signal a process it cannot verify",
    };
  }
  return { check: "service", state: "note", message: "not running", fix: "weft start" };
}

async function leftovers(paths: WeftPaths, lock: LockState): Promise<Finding[]> {
  const findings: Finding[] = [];
  if (lock.kind === "stale") {
    findings.push({
      check: "leftovers",
      state: "problem",
      message: `a crashed service left ${show(paths.lock)}: ${lock.reason}`,
      fix: "weft start  (it verifies the old process is gone and clears the lock safely)",
    });
  }
  for (const name of await listDir(paths.weftDir)) {
    if (/^\.connection\..*\.tmp$/.test(name)) {
      findings.push({
        check: "leftovers",
        state: "problem",
        message: `a half-written metadata file was left behind: ${name}`,
        fix: `rm ${show(`${paths.weftDir}/${name}`)}`,
      });
    }
  }
  if (!findings.length) {
    findings.push({ check: "leftovers", state: "ok", message: "no stale lock or temporary files" });
  }
  return findings;
}

/** While the service is down, the port it used last time will be tried first on the next start. */
async function portFinding(paths: WeftPaths): Promise<Finding[]> {
  const connection = await readConnection(paths).catch(() => null);
  if (!connection) return [];
  try {
    Deno.listen({ hostname: "127.0.0.1", port: connection.port }).close();
    return [{ check: "port", state: "ok", message: `port ${connection.port} (used last time) is free` }];
  } catch (error) {
    if (!(error instanceof Deno.errors.AddrInUse)) throw error;
    return [{
      check: "port",
      state: "note",
      message: `port ${connection.port}, used last time, is taken by another program; ` +
        "the next start picks another port (clients read the new one from .weft/connection.json)",
      fix: `stop the program on port ${connection.port}, or choose a port: weft start --port <N>`,
    }];
  }
}

/** What doctor needs to know of a workflow to say whether it loads. */
type Loading = Pick<WorkflowView, "name" | "available" | "reason">;

function workflowFindings(workflows: Loading[]): Finding[] {
  const broken = workflows.filter((w) => !w.available);
  if (!broken.length) {
    return [{
      check: "workflows",
      state: "ok",
      message: `${workflows.length} workflow(s) load without errors`,
    }];
  }
  return broken.map((w) => ({
    check: "workflows" as const,
    state: "problem" as const,
    message: `workflow "${w.name}" does not load:\n${w.reason ?? "(no reason given)"}`,
    // A workflow name has no dot: one that does is a JSON file placed directly in workflows/.
    fix:
      (w.name.endsWith(".json")
        ? `move workflows/${w.name} to workflows/<name>/workflow.json, <name> being its "name"; `
        : `edit workflows/${w.name}/ as each line says; `) +
      "the service picks up edits without a restart (docs/workflows.md describes the format)",
  }));
}

/**
 * The schemas `weft init` wrote for editors: weft never rewrites them by itself, so after an upgrade they may
 * describe an older format. A schema the project does not have is nothing to report.
 */
async function schemaFindings(projectDir: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const { path, text: expected } of PROJECT_SCHEMAS) {
    let text: string;
    try {
      text = await Deno.readTextFile(join(projectDir, path));
    } catch {
      continue;
    }
    findings.push(
      text === expected ? { check: "schema", state: "ok", message: `${path} is weft ${VERSION}'s` } : {
        check: "schema",
        state: "note",
        message: `${path} differs from weft ${VERSION}'s (an older weft wrote it, or it was edited); ` +
          "editors may flag valid fields or miss wrong ones",
        fix: "weft init  (rewrites only the schemas that differ)",
      },
    );
  }
  return findings;
}

/**
 * The service's model roles: each one configured is checked over the network (its server answers, accepts
 * the key, lists the model); without any, a note says what cannot run from the terminal. Keys are read
 * from this shell's environment, which should match the service's.
 */
async function modelFindings(projectDir: string, workflows: WorkflowView[]): Promise<Finding[]> {
  const models = inspectModels(projectDir);
  const trust = projectTrustFindings(models);
  const configured = models.roles.filter((role) => role.configured);
  if (!configured.length) {
    const needing = workflows.filter((w) => w.available && w.hasAgentSteps).map((w) => w.name);
    return [...trust, {
      check: "model",
      state: "note",
      message: "no service-side model is configured (weft.json)" +
        (needing.length
          ? `\nfrom the terminal, workflows with agent steps cannot run: ${needing.join(", ")}`
          : ""),
      fix: "configure one in weft.json (docs/models.md), or start those from your IDE's agent: " +
        "weft config <codex|claude|cursor|vscode>",
    }];
  }
  return [
    ...trust,
    ...await Promise.all(configured.map(async (readiness): Promise<Finding> => {
      const { role } = readiness;
      if (!readiness.resolves || !readiness.ready) {
        const what = readiness.provider
          ? ` (${readiness.provider} ${readiness.model} at ${readiness.baseURL}, key ${
            readiness.apiKeyEnv ?? "none"
          }, from ${origin(readiness.origin, readiness.trusted)})`
          : "";
        return {
          check: "model",
          state: "problem",
          message: `role "${role}"${what}: ${readiness.reason}`,
          fix: readiness.trusted === false
            ? "weft trust  (shows what weft.json asks for, then asks)"
            : readiness.resolves
            ? "see docs/models.md"
            : `correct weft.json against ${CONFIG_SCHEMA_PATH} (weft init writes it)`,
        };
      }
      // Only an entry the person configured or trusted is ever dialled.
      const checked = await models.probe(role);
      return {
        check: "model",
        state: checked.ok ? "ok" : "problem",
        message: `${checked.message} (from ${origin(readiness.origin, readiness.trusted)})`,
        fix: checked.fix,
      };
    })),
  ];
}

function origin(from: string | undefined, trusted: boolean | undefined): string {
  return from === "user" ? "your user file" : `weft.json, ${trusted ? "trusted" : "not trusted"}`;
}

/** Whether the person trusts the project's weft.json, and a trust record weft cannot read. */
function projectTrustFindings(models: ModelsInspection): Finding[] {
  const findings: Finding[] = [];
  if (models.trustRecordProblem !== undefined) {
    findings.push({
      check: "trust",
      state: "problem",
      message:
        `the project trust record cannot be used, so no project is trusted: ${models.trustRecordProblem}`,
      fix: "remove that file, then `weft trust` in each project you trust",
    });
  }
  const review = models.trust;
  if (review.state === "trusted") {
    findings.push({
      check: "trust",
      state: "ok",
      message: `you trust weft.json's models (${review.digest})`,
    });
  } else if (review.state === "not_trusted") {
    findings.push({
      check: "trust",
      state: "problem",
      message: `weft.json names ${review.roles.length} model role(s) you have not trusted ` +
        `(${review.roles.map((role) => role.role).join(", ")}): none is used or dialled until you do`,
      fix: "weft trust  (shows each role's provider, URL, key variable and model, then asks)",
    });
  }
  return findings;
}

/** Whether `.weft/` is weft's own (owner, exact modes, no links, not tracked by git): never changed here. */
async function trustFinding(paths: WeftPaths): Promise<Finding> {
  let finding: string | null = null;
  try {
    // Reading the metadata checks the folder, its entries and the URL it names, and changes nothing.
    await readConnection(paths);
  } catch (error) {
    if (!(error instanceof UntrustedStateError)) throw error;
    finding = error.finding;
  }
  if (finding === null) {
    return {
      check: "modes",
      state: "ok",
      message: "owner-only modes on .weft/, no links, not tracked by git",
    };
  }
  return {
    check: "modes",
    state: "problem",
    message: `${finding}: weft does not use this .weft/ (it did not make it for you on this machine)`,
    fix: UNTRUSTED_FIX,
  };
}

/** `.weft/` holds tokens and answers: git must neither track it nor take it with the next `git add .`. */
async function gitFindings(paths: WeftPaths): Promise<Finding[]> {
  if ((await listDir(paths.weftDir)).length === 0) return [];
  const git = async (...args: string[]) => {
    const command = new Deno.Command("git", { args: ["-C", paths.projectDir, ...args], stdin: "null" });
    const output = await command.output().catch(() => undefined);
    return {
      ok: output?.success === true,
      lines: new TextDecoder().decode(output?.stdout).split("\n").filter(Boolean),
    };
  };
  // No git, or a project outside any repository: nothing can be committed by accident.
  if (!(await git("rev-parse", "--is-inside-work-tree")).ok) return [];
  const tracked = (await git("ls-files", "--", ".weft")).lines;
  if (tracked.length) {
    return [{
      check: "git",
      state: "problem",
      message: `git tracks ${tracked.length} file(s) of .weft/ (${tracked.slice(0, 3).join(", ")}${
        tracked.length > 3 ? ", …" : ""
      }); they hold tokens and answers`,
      fix: "git rm -r --cached .weft, then commit; treat the tokens as leaked: weft stop, " +
        "rm .weft/connection.json, weft start (new tokens)",
    }];
  }
  // check-ignore succeeds when git ignores the path: then `git add .` passes .weft/ by.
  if (!(await git("check-ignore", "-q", "--", ".weft/connection.json")).ok) {
    return [{
      check: "git",
      state: "problem",
      message: "git would add .weft/ (tokens and answers) with the next `git add .`",
      fix: `printf '*\\n' > ${show(paths.gitignore)}  (weft start writes it when it is missing)`,
    }];
  }
  return [{ check: "git", state: "ok", message: "git ignores .weft/" }];
}

async function listDir(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return names;
}

/** A path as a person would type it from here: relative when inside the working directory. */
function show(path: string): string {
  const rel = relative(Deno.cwd(), path);
  return rel && !rel.startsWith("..") ? rel : path;
}
