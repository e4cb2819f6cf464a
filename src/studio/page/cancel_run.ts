/**
 * The Run's Cancel button, which asks first: a cancel cannot be undone and the button sits right under
 * Answer and Confirm, so one stray click must not end the Run. The question is a modal dialog: "No, keep
 * it" (which has the focus) and Escape leave the Run as it is.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { useRef } from "./preact.ts";
import { html } from "./html.ts";

/** Cancel Run, and the dialog that asks before `onCancel` is called. */
export function CancelRun(props: { busy: boolean; onCancel: () => void }): ComponentChildren {
  const dialog = useRef<HTMLDialogElement>(null);
  const close = () => dialog.current?.close();
  const cancel = () => {
    close();
    props.onCancel();
  };
  return html`
    <button type="button" class="danger" disabled=${props.busy} onClick=${() =>
      dialog.current?.showModal()}>Cancel Run</button>
    <dialog ref=${dialog} class="ask" aria-labelledby="cancel-title" aria-describedby="cancel-text">
      <h3 id="cancel-title">Cancel this Run?</h3>
      <p id="cancel-text">It stops where it is and cannot be resumed; what it committed stays.</p>
      <div class="buttons">
        <button type="button" autofocus onClick=${close}>No, keep it</button>
        <button type="button" class="danger" onClick=${cancel}>Yes, cancel it</button>
      </div>
    </dialog>
  `;
}
