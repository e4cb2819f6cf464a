/**
 * What `weft doctor` finds of the project's service and its `.weft/`: whether the service runs, a crashed
 * one's leftovers, the port it used last, whether `.weft/` is weft's own and whether git would take it. All
 * read-only.
 *
 * @module
 */

import type { ServiceReport } from "../../client/observe.ts";
import { gitHolding } from "../../lib/hardened_git.ts";
import { readConnection } from "../../weft_dir/connection.ts";
import type { LockState } from "../../weft_dir/lock.ts";
import type { WeftPaths } from "../../weft_dir/paths.ts";
import { UNTRUSTED_FIX, UntrustedStateError } from "../../weft_dir/trust.ts";
import { type Finding, show } from "./finding.ts";

/** Whether the service runs, or why it needs recovery (a live process that does not answer). */
export function serviceFinding(status: ServiceReport, lock: LockState): Finding {
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

/** What a crashed service left in `.weft/`: a stale lock, half-written metadata. */
export async function leftovers(paths: WeftPaths, lock: LockState): Promise<Finding[]> {
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
export async function portFinding(paths: WeftPaths): Promise<Finding[]> {
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

/** Whether `.weft/` is weft's own (owner, exact modes, no links, not tracked by git): never changed here. */
export async function trustFinding(paths: WeftPaths): Promise<Finding> {
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
export async function gitFindings(paths: WeftPaths): Promise<Finding[]> {
  if ((await listDir(paths.weftDir)).length === 0) return [];
  const run = await gitHolding(paths.projectDir);
  const git = async (...args: string[]) => {
    const output = await run?.(args);
    return {
      ok: output?.ok === true,
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
