/**
 * The commands of the docs run as written: every ```sh block of README.md and docs/*.md is read from the
 * files themselves (so the test follows them wherever they move), and its `weft …` and
 * `npx -y deno@2.9.6 run -A main.ts …` lines (and `npx -y deno@2.9.6 task start`) run in order, each block in
 * a fresh project, after the steps before it. A block that cannot run here says why on the line before it:
 * `<!-- not run: the reason -->`.
 *
 * Between the lines the test plays the person the docs address: after `attach` (which asks at a terminal) it
 * answers what the Run asks through `weft attach RUN --answer-json -`; `flow` leaves the Run waiting, as it
 * does without a terminal. `RUN` and `REC` stand for the last Run and Record the commands printed. The project paths of the examples name the project.
 */

import assert from "node:assert/strict";
import { resolve } from "node:path";
import { StreamText, within } from "../support/deadline.ts";
import { runWeft, tempProject } from "../support/service.ts";
import { shellWords } from "../support/shell_words.ts";

const ROOT = resolve(import.meta.dirname!, "../..");
const MAIN = `${ROOT}/main.ts`;
const DENO = `npx -y deno@${Deno.version.deno}`;
/** The project paths the docs write for "your project". */
const PROJECT_PATHS = ["~/code/my-project", "/home/you/project"];
/** Commands that run until stopped: each is stopped once it has shown something. */
const LONG_RUNNING = (args: string[]) => args.includes("--follow");

/** One runnable ```sh block: where it is, and its command lines. */
interface Block {
  where: string;
  lines: string[];
}

async function readBlocks(): Promise<Block[]> {
  const files = ["README.md", ...[...Deno.readDirSync(`${ROOT}/docs`)].map((e) => `docs/${e.name}`)]
    .filter((file) => file.endsWith(".md")).sort();
  const blocks: Block[] = [];
  for (const file of files) {
    const text = await Deno.readTextFile(`${ROOT}/${file}`);
    for (const match of text.matchAll(/(?:^|\n)([^\n]*)\n```(?:sh|bash|shell)\n([^]*?)\n```/g)) {
      if (/<!-- not run: .+ -->/.test(match[1])) continue;
      const lines = match[2].split("\n").map((line) => line.trim()).filter((line) =>
        line.startsWith("weft ") || line.startsWith(`${DENO} run -A main.ts `) ||
        line.startsWith(`${DENO} task start`)
      );
      const lineNo = text.slice(0, match.index).split("\n").length + 1;
      if (lines.length) blocks.push({ where: `${file}:${lineNo}`, lines });
    }
  }
  return blocks;
}

/** The arguments of `weft` a documented line stands for, with the example's placeholders filled in. */
function weftArgs(line: string, seen: { run?: string; record?: string }, project: string): string[] {
  const words = shellWords(line).map((word) => {
    if (PROJECT_PATHS.includes(word)) return project;
    if (word === "RUN") return seen.run ?? assert.fail(`${line}: no Run printed before it`);
    if (word === "REC") return seen.record ?? assert.fail(`${line}: no Record printed before it`);
    return word;
  });
  if (words[0] === "weft") return words.slice(1);
  if (words[3] === "task") return ["start", ...words.slice(5)]; // `deno task start` is `main.ts start`
  return words.slice(6);
}

/** Plays the person at the prompts: answers every question and confirmation the Run waits for. */
async function answerAsAPerson(runId: string, cwd: string): Promise<void> {
  for (let step = 0; step < 10; step++) {
    const { stdout } = await runWeft(["run", runId, "--json"], { cwd });
    const action = JSON.parse(stdout).run.pendingAction;
    if (!action) return;
    const answer = action.kind === "user_ask_confirmation" ? { isConfirmed: true } : action.request.questions
      .map((q: { id: string; options?: { label: string }[] }) => ({
        questionId: q.id,
        isSkipped: false,
        answer: q.options?.[0].label ?? "Notes for 1.2",
      }));
    const answered = await runWeft(["attach", runId, "--answer-json", "-"], {
      cwd,
      stdin: JSON.stringify(answer),
    });
    assert.equal(answered.code, 0, answered.stderr);
  }
  assert.fail(`Run ${runId} kept asking`);
}

/** Runs a command that keeps running until it has printed something, then stops it as Ctrl-C would. */
async function runUntilItShows(args: string[], cwd: string): Promise<{ code: number; stdout: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    cwd,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const stdout = new StreamText(child.stdout, `weft ${args.join(" ")}`);
  await stdout.until("\n");
  child.kill("SIGTERM");
  const { code } = await within(`weft ${args.join(" ")} to stop`, child.status);
  return { code, stdout: stdout.text };
}

const blocks = await readBlocks();

Deno.test("the docs show the commands a newcomer runs first", () => {
  const all = blocks.flatMap((block) => block.lines);
  assert.ok(all.length >= 15, `only ${all.length} runnable commands found`);
  for (const command of ["init", "flow", "attach", "artifact", "record"]) {
    assert.ok(all.some((line) => shellWords(line).includes(command)), `no runnable \`${command}\` line`);
  }
});

for (const block of blocks) {
  Deno.test(`the commands of ${block.where} run as written, in order`, async () => {
    const project = await tempProject();
    const seen: { run?: string; record?: string } = {};
    try {
      for (const line of block.lines) {
        const args = weftArgs(line, seen, project);
        // The quick start's lines run from the checkout, whose main.ts they name; the others in the project.
        const cwd = line.startsWith("weft ") ? project : ROOT;
        const { code, stdout, stderr } = line.startsWith(`${DENO} task`)
          ? await runWeft(["task", "--quiet", ...args], { cwd, program: [] })
          : LONG_RUNNING(args)
          ? { ...await runUntilItShows(args, cwd), stderr: "" }
          : await runWeft(args, { cwd, env: { BROWSER: "true" } });
        assert.equal(code, 0, `${block.where}: \`${line}\` exited ${code}:\n${stdout}\n${stderr}`);
        seen.run = [...`${stdout}${stderr}`.matchAll(/\brun_[\w-]{22}\b/g)].at(-1)?.[0] ?? seen.run;
        seen.record = [...stdout.matchAll(/\brec_[\w-]{22}\b/g)].at(-1)?.[0] ?? seen.record;
        if (seen.run && args[0] === "attach") await answerAsAPerson(seen.run, project);
      }
    } finally {
      await runWeft(["stop", "--project", project]);
      await Deno.remove(project, { recursive: true });
    }
  });
}
