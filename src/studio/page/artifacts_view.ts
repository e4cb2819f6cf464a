/**
 * Artifacts: the list by workflow and stage, and one Artifact with every revision (each linked to the Run
 * that committed it, with its Record on demand) and the diff between any two. Revisions never change once
 * committed, so each is read once per page load.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { useState } from "./preact.ts";
import { connection } from "./connection.ts";
import { DiffView } from "./diff_view.ts";
import { useLoad } from "./hooks.ts";
import { html } from "./html.ts";
import { Readable } from "./readable.ts";
import { formatRoute, navigate, type Route } from "./route.ts";
import type { ArtifactView, RecordView } from "./types.ts";

type ListRoute = Extract<Route, { view: "artifacts" }>;
type ArtifactRoute = Extract<Route, { view: "artifact" }>;

/** Pages of list_artifacts read at most for the list (200 Artifacts each). */
const MAX_LIST_PAGES = 25;

async function allArtifacts(route: ListRoute): Promise<ArtifactView[]> {
  const artifacts: ArtifactView[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const result = await connection.call<{ artifacts: ArtifactView[]; nextCursor?: string }>(
      "list_artifacts",
      {
        ...(route.workflow ? { flowName: route.workflow } : {}),
        ...(route.workflow && route.stage ? { stageName: route.stage } : {}),
        limit: 200,
        ...(cursor ? { cursor } : {}),
      },
    );
    artifacts.push(...result.artifacts);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return artifacts;
}

/** The Artifacts list, grouped by workflow, then stage. */
export function ArtifactsPage(props: { route: ListRoute }): ComponentChildren {
  const { route } = props;
  const loaded = useLoad(formatRoute(route), () => allArtifacts(route), ["weft://runs"]);
  const byWorkflow = Map.groupBy(loaded.data ?? [], (artifact) => artifact.flowName);
  const filtered = route.workflow || route.stage;
  return html`<section>
    <h2>Artifacts</h2>
    ${
    filtered &&
    html`<p>Showing ${route.workflow}${
      route.stage ? ` / ${route.stage}` : ""
    }. <a href="#/artifacts">All Artifacts</a></p>`
  }
    ${loaded.error && html`<p role="alert" class="problem">${loaded.error.message}</p>`}
    ${
    loaded.data && loaded.data.length === 0 &&
    html`<p class="muted">No stage has committed an Artifact yet.</p>`
  }
    ${
    [...byWorkflow.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([flowName, artifacts]) =>
      html`
        <section key=${flowName} class="artifact-group">
          <h3><a href=${formatRoute({
            view: "artifacts",
            workflow: flowName,
            stage: "",
          })}>${flowName}</a></h3>
          <ul>
                  ${artifacts.sort((a, b) => a.stageName.localeCompare(b.stageName)).map((artifact) =>
                    html`
                      <li key=${artifact.artifactId}>
                        <a href=${formatRoute({
                          view: "artifact",
                          workflow: flowName,
                          stage: artifact.stageName,
                          name: artifact.artifactId,
                        })}>
                                      ${artifact.stageName}</a>
                        <span class="muted"> · revision ${artifact.revision} · ${new Date(artifact.updatedAt)
                          .toLocaleString()} · </span>
                        <a href=${formatRoute({ view: "run", runId: artifact.runId })}>Run</a>
                      </li>
                    `
                  )}
                </ul>
        </section>
      `
    )
  }
  </section>`;
}

/** Revisions read so far, by flow, stage and revision: a committed revision never changes. */
const revisions = new Map<string, ArtifactView>();

async function revisionOf(flowName: string, stageName: string, revision: number): Promise<ArtifactView> {
  const key = JSON.stringify([flowName, stageName, revision]);
  const known = revisions.get(key);
  if (known) return known;
  const { artifact } = await connection.call<{ artifact: ArtifactView | null }>("get_artifact", {
    flowName,
    stageName,
    revision,
  });
  if (!artifact) throw new Error(`revision ${revision} of ${flowName}/${stageName} is missing`);
  revisions.set(key, artifact);
  return artifact;
}

/** Every revision of the stage's Artifact, oldest first. */
async function loadRevisions(route: ArtifactRoute): Promise<ArtifactView[]> {
  const { artifact } = await connection.call<{ artifact: ArtifactView | null }>("get_artifact", {
    flowName: route.workflow,
    stageName: route.stage,
  });
  if (!artifact) return [];
  const all: ArtifactView[] = [];
  for (let revision = 1; revision < artifact.revision; revision++) {
    all.push(await revisionOf(route.workflow, route.stage, revision));
  }
  all.push(artifact);
  return all;
}

/** One Artifact: its revisions and the diff between two of them. */
export function ArtifactPage(props: { route: ArtifactRoute }): ComponentChildren {
  const { route } = props;
  const loaded = useLoad(
    JSON.stringify([route.workflow, route.stage]),
    () => loadRevisions(route),
    [`weft://artifacts/${route.workflow}/${route.stage}`],
  );
  const all = loaded.data ?? [];
  const latest = all.length;
  const to = Math.min(route.to ?? latest, latest);
  const from = Math.min(route.from ?? Math.max(1, to - 1), latest);
  const pick = (change: { from?: number; to?: number }) => navigate({ ...route, from, to, ...change }, true);
  const revisionSelect = (name: string, value: number, onPick: (revision: number) => void) =>
    html`<label>${name}
      <select value=${String(value)} onChange=${(event: Event) =>
      onPick(Number((event.currentTarget as HTMLSelectElement).value))}>
        ${
      all.map((artifact) =>
        html`<option key=${artifact.revision} value=${
          String(artifact.revision)
        }>${artifact.revision}</option>`
      )
    }
      </select>
    </label>`;

  return html`<section>
    <h2>${route.workflow} / ${route.stage}</h2>
    <p><a href=${
    formatRoute({ view: "artifacts", workflow: route.workflow, stage: "" })
  }>All Artifacts of ${route.workflow}</a></p>
    ${loaded.error && html`<p role="alert" class="problem">${loaded.error.message}</p>`}
    ${loaded.data && latest === 0 && html`<p class="muted">This stage has not committed an Artifact yet.</p>`}
    ${
    latest > 0 && html`
      <h3>Revisions</h3>
      <table aria-label="Revisions">
        <thead>
          <tr>
            <th scope="col">Revision</th>
            <th scope="col">Committed</th>
            <th scope="col">Run</th>
            <th scope="col">Record</th>
          </tr>
        </thead>
        <tbody>
          ${[...all].reverse().map((artifact) =>
            html`
              <tr key=${artifact.revision}>
                <td>${artifact.revision}</td>
                <td><time datetime=${artifact.updatedAt}>${new Date(artifact.updatedAt)
                  .toLocaleString()}</time></td>
                <td><a href=${formatRoute({ view: "run", runId: artifact.runId })}>Run of revision ${artifact
                  .revision}</a></td>
                <td>
                  <${RecordDetails} recordId=${artifact.recordId} revision=${artifact.revision} />
                </td>
              </tr>
            `
          )}
        </tbody>
      </table>
      <h3>Compare</h3>
      <div class="filters">
        ${revisionSelect("From revision", from, (revision) => pick({ from: revision }))}
        ${revisionSelect("To revision", to, (revision) => pick({ to: revision }))}
      </div>
      <${DiffView} before=${all[from - 1]?.data} after=${all[to - 1]?.data} from=${from} to=${to} />
      <section aria-labelledby="revision-data">
        <h3 id="revision-data">Revision ${to}</h3>
        ${publicationNote(all[to - 1]?.publication)}
        ${to === latest && html`<${EditedFiles} route=${route} artifactId=${all[latest - 1].artifactId} />`}
        <div class="context">
          <${Readable} value=${all[to - 1]?.data} level=${4} markdown=${all[to - 1]?.markdown} />
        </div>
      </section>
    `
  }
  </section>`;
}

/** Where a revision was published, or why its file was left as it was. */
function publicationNote(publication: ArtifactView["publication"]): ComponentChildren {
  if (!publication) return null;
  if (publication.status === "published") {
    return html`<p class="muted">Published to <code>${publication.path}</code></p>`;
  }
  const what = publication.status === "skipped" ? "Not written to" : "Publishing failed for";
  return html`<p class="messages">${what} <code>${publication.path}</code>: ${publication.message}</p>`;
}

/** A published file a person changed since weft wrote it, as `status` reports it. */
interface Drift {
  path: string;
  artifactId: string;
  revision: number;
  state: "edited" | "missing";
}

/**
 * The Artifact's published files a person edited, each with the button that brings the edit back: a
 * revision Run, which the page then shows (it waits for the person's confirmation there).
 */
function EditedFiles(props: { route: ArtifactRoute; artifactId: string }): ComponentChildren {
  const { route, artifactId } = props;
  const loaded = useLoad(
    `drift:${artifactId}`,
    () => connection.call<{ service: { publications: { changed: Drift[] } } }>("status", {}),
    [`weft://artifacts/${route.workflow}/${route.stage}`],
  );
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");
  const edited = (loaded.data?.service.publications.changed ?? [])
    .filter((drift) => drift.artifactId === artifactId && drift.state === "edited");
  const revise = async (path: string) => {
    setBusy(true);
    setProblem("");
    try {
      const { run } = await connection.call<{ run: { runId: string } }>("revise_artifact", { path });
      navigate({ view: "run", runId: run.runId });
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      setBusy(false);
    }
  };
  return html`${
    edited.map((drift) =>
      html`<p key=${drift.path} class="messages">
        <code>${drift.path}</code> was edited since weft wrote revision ${drift.revision} there.
        <button type="button" disabled=${busy} onClick=${() =>
        revise(drift.path)}>Revise from this file</button>
      </p>`
    )
  }${problem && html`<p role="alert" class="problem">${problem}</p>`}`;
}

/** A Record, read when opened: what was committed and the answers it came from. */
function RecordDetails(props: { recordId: string; revision: number }): ComponentChildren {
  const [open, setOpen] = useState(false);
  return html`<details onToggle=${(event: Event) =>
    setOpen((event.currentTarget as HTMLDetailsElement).open)}>
    <summary>Record of revision ${props.revision}</summary>
    ${open && html`<${RecordBody} recordId=${props.recordId} />`}
  </details>`;
}

function RecordBody(props: { recordId: string }): ComponentChildren {
  const loaded = useLoad(
    props.recordId,
    () => connection.call<{ record: RecordView | null }>("get_record", { recordId: props.recordId }),
    [],
  );
  if (loaded.error) return html`<p role="alert" class="problem">${loaded.error.message}</p>`;
  const record = loaded.data?.record;
  if (!record) return html`<p class="muted">${loaded.loading ? "Loading…" : "No such Record."}</p>`;
  return html`
    <div class="record">
      <p class="muted">${record.recordId} · <a href=${formatRoute({
        view: "run",
        runId: record.runId,
      })}>its Run</a></p>
      <h4>Answers it came from</h4>
      <${Readable} value=${record.answers} level=${5} />
    </div>
  `;
}
