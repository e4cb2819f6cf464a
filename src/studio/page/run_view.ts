/**
 * One Run: its intent (as text), status and where it is, the form of its pending action, Cancel and Retry,
 * the board of its tasks when it works through a list, its timeline, and the raw data on demand. It follows
 * `weft://runs/<id>`, so an answer, a cancel or an agent's progress made anywhere shows within a moment.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { useEffect, useRef, useState } from "./preact.ts";
import { agentName } from "./agent_words.ts";
import { agentRequest, waitsForIdeAgent } from "../../client/agent_request.ts";
import { AnswerForm } from "./answer_form.ts";
import { whyAskedAgain } from "./asked_again.ts";
import { CancelRun } from "./cancel_run.ts";
import { connection, type StudioError } from "./connection.ts";
import { useLoad } from "./hooks.ts";
import { html } from "./html.ts";
import { TaskBoard } from "./task_board.ts";
import { Timeline } from "./timeline.ts";
import { canRetry, isActive, type RunEvent, type RunView, sourceName } from "./types.ts";
import { argvText } from "../../lib/argv_text.ts";

interface RunData {
  run: RunView;
  timeline: RunEvent[];
}

/** The page of Run `runId`. */
export function RunPage(props: { runId: string }): ComponentChildren {
  const { runId } = props;
  const loaded = useLoad<RunData>(
    runId,
    async () => {
      const result = await connection.call<{ run: RunView; timeline?: RunEvent[] }>("get_run", {
        runId,
        timeline: true,
      });
      return { run: result.run, timeline: result.timeline ?? [] };
    },
    [`weft://runs/${runId}`],
  );
  const [conflict, setConflict] = useState<{ runId: string; message: string } | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const section = useRef<HTMLElement>(null);
  // The action on screen, and whether this page is the one changing it (an answer or a cancel sent here).
  const shown = useRef<{ actionId?: string; ours: boolean; focus: boolean }>({ ours: false, focus: false });
  const actionId = loaded.data?.run.pendingAction?.id;
  useEffect(() => {
    if (!loaded.data) return;
    const previous = shown.current;
    if (previous.actionId && previous.actionId !== actionId && !previous.ours) {
      setConflict({ runId, message: changedElsewhere(previous.actionId, loaded.data) });
    }
    if (previous.focus && actionId !== previous.actionId) {
      // Keyboard use goes on where the person is: the next form's first field, or the new status.
      const target =
        section.current?.querySelector<HTMLElement>("form.answer :is(input, textarea, button)") ??
          section.current?.querySelector<HTMLElement>(".status");
      target?.focus();
    }
    shown.current = { actionId, ours: false, focus: false };
  }, [actionId, loaded.data?.run.status]);

  if (!loaded.data) {
    return loaded.error
      ? html`
        <section>
          <h2>Run ${runId}</h2>
          <p role="alert" class="problem">${loaded.error.message}</p>
        </section>
      `
      : html`
        <section>
          <h2>Run</h2>
          <p class="muted">Loading…</p>
        </section>
      `;
  }
  const { run, timeline } = loaded.data;
  const act = async (tool: "cancel_run" | "retry_run") => {
    shown.current.ours = true;
    setBusy(true);
    setProblem(undefined);
    try {
      await connection.call(tool, { runId });
    } catch (error) {
      setProblem((error as StudioError).message);
    } finally {
      setBusy(false);
      loaded.reload();
    }
  };
  const onConflict = (message: string) => {
    setConflict({ runId, message: `The service said: ${message}` });
    loaded.reload();
  };
  const onSubmitting = (sent: boolean) => {
    shown.current.ours = sent;
    shown.current.focus = sent;
  };

  return html`<section class="run" ref=${section}>
    <h2 class="intent">${run.title ?? run.intent}</h2>
    <p class="status" tabindex="-1">Status: <span class=${`badge ${run.status}`}>${run.status}</span></p>
    <dl class="facts">
      <div><dt>Run</dt><dd><code>${run.runId}</code></dd></div>
      ${
    run.title && html`
      <div>
        <dt>Intent</dt>
        <dd>${run.intent}</dd>
      </div>
    `
  }
      <div><dt>Workflow</dt><dd>${run.flowName}</dd></div>
      <div><dt>Where</dt><dd>${run.cursor.stageName} / ${run.cursor.stepName}</dd></div>
      <div><dt>Started from</dt><dd>${sourceName(run.execution.source)}</dd></div>
      ${
    run.revisionOf && html`
      <div>
        <dt>Revises</dt>
        <dd>${run.revisionOf.artifactId} (revision ${run.revisionOf.fromRevision}) from the edited <code>${run
          .revisionOf.path}</code></dd>
      </div>
    `
  }
      <div><dt>Created</dt><dd><time datetime=${run.createdAt}>${
    new Date(run.createdAt).toLocaleString()
  }</time></dd></div>
    </dl>
    ${run.lastError && html`<p class="problem">${run.lastError.code}: ${run.lastError.message}</p>`}
    ${
    run.next && html`
      <p
        class="next">Next: ${run.next
          .say} <code>${`weft flow ${run.next.flowName} --intent ${run.next.intent}`}</code> (or start <strong>${run
          .next.flowName}</strong> here with this Run's id as the intent).</p>
    `
  }
    ${
    conflict?.runId === runId && html`
      <div role="alert" class="conflict">
        <p><strong>This Run changed elsewhere meanwhile.</strong> ${conflict
          .message} Below is where it is now.</p>
      </div>
    `
  }
    ${run.pendingAction && html`<${AskedAgain} reasons=${whyAskedAgain(timeline)} />`}
    ${
    run.pendingAction && run.list
      ? html`
        <div class="beside-board">
          <${AnswerForm} key=${run.pendingAction.id} run=${run} action=${run
            .pendingAction} onConflict=${onConflict}
            onSubmitting=${onSubmitting} />
          <${TaskBoard} list=${run.list} timeline=${timeline} />
        </div>
      `
      : run.pendingAction && html`
        <${AnswerForm} key=${run.pendingAction.id} run=${run} action=${run
          .pendingAction} onConflict=${onConflict}
          onSubmitting=${onSubmitting} />
      `
  }
    ${
    run.pendingAgentCall && html`<p class="waiting">
      ${`Waiting for ${
      agentName(run.execution.agentExecutor)
    } (${run.pendingAgentCall.agentId}, ${run.pendingAgentCall.phase}).`}
    </p>`
  }
    ${
    waitsForIdeAgent(run) && html`<p class="agent-request">
      No model of weft's is configured: tell your IDE's agent <q>${agentRequest(run)}</q>
    </p>`
  }
    ${run.pendingCommand && html`<p class="waiting">${commandWait(run.pendingCommand)}</p>`}
    <div class="buttons">
      ${isActive(run) && html`<${CancelRun} busy=${busy} onCancel=${() => act("cancel_run")} />`}
      ${
    canRetry(run) && html`<button type="button" disabled=${busy} onClick=${() =>
      act("retry_run")}>Retry</button>`
  }
    </div>
    ${problem && html`<p role="alert" class="problem">${problem}</p>`}
    ${run.list && !run.pendingAction && html`<${TaskBoard} list=${run.list} timeline=${timeline} />`}
    <h3>Timeline</h3>
    <${Timeline} events=${timeline} run=${run} />
    <${RawJson} value=${loaded.data} />
  </section>`;
}

/** What a Run waiting on its command waits for, in words. */
function commandWait(command: NonNullable<RunView["pendingCommand"]>): string {
  const shown = typeof command.run === "string"
    ? `the project command "${command.run}"`
    : argvText(command.run);
  if (command.phase === "untrusted") return `Waiting for your trust of ${shown}: ${command.reason ?? ""}`;
  return command.phase === "running" ? `Running ${shown}.` : `Waiting for a free slot to run ${shown}.`;
}

/** Why the pending action is asked again, above its form; nothing when it is asked the first time. */
function AskedAgain(props: { reasons: string[] }): ComponentChildren {
  if (props.reasons.length === 0) return null;
  return html`
    <section class="asked-again" aria-labelledby="asked-again">
      <h3 id="asked-again">This comes back because</h3>
      <ul>${props.reasons.map((reason, i) => html`<li key=${i} class="text">${reason}</li>`)}</ul>
    </section>
  `;
}

/** Why the action `actionId` left the screen without this page doing it. */
function changedElsewhere(actionId: string, data: RunData): string {
  const answered = data.timeline.findLast((event) =>
    event.type === "action_answered" && event.actionId === actionId
  );
  if (answered) {
    return `What you were answering was answered through ${sourceName(answered.source)}.`;
  }
  if (data.run.status === "cancelled") return "The Run was cancelled.";
  return "What you were answering is no longer asked.";
}

/** The Run and its timeline as JSON, rendered only while open. */
function RawJson(props: { value: unknown }): ComponentChildren {
  const [open, setOpen] = useState(false);
  return html`<details class="json" onToggle=${(event: Event) =>
    setOpen((event.currentTarget as HTMLDetailsElement).open)}>
    <summary>JSON</summary>
    ${open && html`<pre>${JSON.stringify(props.value, null, 2)}</pre>`}
  </details>`;
}
