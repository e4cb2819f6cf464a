/**
 * Server-sent events read from a response body, as the EventSource specification parses them: `data` lines
 * joined by line breaks, `id` and `retry` remembered, comments (`:`) skipped, an event dispatched at each
 * blank line.
 *
 * @module
 */

/** One event. `data` is empty for an event that only carries an id (MCP's priming event). */
export interface ServerSentEvent {
  event: string;
  data: string;
  id?: string;
  /** The reconnection delay the server asks for, in milliseconds. */
  retry?: number;
}

/** The events of `body` in order, until it ends. */
export async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  // Typed as what it is for: the DOM's types (Studio's page bundles this) have it take any BufferSource.
  const decoder = new TextDecoderStream() as TransformStream<Uint8Array, string>;
  const reader = body.pipeThrough(decoder).getReader();
  // The line in progress, in the pieces it arrived in: each chunk is scanned once, and a long line (a large
  // answer is one `data` line) is joined once, when its line break comes.
  let pieces: string[] = [];
  // The last chunk ended with `\r`: a `\n` opening the next one is the rest of that `\r\n`.
  let afterCarriageReturn = false;
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  let retry: number | undefined;
  try {
    while (true) {
      const { done, value } = await reader.read();
      // What is left without a blank line after it is an event the stream cut off: not delivered.
      if (done) return;
      if (!value) continue;
      let start: number = afterCarriageReturn && value.startsWith("\n") ? 1 : 0;
      afterCarriageReturn = false;
      const lineBreak = /\r\n|\r|\n/g;
      lineBreak.lastIndex = start;
      let end: RegExpExecArray | null;
      while ((end = lineBreak.exec(value))) {
        pieces.push(value.slice(start, end.index));
        const line = pieces.length === 1 ? pieces[0] : pieces.join("");
        pieces = [];
        start = end.index + end[0].length;
        afterCarriageReturn = end[0] === "\r" && start === value.length;
        if (line === "") {
          if (data.length || id !== undefined) {
            yield { event: event || "message", data: data.join("\n"), id, retry };
          }
          event = "", data = [], id = undefined, retry = undefined;
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") data.push(text);
        else if (field === "event") event = text;
        else if (field === "id" && !text.includes("\0")) id = text;
        else if (field === "retry" && /^\d+$/.test(text)) retry = Number(text);
      }
      if (start < value.length) pieces.push(value.slice(start));
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
