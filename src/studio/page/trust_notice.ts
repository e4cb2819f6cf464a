/**
 * The notice shown while the project's files name models or commands the person has not trusted: each role as
 * `weft trust` shows it (provider, URL, key variable, model), each command (where it is declared, what it
 * runs, its folder and variables), the digest, and a Trust button that grants exactly the digest shown
 * (`trust_project`); content changed in between is refused and shown again.
 * Views whose readiness depends on trust (the Start view) reload when trust is granted.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { useEffect, useState } from "./preact.ts";
import { connection, type StudioError } from "./connection.ts";
import { useLoad } from "./hooks.ts";
import { html } from "./html.ts";
import { trustHeading } from "./trust_heading.ts";
import { argvText, shellWord } from "../../lib/argv_text.ts";
import { visibleLine } from "../../lib/visible_text.ts";

/** What `trust_project` reports. */
interface ProjectTrust {
  state: "trusted" | "not_trusted" | "nothing_to_trust";
  digest: string;
  roles: { role: string; provider: string; model: string; baseURL: string; apiKeyEnv?: string }[];
  content: {
    commands?: Record<string, string[]>;
    commandSteps?: {
      workflow: string;
      stage: string;
      step: string;
      run: string[] | string;
      fallback?: string[];
      cwd?: string;
      env: string[];
    }[];
    editSteps?: { workflow: string; stage: string; step: string; tools: string[] }[];
  };
}

const grantListeners = new Set<() => void>();

/** How many times trust was granted in this page: a key that makes a view reload after a grant. */
export function useTrustGrants(): number {
  const [grants, setGrants] = useState(0);
  useEffect(() => {
    const listener = () => setGrants((count) => count + 1);
    grantListeners.add(listener);
    return () => void grantListeners.delete(listener);
  }, []);
  return grants;
}

/** The notice, or nothing while the project's content is trusted or needs no trust. */
export function TrustNotice(): ComponentChildren {
  const grants = useTrustGrants();
  const loaded = useLoad(
    `project-trust-${grants}`,
    () => connection.call<{ trust: ProjectTrust }>("trust_project"),
    [],
  );
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const trust = loaded.data?.trust;
  if (!trust || trust.state !== "not_trusted") return null;

  const grant = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      await connection.call("trust_project", { digest: trust.digest });
      for (const listener of [...grantListeners]) listener();
    } catch (error) {
      setProblem((error as StudioError).message);
      loaded.reload();
    } finally {
      setBusy(false);
    }
  };

  return html`<section class="trust-notice" aria-labelledby="trust-title">
    <h2 id="trust-title">${trustHeading(trust)}</h2>
    ${
    trust.roles.length > 0 && html`
      <p>It names these models; each would receive the project's files and intents, and the value of its key
            variable. weft uses none of them, and your own user configuration applies, until you trust exactly this
            content.</p>
      <table aria-label="Models to trust">
        <thead>
          <tr>
            <th>Role</th>
            <th>Provider</th>
            <th>URL</th>
            <th>Key variable</th>
            <th>Model</th>
          </tr>
        </thead>
        <tbody>${trust.roles.map((role) =>
          html`
            <tr key=${role.role}>
              <td>${role.role}</td>
              <td>${role.provider}</td>
              <td><code>${role.baseURL}</code></td>
              <td>${role.apiKeyEnv ?? "none"}</td>
              <td>${role.model}</td>
            </tr>
          `
        )}</tbody>
      </table>
    `
  }
    <${CommandsToTrust} content=${trust.content} />
    <${EditsToTrust} content=${trust.content} />
    <p class="hint">digest <code>${trust.digest}</code></p>
    ${problem && html`<p role="alert" class="problem">${problem}</p>`}
    <div class="buttons"><button type="button" disabled=${busy} onClick=${grant}>Trust</button></div>
  </section>`;
}

/** The steps of the project's workflows that would let a model change files, each with the tools it declares. */
function EditsToTrust(props: { content: ProjectTrust["content"] }): ComponentChildren {
  const steps = props.content.editSteps ?? [];
  if (steps.length === 0) return null;
  return html`
    <p>It asks to let the agent of these steps change the project's files (never .git, .weft or .env*):</p>
    <table aria-label="File edits to trust">
      <thead>
        <tr>
          <th>Where</th>
          <th>Tools</th>
        </tr>
      </thead>
      <tbody>${steps.map((step) =>
        html`
          <tr key=${`${step.workflow} ${step.stage}/${step.step}`}>
            <td>${visibleLine(`${step.workflow} ${step.stage}/${step.step}`)}</td>
            <td>${visibleLine(step.tools.join(", "))}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

/** The commands the project would run, each exactly as trusted: where it is declared, vector, folder, variables. */
function CommandsToTrust(props: { content: ProjectTrust["content"] }): ComponentChildren {
  const rows = [
    ...Object.entries(props.content.commands ?? {}).map(([name, argv]) => ({
      where: `weft.json commands.${visibleLine(name)}`,
      runs: argvText(argv),
      cwd: "",
      env: "",
    })),
    ...(props.content.commandSteps ?? []).map((step) => ({
      where: visibleLine(`${step.workflow} ${step.stage}/${step.step}`),
      runs: typeof step.run === "string"
        ? [step.run, ...step.fallback ?? []].map((name) => `commands.${visibleLine(name)}`).join(" or ")
        : argvText(step.run),
      cwd: step.cwd === undefined ? "." : shellWord(step.cwd),
      env: argvText(step.env) || "none",
    })),
  ];
  if (rows.length === 0) return null;
  return html`
    <p>It asks to run these commands on this machine, as you, in the project:</p>
    <table aria-label="Commands to trust">
      <thead>
        <tr>
          <th>Where</th>
          <th>Runs</th>
          <th>Folder</th>
          <th>Variables</th>
        </tr>
      </thead>
      <tbody>${rows.map((row) =>
        html`
          <tr key=${row.where}>
            <td>${row.where}</td>
            <td><code>${row.runs}</code></td>
            <td>${row.cwd}</td>
            <td>${row.env}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}
