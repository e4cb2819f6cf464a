/**
 * Scripted model servers on loopback for the model tests: an OpenAI-compatible chat-completions server and
 * an Anthropic Messages server that answer from a script and record every request they get.
 *
 * @module
 */

/** The protocols a scripted server speaks. */
export type Protocol = "openai" | "anthropic";

/** One request as the server received it. */
export interface RecordedRequest {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /**
   * Aborted when the client has gone (a timeout, a cancel, a killed process). Deno's server does not always
   * notice a closed connection while an answer is pending, so a trickled answer that finds nobody to write
   * to reports it with {@linkcode RecordedRequest.gone} (see `hang` in support.ts).
   */
  signal: AbortSignal;
  /** Marks the client gone. */
  gone(): void;
  /** `performance.now()` when the server began to handle it, before reading its body (for the bench). */
  receivedAt: number;
}

/** A tool call the script makes the model do. */
export interface ScriptedCall {
  name: string;
  input: unknown;
}

/** What the model answers to one request: tool calls, text, or a raw HTTP response (faults). */
export type ScriptedReply =
  | { calls: ScriptedCall[]; usage?: { input: number; output: number } }
  | { text: string; usage?: { input: number; output: number } }
  | { response: () => Response | Promise<Response> };

/** A running scripted server. */
export interface ScriptedServer {
  url: string;
  requests: RecordedRequest[];
  /** Resolves when the server has received `count` requests in total. */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a server that answers each request with `script(request, index)`. */
export function scriptedServer(
  protocol: Protocol,
  script: (request: RecordedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>,
): ScriptedServer {
  const requests: RecordedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const abort = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: abort.signal, onListen: () => {} },
    async (request, info) => {
      const receivedAt = performance.now();
      const gone = new AbortController();
      // The response could not be delivered: the client went away. (Deno.serve's request.signal would also
      // abort after every delivered response, and warns when read.)
      info.completed.catch(() => gone.abort());
      const recorded: RecordedRequest = {
        path: new URL(request.url).pathname,
        headers: Object.fromEntries(request.headers),
        body: await request.json().catch(() => ({})),
        signal: gone.signal,
        gone: () => gone.abort(),
        receivedAt,
      };
      requests.push(recorded);
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) waiter.resolve();
      const reply = await script(recorded, requests.length - 1);
      return "response" in reply ? await reply.response() : replyResponse(protocol, reply);
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    received: (count) =>
      requests.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ count, resolve })),
    close: async () => {
      abort.abort();
      await server.finished;
    },
  };
}

/**
 * A server that answers every request with a 200 promising a 4 KiB JSON body, sends its first bytes and
 * closes the connection: a response cut off mid-way, as a dropped connection or a crashed proxy leaves it.
 */
export function truncatingServer(): { url: string; requests: () => number; close: () => Promise<void> } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const encoder = new TextEncoder();
  let requests = 0;
  const serving = (async () => {
    for await (const connection of listener) {
      requests++;
      void answerCutOff(connection, encoder);
    }
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${listener.addr.port}`,
    requests: () => requests,
    close: async () => {
      listener.close();
      await serving;
    },
  };
}

async function answerCutOff(connection: Deno.Conn, encoder: TextEncoder): Promise<void> {
  try {
    // Read the whole request first, so the client sees a cut answer rather than a refused upload.
    const buffer = new Uint8Array(64 * 1024);
    let received = "";
    while (true) {
      const read = await connection.read(buffer);
      if (read === null) return;
      received += new TextDecoder().decode(buffer.subarray(0, read));
      const headerEnd = received.indexOf("\r\n\r\n");
      const length = Number(/content-length:\s*(\d+)/i.exec(received)?.[1] ?? 0);
      if (headerEnd >= 0 && encoder.encode(received.slice(headerEnd + 4)).length >= length) break;
    }
    await connection.write(encoder.encode(
      "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 4096\r\n\r\n" +
        '{"id":"cut","choices":[{"index":0,"message":{"role":"assis',
    ));
  } catch {
    // the client went first
  } finally {
    connection.close();
  }
}

let nextId = 0;

/** The HTTP response a scripted reply of tool calls or text becomes in `protocol`. */
export function replyResponse(
  protocol: Protocol,
  reply: Exclude<ScriptedReply, { response: unknown }>,
): Response {
  return Response.json(protocol === "openai" ? openAiBody(reply) : anthropicBody(reply));
}

function openAiBody(reply: Exclude<ScriptedReply, { response: unknown }>): unknown {
  const usage = reply.usage ?? { input: 100, output: 20 };
  const message = "calls" in reply
    ? {
      role: "assistant",
      content: null,
      tool_calls: reply.calls.map((call) => ({
        id: `call_${++nextId}`,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.input) },
      })),
    }
    : { role: "assistant", content: reply.text };
  return {
    id: `chatcmpl-${++nextId}`,
    object: "chat.completion",
    created: 1,
    model: "scripted",
    choices: [{ index: 0, message, finish_reason: "calls" in reply ? "tool_calls" : "stop" }],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
    },
  };
}

function anthropicBody(reply: Exclude<ScriptedReply, { response: unknown }>): unknown {
  const usage = reply.usage ?? { input: 100, output: 20 };
  const content = "calls" in reply
    ? reply.calls.map((call) => ({
      type: "tool_use",
      id: `toolu_${++nextId}`,
      name: call.name,
      input: call.input,
    }))
    : [{ type: "text", text: reply.text }];
  return {
    id: `msg_${++nextId}`,
    type: "message",
    role: "assistant",
    model: "scripted",
    content,
    stop_reason: "calls" in reply ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: usage.input, output_tokens: usage.output },
  };
}

/** How many assistant turns the conversation of this request already holds (0 on a call's first request). */
export function turnOf(request: RecordedRequest): number {
  const messages = (request.body.messages ?? []) as { role: string }[];
  return messages.filter((message) => message.role === "assistant").length;
}

/** The names of the tools a request offers, in both protocols. */
export function toolNames(request: RecordedRequest): string[] {
  const tools = (request.body.tools ?? []) as { name?: string; function?: { name: string } }[];
  return tools.map((tool) => tool.function?.name ?? tool.name ?? "");
}

/** The text of every message of a request, to look for what the model was told. */
export function conversationText(request: RecordedRequest): string {
  return JSON.stringify(request.body.messages ?? []);
}
