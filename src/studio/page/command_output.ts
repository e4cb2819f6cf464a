/**
 * A command step's output in the timeline: while the command runs, what it has printed so far, followed
 * through `weft://runs/{runId}/command` (each stream's last 32 KiB, told as it grows); once it has ended, the
 * part its timeline entry keeps.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { useEffect, useRef } from "./preact.ts";
import { connection } from "./connection.ts";
import { useLoad } from "./hooks.ts";
import { html } from "./html.ts";
import type { RunningCommandOutput, StreamTail } from "./types.ts";

/** What `weft://runs/{runId}/command` reads. */
interface RunningCommand {
  command: RunningCommandOutput | null;
}

const STREAMS = ["stdout", "stderr"] as const;

/** The output so far of command `commandId`, which Run `runId` runs now; each stream a live log. */
export function LiveCommandOutput(props: { runId: string; commandId: string }): ComponentChildren {
  const uri = `weft://runs/${props.runId}/command`;
  const loaded = useLoad(
    `${props.runId}/${props.commandId}`,
    () => connection.read<RunningCommand>(uri),
    [uri],
  );
  const command = loaded.data?.command;
  if (command?.commandId !== props.commandId) return null;
  const streams = STREAMS.filter((name) => command[name].text || command[name].cutBytes);
  if (streams.length === 0) return html`<p class="muted">No output yet.</p>`;
  return html`<div class="command-output live">
    ${streams.map((name) => html`<${LiveStream} key=${name} name=${name} tail=${command[name]} />`)}
  </div>`;
}

/** One stream as it grows, kept scrolled to its end unless the person scrolled up to read. */
function LiveStream(props: { name: string; tail: StreamTail }): ComponentChildren {
  const box = useRef<HTMLPreElement>(null);
  const atEnd = useRef(true);
  useEffect(() => {
    if (box.current && atEnd.current) box.current.scrollTop = box.current.scrollHeight;
  }, [props.tail.text]);
  const onScroll = () => {
    const element = box.current;
    if (element) atEnd.current = element.scrollHeight - element.scrollTop - element.clientHeight < 8;
  };
  return html`
    <div>
      <span class="muted">${props.name} so far${cutNote(props.tail, "shown")}</span>
      <pre role="log" aria-label=${`${props.name} so far`} ref=${box} onScroll=${onScroll}>${props.tail
        .text}</pre>
    </div>
  `;
}

/** The last part of one stream of an ended command, as the timeline keeps it, with how much was cut before it. */
export function StoredCommandOutput(props: { name: string; value: unknown }): ComponentChildren {
  const tail = props.value as Partial<StreamTail> | undefined;
  if (!tail?.text) return null;
  return html`
    <details class="command-output">
      <summary>${props.name}${cutNote({ text: tail.text, cutBytes: tail.cutBytes ?? 0 }, "kept")}</summary>
      <pre>${tail.text}</pre>
    </details>
  `;
}

function cutNote(tail: StreamTail, verb: string): string {
  return tail.cutBytes ? ` (last part; ${tail.cutBytes} bytes before it not ${verb})` : "";
}
