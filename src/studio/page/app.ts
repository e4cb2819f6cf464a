/**
 * The page's frame: the header (title, connection indicator, the count of Runs waiting for the person, the
 * navigation) and the view the address's hash names.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { useEffect, useRef } from "./preact.ts";
import { ArtifactPage, ArtifactsPage } from "./artifacts_view.ts";
import { connection } from "./connection.ts";
import { FIRST_VIEW_CALLS } from "../first_view.ts";
import { waitingForYou } from "../first_view_html.ts";
import { firstAnswer } from "./first_answers.ts";
import { useLink, useLoad } from "./hooks.ts";
import { html } from "./html.ts";
import { HOME, navigate, parseRoute, type Route, useRoute } from "./route.ts";
import { RunPage } from "./run_view.ts";
import { RunsPage } from "./runs_view.ts";
import { SignOut } from "./sign_out.ts";
import { StartPage } from "./start_view.ts";
import { TrustNotice } from "./trust_notice.ts";
import type { RunView } from "./types.ts";

/** The whole page. */
export function App(): ComponentChildren {
  const addressed = useRoute();
  useEffect(() => {
    if (!addressed) navigate(parseRoute(HOME)!, true);
  }, [addressed === undefined]);
  // The first render already shows the home view (and the list the opened page carried), not an empty frame.
  const route = addressed ?? parseRoute(HOME)!;
  // A new view (not a new filter) takes the focus, so keyboard use starts at its top, as after a page load.
  const place = route.view === "run" ? `run/${route.runId}` : route.view;
  const first = useRef(true);
  useEffect(() => {
    document.title = `${TITLES[route.view]} · weft Studio`;
    if (first.current) first.current = false;
    else document.getElementById("view")?.focus();
  }, [place]);
  return html`
    <${Header} route=${route} />
    <${TrustNotice} />
    <main id="view" tabindex="-1">${view(route)}</main>
  `;
}

const TITLES: Record<Route["view"], string> = {
  runs: "Runs",
  run: "Run",
  start: "Start a Run",
  artifacts: "Artifacts",
  artifact: "Artifact",
};

function view(route: Route): ComponentChildren {
  switch (route.view) {
    case "runs":
      return html`<${RunsPage} route=${route} />`;
    case "run":
      return html`<${RunPage} key=${route.runId} runId=${route.runId} />`;
    case "start":
      return html`<${StartPage} />`;
    case "artifacts":
      return html`<${ArtifactsPage} route=${route} />`;
    case "artifact":
      return html`<${ArtifactPage} route=${route} />`;
  }
}

function Header(props: { route: Route | undefined }): ComponentChildren {
  const link = useLink();
  // A waiting Run may wait for a person or for an agent's work: only the first kind waits for you. The newest
  // page of waiting Runs, the home view's first page, is counted (at first from the answer the opened page
  // carried, as the service's HTML counted it); past it the count says "or more".
  const [home] = FIRST_VIEW_CALLS;
  const waitingPage = useLoad(
    "waiting-for-you",
    () => connection.call<{ runs: RunView[]; nextCursor?: string }>(home.name, home.arguments),
    ["weft://runs"],
    () =>
      firstAnswer(home.name, home.arguments, { keep: true })?.result as {
        runs: RunView[];
        nextCursor?: string;
      },
  );
  const waiting = waitingPage.data ? waitingForYou(waitingPage.data) : "0";
  const current = props.route?.view;
  const here = (views: string[]) => current && views.includes(current) ? "page" : undefined;
  return html`<header class="top">
    <h1>weft Studio</h1>
    <span role="status" class=${`link ${
    link === "Live" ? "live" : link === "Offline" ? "offline" : "reconnecting"
  }`}>${link}</span>
    ${
    connection.ended &&
    html`
      <p
        class="problem">This Studio session has ended. Run <code>weft studio</code> in the project's folder to open it again.</p>
    `
  }
    ${
    connection.unreachable && link !== "Live" &&
    html`
      <p role="alert" class="problem">The weft service for this project is not running. Start it with <code
      >weft start</code> (or <code>weft studio</code>) in the project's folder, and this page reconnects by itself.</p>
    `
  }
    <a class="waiting-link" href=${HOME}>Waiting for you (${waiting})</a>
    <nav aria-label="Studio">
      <a href="#/runs" aria-current=${here(["runs", "run"])}>Runs</a>
      <a href="#/start" aria-current=${here(["start"])}>Start a Run</a>
      <a href="#/artifacts" aria-current=${here(["artifacts", "artifact"])}>Artifacts</a>
    </nav>
    <${SignOut} />
  </header>`;
}
