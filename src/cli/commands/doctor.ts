/**
 * `weft doctor`: checks the project and its service and says, for each finding, the command that fixes it.
 *
 * The service is asked first (status, workflows, publications). What it cannot say while it is down is read
 * from `.weft/` directly and from the project's files as the service would read them (`src/service/inspect.ts`),
 * read-only: doctor never changes anything. The checks are in `src/cli/doctor/`: of the service and `.weft/`
 * (`state_findings.ts`), of the project's files (`project_findings.ts`).
 *
 * @module
 */

import type { WorkflowView } from "../../client/views.ts";
import { inspectLock } from "../../weft_dir/lock.ts";
import { type WeftPaths, weftPaths } from "../../weft_dir/paths.ts";
import { UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { paint, printJson } from "../terminal/format.ts";
import { observeService } from "../../client/observe.ts";
import { loadProjectWorkflows } from "../../service/inspect.ts";
import { withClient } from "../../client/weft_client.ts";
import type { Finding } from "../doctor/finding.ts";
import { processFinding } from "../doctor/process_findings.ts";
import {
  modelFindings,
  publicationFindings,
  type Publications,
  schemaFindings,
  workflowFindings,
} from "../doctor/project_findings.ts";
import {
  gitFindings,
  leftovers,
  portFinding,
  serviceFinding,
  trustFinding,
} from "../doctor/state_findings.ts";
import { say } from "../terminal/screen.ts";

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
tokens and answers), whether a command step's processes that leave its process group end with
it on this system, whether the schema \`weft init\` wrote is this weft's, whether you trust
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
        say(
          `${mark} ${paint("bold", f.check.padEnd(width))}  ${
            f.message.replaceAll("\n", "\n" + " ".repeat(width + 4))
          }`,
        );
        if (f.fix) say(`${" ".repeat(width + 4)}${paint("dim", "fix:")} ${f.fix}`);
      }
      say(
        problems
          ? paint("red", `\n${problems} problem${problems === 1 ? "" : "s"} found`)
          : "\nno problems found",
      );
    }
    return problems ? EXIT.FAILURE : EXIT.OK;
  },
});

/** Every finding, in the order doctor prints them. */
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
  findings.push(processFinding());
  return findings;
}
