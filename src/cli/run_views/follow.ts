/**
 * Following a Run at the terminal (`weft attach`, and `flow` and `retry` after they start one): it subscribes
 * to the Run (and, on a terminal, to its running command's output) and reads it again when the service says it
 * changed, asks the person what the Run asks of them, shows a live indicator while an agent or a command
 * works, and at the end reports where the Run stands.
 *
 * @module
 */

import type { WeftClient } from "../../client/weft_client.ts";
import { isActive, type RunView } from "../../client/views.ts";
import { WeftError } from "../../errors.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { CommandFailure } from "../command_line/failure.ts";
import { elapsed, hint, outputWidth, paint, printJson, type Stream, truncate } from "../terminal/format.ts";
import { Prompter } from "../terminal/prompt.ts";
import { describeAction, promptAnswer } from "./action_prompts.ts";
import { agentHint, waitsForIdeAgent } from "./agent_request.ts";
import { commandOutputUri, CommandTail } from "./command_tail.ts";
import { describeReasons, NO_CONTEXT, type RunContext, runContext } from "./run_context.ts";
import { ModelProgress } from "./model_progress.ts";
import { describeRun, waitingFor } from "./run_view.ts";
import { redraw, say } from "../terminal/screen.ts";
import { argvText } from "../../lib/argv_text.ts";
import { visibleLine } from "../../lib/visible_text.ts";

/** How often the live indicator is redrawn (the service is not asked). */
const REDRAW_MS = 500;
/** A safety re-read when no notification came for this long, in case one was lost with a connection. */
const REREAD_MS = 5 * 60_000;

/** How {@linkcode follow} behaves. */
export interface FollowOptions {
  /** Prompt at the terminal and show a live indicator while an agent works; otherwise stop at any wait. */
  interactive: boolean;
  /** Where progress goes: stdout for people, stderr when stdout carries JSON. */
  progress: Stream;
  /** An answer given up front (a script's JSON) for the first pending action, optionally pinned to its id. */
  answer?: { value: unknown; actionId?: string };
}

/**
 * Follows the Run until it ends, or until it waits for something this terminal cannot give: an answer
 * when not interactive, or an agent when not interactive. Resolves with the Run as last seen.
 */
export async function follow(client: WeftClient, start: RunView, options: FollowOptions): Promise<RunView> {
  const note = (text: string) => say(text, options.progress);
  const indicator = new Indicator(options.progress);
  const output = new CommandTail(options.progress);
  const model = new ModelProgress(options.progress, output);
  let prompter: Prompter | undefined;
  let answer = options.answer;
  // The IDE's agent is told once per wait for it: again after the person answered here, since an agent in
  // an IDE's chat usually ends its turn at a question for the person.
  let toldAgent = false;
  const runUri = `weft://runs/${start.runId}`;
  const outputUri = commandOutputUri(start.runId);
  // Subscribe before reading again, so that no change between the two goes unnoticed.
  const watch = await client.watch(options.interactive ? [runUri, outputUri] : [runUri]);
  const printLine = (line: string) => {
    indicator.clear();
    note(line);
  };
  let run = isActive(start.status) ? await getRun(client, start.runId) : start;
  const detach = () => {
    // Ctrl-C leaves the Run as it is: clear the live line, say how to come back, and end without an error.
    indicator.clear();
    note(
      `\ndetached; the Run goes on. ${hint("come back with", `weft attach ${run.runId}`, options.progress)}`,
    );
    Deno.exit(EXIT.OK);
  };
  if (options.interactive) Deno.addSignalListener("SIGINT", detach);
  try {
    while (isActive(run.status)) {
      if (options.interactive) {
        await model.update(client, run, printLine);
        if (run.pendingCommand?.phase === "running") await output.update(client, run.runId, printLine);
      }
      const action = run.status === "waiting" ? run.pendingAction : undefined;
      if (action) {
        indicator.clear();
        if (answer) {
          if (answer.actionId && answer.actionId !== action.id) {
            throw new CommandFailure(
              "CONFLICT",
              `the Run waits for action ${action.id}, not ${answer.actionId}`,
              `look at what it asks with \`weft attach ${run.runId} --no-interactive\``,
            );
          }
          run = await answerAsk(client, run, action.id, answer.value);
          answer = undefined;
          note(paint("green", "✓ answer recorded", options.progress));
          continue;
        }
        if (!options.interactive) break;
        prompter ??= new Prompter();
        const reasons = describeReasons((await runContext(client, run)).reasons, prompter.output);
        if (reasons) prompter.write(`\n${reasons}\n`);
        const value = await promptAnswer(action, prompter);
        if (value === null) {
          note("\ninput ended; the Run keeps waiting for you");
          break;
        }
        run = await answerOrExplain(client, run, action.id, value, note, options.progress);
        toldAgent = false;
        continue;
      }
      if (run.status === "waiting" && !options.interactive) break;
      if (waitsForIdeAgent(run) && !toldAgent) {
        printLine(agentHint(run, options.progress));
        toldAgent = true;
      }
      let waited = 0;
      while (true) {
        if (options.interactive) indicator.show(activity(run, output));
        const wait = options.interactive ? REDRAW_MS : REREAD_MS;
        const changed = await watch.next(wait);
        // The Run first: its start line comes before the output, and its end shows the rest of it.
        if (changed.has(runUri)) break;
        if (changed.has(outputUri)) await output.update(client, run.runId, printLine);
        else if ((waited += wait) >= REREAD_MS) break;
      }
      run = await getRun(client, run.runId);
    }
    // What the Run did on its way to its end (a command's last lines and how it ended, say) comes after it.
    if (options.interactive && !isActive(run.status)) await model.update(client, run, printLine);
  } finally {
    await watch.close();
    if (options.interactive) Deno.removeSignalListener("SIGINT", detach);
    indicator.clear();
    await prompter?.close();
  }
  if (answer) {
    throw new CommandFailure(
      "CONFLICT",
      `the Run is ${run.status} and waits for no answer`,
      `look at it with \`weft run ${run.runId}\``,
    );
  }
  return run;
}

/**
 * Prints where a followed Run stands: the Run (JSON or human), and, when it still waits for a person who
 * was not asked here, why it asks again (if it does), what it asks and how a script would answer.
 */
export function report(run: RunView, json: boolean, context: RunContext = NO_CONTEXT): void {
  if (json) return printJson({ run });
  say(describeRun(run, context));
  if (context.reasons.length) say(describeReasons(context.reasons));
  if (run.status === "waiting" && run.pendingAction) {
    say(describeAction(run.pendingAction));
    say(hint("or from a script", `weft attach ${run.runId} --answer-json - < answer.json`));
  }
}

/** The Run `runId` as the service has it now. */
export async function getRun(client: WeftClient, runId: string): Promise<RunView> {
  return (await client.call<{ run: RunView }>("get_run", { runId })).run;
}

async function answerAsk(
  client: WeftClient,
  run: RunView,
  actionId: string,
  answer: unknown,
): Promise<RunView> {
  return (await client.call<{ run: RunView }>("answer_ask", { runId: run.runId, actionId, answer })).run;
}

/** Submits a prompted answer; a refusal is explained and the Run looked at again, so the person retries. */
async function answerOrExplain(
  client: WeftClient,
  run: RunView,
  actionId: string,
  answer: unknown,
  note: (text: string) => void,
  stream: Stream,
): Promise<RunView> {
  try {
    const next = await answerAsk(client, run, actionId, answer);
    note(paint("green", "✓ answer recorded", stream));
    return next;
  } catch (error) {
    if (!(error instanceof WeftError) || !["INVALID_REQUEST", "CONFLICT"].includes(error.code)) throw error;
    const why = error.code === "CONFLICT" ? "it was answered elsewhere or has changed" : error.message;
    note(paint("yellow", `the service did not take that answer: ${why}`, stream));
    return await getRun(client, run.runId);
  }
}

/** What the live line says the Run is doing, and for how long; a running command says what it runs. */
function activity(run: RunView, output: CommandTail): { what: string; time: string } {
  const command = output.current;
  if (run.pendingCommand?.phase === "running" && command?.commandId === run.pendingCommand.id) {
    return {
      what: `${run.cursor.stageName}/${run.cursor.stepName}: running ${argvText(command.run)}`,
      time: elapsed(Date.now() - Date.parse(command.startedAt)),
    };
  }
  const since = run.pendingAgentCall?.createdAt ?? run.updatedAt;
  const what = run.status === "waiting"
    ? `waiting for ${waitingFor(run)}`
    : `running ${run.cursor.stageName} / ${run.cursor.stepName}`;
  return { what, time: elapsed(Date.now() - Date.parse(since)) };
}

/** A one-line live indicator, redrawn in place; drawn only on a terminal. */
class Indicator {
  static readonly FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
  #frame = 0;
  #shown = false;

  constructor(readonly stream: Stream) {}

  /** Draws `what` and, after it, `time`, which a narrow terminal keeps while it shortens `what`. */
  show(activity: { what: string; time: string }): void {
    if (!this.stream.isTerminal()) return;
    const frame = Indicator.FRAMES[this.#frame++ % Indicator.FRAMES.length];
    // One row only: a wrapped line would leave its first rows behind when it is redrawn.
    const room = outputWidth(this.stream) - activity.time.length - 6;
    // Shown as it will be (escapes and all) before it is cut to the room it has.
    const what = room >= 20 ? truncate(visibleLine(activity.what), room) : visibleLine(activity.what);
    const text = `${paint("cyan", frame, this.stream)} ${what} · ${activity.time}`;
    redraw(text, this.stream);
    this.#shown = true;
  }

  clear(): void {
    if (!this.#shown) return;
    redraw("", this.stream);
    this.#shown = false;
  }
}
