/**
 * Artifacts (placeholder until the Artifacts view lands).
 *
 * @module
 */

import type { ComponentChildren } from "preact";
import { html } from "./html.ts";
import type { Route } from "./route.ts";

/** The Artifacts list. */
export function ArtifactsPage(_props: { route: Extract<Route, { view: "artifacts" }> }): ComponentChildren {
  return html`
    <section>
      <h2>Artifacts</h2>
    </section>
  `;
}

/** One Artifact. */
export function ArtifactPage(_props: { route: Extract<Route, { view: "artifact" }> }): ComponentChildren {
  return html`
    <section>
      <h2>Artifact</h2>
    </section>
  `;
}
