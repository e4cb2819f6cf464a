/**
 * Starting a Run: a ready workflow and an intent, through `flow` on Studio's endpoint (so the service runs
 * its agent steps). A workflow that cannot run here is listed, disabled, with the reason the service gives.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { useState } from "./preact.ts";
import { connection, type StudioError } from "./connection.ts";
import { useLoad } from "./hooks.ts";
import { html } from "./html.ts";
import { navigate } from "./route.ts";
import { useTrustGrants } from "./trust_notice.ts";
import type { RunView, WorkflowView } from "./types.ts";

/** Why a workflow cannot start here, or undefined when it can. */
function whyNot(workflow: WorkflowView): string | undefined {
  if (workflow.ready) return undefined;
  return workflow.reason ?? (workflow.available ? "not ready" : "it did not load");
}

/** The Start view. */
export function StartPage(): ComponentChildren {
  // Trusting the project's models can make workflows ready.
  const loaded = useLoad(
    `workflows-${useTrustGrants()}`,
    () => connection.call<{ workflows: WorkflowView[] }>("list_workflows"),
    ["weft://runs"],
  );
  const workflows = loaded.data?.workflows ?? [];
  const [chosen, setChosen] = useState("");
  const [intent, setIntent] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const firstReady = workflows.find((workflow) => workflow.ready)?.name ?? "";
  const flowName = chosen || firstReady;
  const selected = workflows.find((workflow) => workflow.name === flowName);

  const start = async (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    if (!flowName) return setProblem("No workflow can start here; the list says why.");
    if (!intent.trim()) return setProblem("Write the intent: what the Run should achieve.");
    setBusy(true);
    try {
      const { run } = await connection.call<{ run: RunView }>("flow", { flowName, intent });
      navigate({ view: "run", runId: run.runId });
    } catch (error) {
      setProblem((error as StudioError).message);
    } finally {
      setBusy(false);
    }
  };

  return html`<section>
    <h2>Start a Run</h2>
    ${loaded.error && html`<p role="alert" class="problem">${loaded.error.message}</p>`}
    <form class="start" onSubmit=${start}>
      <label for="start-workflow">Workflow</label>
      <select id="start-workflow" value=${flowName} aria-describedby="start-about"
        onChange=${(event: Event) => setChosen((event.currentTarget as HTMLSelectElement).value)}>
        ${
    workflows.map((workflow) => {
      const reason = whyNot(workflow);
      return html`<option key=${workflow.name} value=${workflow.name} disabled=${reason !== undefined}>
            ${workflow.title} (${workflow.name})${reason ? ` — not ready: ${reason}` : ""}
          </option>`;
    })
  }
      </select>
      <p id="start-about" class="hint">${selected?.description ?? ""}</p>
      <label for="start-intent">Intent</label>
      <textarea id="start-intent" rows="5" value=${intent}
        onInput=${(event: Event) => setIntent((event.currentTarget as HTMLTextAreaElement).value)}></textarea>
      ${problem && html`<p role="alert" class="problem">${problem}</p>`}
      <div class="buttons"><button type="submit" disabled=${busy}>Start Run</button></div>
    </form>
    <h3>Workflows</h3>
    <ul class="workflows">
      ${
    workflows.map((workflow) => {
      const reason = whyNot(workflow);
      return html`<li key=${workflow.name} class=${reason ? "not-ready" : ""}>
          <strong>${workflow.title}</strong> <span class="muted">(${workflow.name}, stages: ${
        workflow.stages.join(", ")
      })</span>
          ${reason ? html`<p>Not ready: ${reason}</p>` : html`<p class="muted">Ready</p>`}
        </li>`;
    })
  }
    </ul>
  </section>`;
}
