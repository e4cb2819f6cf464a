/**
 * Support of the CLI tests: a project workflow that only asks people (so a Run created from the terminal
 * waits for a person, never for an agent), and `weft` driven through a pseudo-terminal.
 *
 * @module
 */

import { within } from "../support/deadline.ts";
import { humanFlow, workflowFiles } from "../support/workflows.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** How every colour escape starts. */
export const ESC = "\x1b[";

/** A workflow of ask, confirm and commit steps: one question of each kind, then a confirmation. */
export const NOTES_WORKFLOW = humanFlow({
  name: "notes",
  title: "Release notes",
  description: "Asks who reads the notes and what stands out, has it confirmed, commits it.",
  stage: "draft",
  questions: [
    {
      id: "audience",
      question: "Who reads these notes?",
      options: [{ id: "users", label: "Users" }, { id: "devs", label: "Developers" }],
    },
    { id: "highlight", question: "What is the highlight?" },
    { id: "extra", question: "Anything else?", isSkippable: true },
  ],
  state: { schema: { type: "object" }, initial: {} },
  check: null,
  budgets: { ask: 2 },
  feedbackTo: "/feedback",
});

/** A complete, valid answer to the questions of {@linkcode NOTES_WORKFLOW}. */
export const NOTES_ANSWER = [
  { questionId: "audience", isSkipped: false, answer: "Users" },
  { questionId: "highlight", isSkipped: false, answer: "Faster starts" },
  { questionId: "extra", isSkipped: true },
];

/** {@linkcode NOTES_ANSWER} as a Run records it: the audience, sent by its label, kept by its option's id. */
export const NOTES_RECORDED = NOTES_ANSWER.map((answer) =>
  answer.questionId === "audience" ? { ...answer, answer: "users", label: "Users" } : answer
);

/** The files of a temporary project that offers {@linkcode NOTES_WORKFLOW}. */
export const NOTES_PROJECT = workflowFiles(NOTES_WORKFLOW);

/** `weft` running in a pseudo-terminal (`script` from util-linux): stdin, stdout and stderr are a TTY. */
export class Terminal {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #output = "";
  #reading: Promise<void>;
  #waiters: (() => void)[] = [];

  /**
   * `stdoutPiped`: weft's stdout goes through a pipe (`| cat`), as when its output is kept in a file. `args`
   * is either weft's arguments or, as a string, a command line the shell runs as a person typed it.
   */
  constructor(
    args: string[] | string,
    options: { cwd: string; env?: Record<string, string>; stdoutPiped?: boolean },
  ) {
    const weft = typeof args === "string"
      ? args
      : [Deno.execPath(), "run", "-A", MAIN, ...args].map(quote).join(" ");
    // `exec`: whatever shell `script` starts ($SHELL, else dash) must not stay between the terminal and
    // weft, or Ctrl-C also kills that shell and `script` reports 130 whatever weft did.
    const command = options.stdoutPiped ? `${weft} | cat` : `exec ${weft}`;
    const child = new Deno.Command("script", {
      args: ["-qfec", command, "/dev/null"],
      cwd: options.cwd,
      // Colour is decided by the test, never by a NO_COLOR that the machine running the tests happens to set.
      clearEnv: true,
      env: { ...withoutNoColor(Deno.env.toObject()), TERM: "xterm", ...options.env },
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#reading = (async () => {
      for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
        this.#output += chunk;
        for (const wake of this.#waiters.splice(0)) wake();
      }
      for (const wake of this.#waiters.splice(0)) wake();
    })();
  }

  /** Everything the terminal showed so far. */
  get output(): string {
    return this.#output;
  }

  /**
   * Resolves once the output holds `text` after `from`; rejects if the program ends first or the deadline
   * passes, showing what the terminal showed.
   */
  waitFor(text: string, from = 0): Promise<number> {
    const wait = async () => {
      while (true) {
        const at = this.#output.indexOf(text, from);
        if (at >= 0) return at + text.length;
        let ended = false;
        await Promise.race([
          new Promise<void>((resolve) => this.#waiters.push(resolve)),
          this.#reading.then(() => ended = true),
        ]);
        if (ended && !this.#output.includes(text, from)) {
          throw new Error(
            `the terminal ended without showing ${JSON.stringify(text)}; it showed:\n${this.#output}`,
          );
        }
      }
    };
    return within(() => `the terminal to show ${JSON.stringify(text)}; it showed:\n${this.#output}`, wait());
  }

  /** Types `line` and Enter. */
  async type(line: string): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(line + "\r"));
  }

  /** Presses Ctrl-C: the terminal turns it into SIGINT for the program. */
  async interrupt(): Promise<void> {
    await this.#writer.write(new Uint8Array([3]));
  }

  /** Waits for the program to end; resolves with its exit code. */
  async exit(): Promise<number> {
    await this.#writer.close().catch(() => {});
    const status = await within("the program in the terminal to exit", this.#child.status);
    await within("the terminal to close", this.#reading);
    return status.code;
  }

  /** Ends the program if it still runs (cleanup after a failed assertion). */
  async kill(): Promise<void> {
    try {
      this.#child.kill("SIGKILL");
    } catch {
      // already ended
    }
    await this.exit();
  }
}

function withoutNoColor(env: Record<string, string>): Record<string, string> {
  const { NO_COLOR: _, ...rest } = env;
  return rest;
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}
