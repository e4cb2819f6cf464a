/**
 * One model request through the Vercel AI SDK: the only module that imports it at run time. It is loaded
 * with `import()` when the first model step runs, so `weft serve` starts without it.
 *
 * @module
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  generateText,
  jsonSchema,
  type JSONSchema7,
  type LanguageModel,
  type ModelMessage,
  type OutputInterface,
  tool,
  type ToolSet,
} from "ai";
import { WeftError } from "../errors.ts";
import { readCappedBody } from "../lib/capped_body.ts";
import { baseUrlOf, type ModelEntry } from "./config.ts";

// The SDK prints its warnings (such as an unknown model's output limit) to the console by default; the
// service's stdout carries exactly its ready line, so they are turned off.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** The largest response body accepted from a model server. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** A function tool offered to the model. */
export interface TurnTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** What one request sends. */
export interface TurnRequest {
  entry: ModelEntry;
  key: string | undefined;
  system: string;
  messages: ModelMessage[];
  tools: TurnTool[];
  /** With `json_schema` or `json_object`, the final answer comes as text in that response format. */
  responseFormat?: { mode: "json_schema" | "json_object"; schema: Record<string, unknown> };
  /** `required` when the only way to finish is a tool (the `tool` structured-output mode). */
  toolChoice: "auto" | "required";
  signal: AbortSignal;
}

/** What one request answered. */
export interface TurnResponse {
  text: string;
  toolCalls: { toolCallId: string; toolName: string; input: unknown }[];
  /** The assistant's messages, to send back with the next request. */
  messages: ModelMessage[];
  inputTokens?: number;
  outputTokens?: number;
  finishReason: string;
}

/** Sends one request; the SDK does no retries of its own (the caller decides, within its budget). */
export async function runTurn(request: TurnRequest): Promise<TurnResponse> {
  const { entry } = request;
  const format = request.responseFormat;
  const result = await generateText({
    model: languageModel(entry, request.key, format?.mode === "json_schema"),
    system: request.system,
    messages: request.messages,
    ...(request.tools.length ? { tools: toolSet(request.tools), toolChoice: request.toolChoice } : {}),
    ...(format ? { output: outputOf(format) } : {}),
    maxRetries: 0,
    abortSignal: request.signal,
    maxOutputTokens: entry.maxOutputTokens ?? 4096,
    ...(entry.temperature !== undefined ? { temperature: entry.temperature } : {}),
    ...(entry.topP !== undefined ? { topP: entry.topP } : {}),
    ...(entry.seed !== undefined ? { seed: entry.seed } : {}),
  });
  return {
    text: result.text,
    toolCalls: result.toolCalls.map((call) => ({
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
    })),
    messages: result.response.messages as ModelMessage[],
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
    finishReason: result.finishReason,
  };
}

// Building a chat model compiles the provider's response schemas: redone for every turn, it was most of
// weft's own time per turn. Models are kept by what they are built from (a few, for the roles in use), so an
// edited weft.json builds a new one. An agent call sends the same tools and output schema objects on every
// turn, so what the SDK builds from them is kept for the call's life (weakly, collected with the call); plain
// JSON, shaped by no schema, is the same output for every call.
const models = new Map<string, LanguageModel>();
const MAX_MODELS = 8;
const toolSets = new WeakMap<TurnTool[], ToolSet>();
const schemaOutputs = new WeakMap<Record<string, unknown>, TurnOutput>();
const JSON_OUTPUT = jsonOutput({ type: "json" });

/** The structured output the SDK is asked for: JSON, handed back as text. */
type TurnOutput = OutputInterface<string, string, never>;

function languageModel(entry: ModelEntry, key: string | undefined, structured: boolean): LanguageModel {
  const id = JSON.stringify([entry.provider, baseUrlOf(entry), entry.model, key ?? null, structured]);
  let model = models.get(id);
  if (!model) {
    model = createLanguageModel(entry, key, structured);
    if (models.size >= MAX_MODELS) models.delete(models.keys().next().value!);
    models.set(id, model);
  }
  return model;
}

function createLanguageModel(entry: ModelEntry, key: string | undefined, structured: boolean): LanguageModel {
  const baseURL = baseUrlOf(entry);
  if (entry.provider === "anthropic") {
    // Without a key the provider would read ANTHROPIC_API_KEY by itself; weft sends only the named variable.
    return createAnthropic({ baseURL, apiKey: key ?? "", fetch: withoutEmptyKey })(entry.model);
  }
  return createOpenAICompatible({
    name: "weft",
    baseURL,
    ...(key ? { apiKey: key } : {}),
    supportsStructuredOutputs: structured,
    fetch: cappedFetch,
  }).chatModel(entry.model);
}

function toolSet(offered: TurnTool[]): ToolSet {
  let tools = toolSets.get(offered);
  if (!tools) {
    tools = {};
    for (const { name, description, inputSchema } of offered) {
      tools[name] = tool({
        description,
        inputSchema: jsonSchema(inputSchema as Parameters<typeof jsonSchema>[0]),
      });
    }
    toolSets.set(offered, tools);
  }
  return tools;
}

/**
 * Asks for JSON (shaped by the step's schema with `json_schema`) and hands the answer back as the text it
 * is: weft parses and validates it with the step's own validator, so an invalid answer goes back to the
 * model for repair. The SDK's own JSON outputs throw instead, failing the request before weft sees it.
 */
function outputOf(format: NonNullable<TurnRequest["responseFormat"]>): TurnOutput {
  if (format.mode === "json_object") return JSON_OUTPUT;
  let output = schemaOutputs.get(format.schema);
  if (!output) {
    output = jsonOutput({ type: "json", schema: format.schema as JSONSchema7 });
    schemaOutputs.set(format.schema, output);
  }
  return output;
}

function jsonOutput(responseFormat: { type: "json"; schema?: JSONSchema7 }): TurnOutput {
  return {
    name: "weft-json",
    responseFormat: Promise.resolve(responseFormat),
    parseCompleteOutput: ({ text }) => Promise.resolve(text),
    parsePartialOutput: ({ text }) => Promise.resolve({ partial: text }),
    createElementStreamTransform: () => undefined,
  };
}

/** Drops the empty key header a keyless Anthropic-compatible request would otherwise carry. */
function withoutEmptyKey(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  if (headers.get("x-api-key") === "") headers.delete("x-api-key");
  return cappedFetch(input, { ...init, headers });
}

/** `fetch` that refuses a response body larger than {@linkcode MAX_RESPONSE_BYTES} instead of buffering it. */
async function cappedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  const body = await readCappedBody(response.body, MAX_RESPONSE_BYTES);
  if (body === null) throw new ResponseTooLargeError();
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** A model server answered with more than {@linkcode MAX_RESPONSE_BYTES}. */
export class ResponseTooLargeError extends WeftError {
  constructor() {
    super(
      "MODEL_REQUEST_FAILED",
      `the model server's response is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`,
    );
    this.name = "ResponseTooLargeError";
  }
}
