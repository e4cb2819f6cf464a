/**
 * A Run's timeline as a person reads it: its stages, the steps entered in each (every visit), and under each
 * step what happened there: agent calls with their tool calls and model turns, answers with the endpoint
 * they came through, checks with their messages, commits with links to the Artifact.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { claimedText } from "./agent_words.ts";
import { html } from "./html.ts";
import { Readable } from "./readable.ts";
import { formatRoute } from "./route.ts";
import { LiveCommandOutput, StoredCommandOutput } from "./command_output.ts";
import { type RunEvent, type RunView, sourceName } from "./types.ts";
import { argvText } from "../../lib/argv_text.ts";
import { answeredLine } from "../../client/answer_channel.ts";

interface StepGroup {
  key: number;
  name: string;
  title: string;
  events: RunEvent[];
}

interface StageGroup {
  key: number;
  title: string;
  steps: StepGroup[];
  loose: RunEvent[];
}

/** The events grouped by stage and step visit; events before the first stage make a group of their own. */
export function groupTimeline(events: RunEvent[]): StageGroup[] {
  const stages: StageGroup[] = [];
  let stage: StageGroup | undefined;
  let step: StepGroup | undefined;
  for (const event of events) {
    if (event.type === "stage_entered" || !stage) {
      stage = {
        key: event.seq,
        title: event.type === "stage_entered" ? `Stage ${event.stageName}` : "Run",
        steps: [],
        loose: [],
      };
      stages.push(stage);
      step = undefined;
      if (event.type === "stage_entered") continue;
    }
    if (event.type === "step_entered") {
      const visit = typeof event.visit === "number" && event.visit > 1 ? `, visit ${event.visit}` : "";
      step = {
        key: event.seq,
        name: event.stepName,
        title: `Step ${event.stepName} (${event.kind}${visit})`,
        events: [],
      };
      stage.steps.push(step);
      continue;
    }
    if (step && event.stepName === step.name) step.events.push(event);
    else stage.loose.push(event);
  }
  return stages;
}

/**
 * What the timeline's words depend on besides the events: the Run's workflow, who does its agent work, and
 * the command it runs now (whose entry shows the output as it arrives).
 */
export type TimelineRun = Pick<RunView, "runId" | "flowName" | "execution" | "pendingCommand">;

/** The timeline as a list named "Timeline". */
export function Timeline(props: { events: RunEvent[]; run: TimelineRun }): ComponentChildren {
  const stages = groupTimeline(props.events);
  return html`<ol class="timeline" aria-label="Timeline">
    ${
    stages.map((stage) =>
      html`<li key=${stage.key} class="stage">
        <span class="stage-title">${stage.title}</span>
        ${stage.loose.length > 0 && events(stage.loose, props.run)}
        ${
        stage.steps.length > 0 && html`<ol class="steps">
          ${
          stage.steps.map((step) =>
            html`<li key=${step.key} class="step">
              <span class="step-title">${step.title}</span>
              ${step.events.length > 0 && events(step.events, props.run)}
            </li>`
          )
        }
        </ol>`
      }
      </li>`
    )
  }
  </ol>`;
}

function events(list: RunEvent[], run: TimelineRun): ComponentChildren {
  return html`<ul class="events">
    ${
    list.map((event) =>
      html`<li key=${event.seq} class=${`event ${kindClass(event)}`}>${describeEvent(event, run)}
      <time datetime=${event.at} class="muted"> ${time(event.at)}</time></li>`
    )
  }
  </ul>`;
}

function kindClass(event: RunEvent): string {
  if (
    event.type === "model_turn" || event.type === "model_tool_call" || event.type === "state_submitted" ||
    event.type === "project_file_written"
  ) {
    return "nested";
  }
  if (
    event.type === "run_failed" || event.type === "agent_call_failed" || event.type === "run_interrupted" ||
    event.type === "publish_failed" || event.type === "publish_skipped" ||
    event.type === "changes_baseline_failed" ||
    (event.type === "command_ended" && event.outcome !== "passed") || event.type === "command_untrusted"
  ) {
    return "bad";
  }
  return "";
}

function time(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toLocaleString();
}

/** One event in words. */
function describeEvent(event: RunEvent, run: TimelineRun): ComponentChildren {
  switch (event.type) {
    case "run_created":
      return `Run created from ${sourceName(event.source)}`;
    case "agent_call_started":
      return `Agent call started: ${event.agentId}`;
    case "agent_call_claimed":
      return claimedText(run.execution.agentExecutor);
    case "state_submitted":
      return `Tool call ${event.toolId} wrote ${event.target || "the stage state"}`;
    case "model_turn": {
      const calls = Array.isArray(event.toolCalls) && event.toolCalls.length > 0
        ? event.toolCalls.join(", ")
        : "no tool call";
      return `Model turn ${event.turn} · ${event.model} · ${event.inputTokens ?? "?"} in / ${
        event.outputTokens ?? "?"
      } out tokens · ${event.ms} ms → ${calls}`;
    }
    case "model_tool_call":
      return `Tool call ${event.toolId}: ${event.outcome === "ok" ? "done" : event.outcome}`;
    case "project_file_written":
      return html`<span>Tool call ${event.toolId} ${
        event.status === "created" ? "created" : "changed"
      } <code>${event.path}</code></span>
        ${
        typeof event.diff === "string" && event.diff && html`
          <details class="command-output">
            <summary>diff${event.diffCutBytes
              ? ` (first part; ${event.diffCutBytes} bytes after it not kept)`
              : ""}</summary>
            <pre>${event.diff}</pre>
          </details>
        `
      }`;
    case "changes_baseline":
      return `Recorded the project's files as the ${
        event.baseline === "run" ? "Run" : event.baseline
      } begins`;
    case "changes_baseline_failed": {
      const error = event.error as { code?: string; message?: string } | undefined;
      return `The project's files could not be recorded: ${error?.code ?? ""} ${error?.message ?? ""}`.trim();
    }
    case "changes_read":
      return `Read what changed since the ${
        event.baseline === "run" ? "Run" : event.baseline
      } began: ${event.files} ${event.files === 1 ? "file" : "files"}`;
    case "agent_call_completed":
      return `Agent call completed: ${event.outcome}`;
    case "agent_call_failed":
      return `Agent call failed${event.code ? `: ${event.code}` : ""}`;
    case "action_requested":
      return event.kind === "user_ask_confirmation" ? "Waiting for a confirmation" : "Waiting for answers";
    case "action_answered":
      return html`
        <span class="answered-how">${answeredLine(event)}</span>
        <div class="answer-data">
          <${Readable} value=${event.answer} level=${5} />
        </div>
      `;
    case "ask_skipped":
      return `No questions to ask${event.reason ? ` (${event.reason})` : ""}`;
    case "check_evaluated": {
      const feedback = Array.isArray(event.feedback)
        ? event.feedback
        : event.feedback
        ? [event.feedback]
        : [];
      return html`<span>Check: ${event.outcome}</span>
        ${
        feedback.length > 0 && html`<ul class="messages">${
          feedback.map((line, i) => html`<li key=${i}>${String(line)}</li>`)
        }</ul>`
      }`;
    }
    case "artifact_committed": {
      const href = formatRoute({
        view: "artifact",
        workflow: run.flowName,
        stage: event.stageName,
        name: String(event.artifactId),
        to: Number(event.revision),
      });
      return html`<span>Artifact committed: <a href=${href}>revision ${event.revision}</a></span>`;
    }
    case "artifact_published":
      return `Published to ${event.path}`;
    case "revision_started":
      return `Revision of ${event.artifactId} (revision ${event.fromRevision}) from the edited ${event.path}`;
    case "publish_skipped":
      return `Not published: ${event.message}`;
    case "publish_failed": {
      const error = event.error as { code?: string; message?: string } | undefined;
      return `Publish failed: ${error?.code ?? ""} ${error?.message ?? ""}`.trim();
    }
    case "stage_ended":
      return `Stage ended: ${event.outcome}`;
    case "run_completed":
      return "Run completed";
    case "run_failed": {
      const error = event.error as { code?: string; message?: string } | undefined;
      return `Run failed: ${error?.code ?? ""} ${error?.message ?? ""}`.trim();
    }
    case "run_cancelled":
      return `Run cancelled from ${sourceName(event.source)}`;
    case "run_interrupted":
      return "Run interrupted: the service restarted while it worked";
    case "run_retried":
      return `Run retried from ${sourceName(event.source)} after ${event.after}`;
    case "run_moved":
      return "Run moved to the workflow's current version";
    case "command_requested":
      return "Command requested";
    case "command_started": {
      const running = run.pendingCommand?.phase === "running" && run.pendingCommand.id === event.commandId;
      return html`<span>Command started: <code>${argvText(event.run as string[])}</code></span>
        ${running && html`<${LiveCommandOutput} runId=${run.runId} commandId=${run.pendingCommand!.id} />`}`;
    }
    case "command_untrusted":
      return `Command not run: ${event.reason}`;
    case "command_ended":
      return html`<span>Command ${event.outcome}: ${
        event.timedOut ? "timed out" : event.signal ? `ended by ${event.signal}` : `exit ${event.exitCode}`
      } · ${event.durationMs} ms</span>
        ${
        ["stdout", "stderr"].map((name) => html`<${StoredCommandOutput} name=${name} value=${event[name]} />`)
      }`;
    case "command_failed":
      return `Command could not start: ${event.code}`;
    default:
      return event.type.replace(/_/g, " ");
  }
}
