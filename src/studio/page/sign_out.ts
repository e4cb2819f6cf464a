/**
 * The header's "Sign out everywhere": ends every Studio session of the project, in every browser and tab,
 * as `weft studio --sign-out-all` does (for a session the person did not open, or a browser left signed in).
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { useState } from "./preact.ts";
import { connection, type StudioError } from "./connection.ts";
import { html } from "./html.ts";

/** The button, and what went wrong when signing out failed; nothing once the session has ended. */
export function SignOut(): ComponentChildren {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  if (connection.ended) return null;
  const signOut = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      await connection.signOut();
    } catch (error) {
      setProblem((error as StudioError).message);
    } finally {
      setBusy(false);
    }
  };
  return html`
    <button type="button" class="sign-out" disabled=${busy} onClick=${signOut}>Sign out everywhere</button>
    ${problem && html`<p class="problem" role="alert">${problem}</p>`}
  `;
}
