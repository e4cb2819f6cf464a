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
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  let retry: number | undefined;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (!done) buffer += value;
      const lineBreak = /\r\n|\r|\n/g;
      let start = 0;
      let end: RegExpExecArray | null;
      // A `\r` at the very end may be the first half of `\r\n`: it waits for the next chunk, or the end.
      while ((end = lineBreak.exec(buffer)) && (done || end[0] !== "\r" || end.index < buffer.length - 1)) {
        const line = buffer.slice(start, end.index);
        start = end.index + end[0].length;
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
      buffer = buffer.slice(start);
      // What is left without a blank line after it is an event the stream cut off: not delivered.
      if (done) return;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
