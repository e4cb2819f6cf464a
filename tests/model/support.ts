/**
 * Support for the model suites: a project whose weft.json points at a scripted server, served with its key
 * in a named variable and an isolated user config folder, and a deadline-bounded wait on a Run.
 *
 * @module
 */
import type { RunEventView, RunView } from "../../src/engine/views.ts";
import type { Client } from "../support/sdk_test_client.ts";
import { PLAN, specification } from "../support/intent_agent.ts";
import { call, serve, type ServedProject, tempProject, trustProject } from "../support/service.ts";
import {
  type RecordedRequest,
  type ScriptedCall,
  type ScriptedReply,
  toolNames,
  turnOf,
} from "./scripted_server.ts";

/** The key the suites give the scripted servers; it must never show up anywhere but the request header. */
export const TEST_KEY = "sk-test-4f9a1c7e2b8d6a3f5e0c9b7a1d2e4f6a";

/**
 * A project served with `models.default` pointing at a scripted server, its weft.json trusted in the
 * isolated user config folder unless `trusted` is false.
 */
export async function servedWithModel(options: {
  protocol: "openai" | "anthropic";
  url: string;
  /** The key variable's name; none for a keyless loopback server. */
  keyEnv?: string;
  entry?: Record<string, unknown>;
  files?: Record<string, string>;
  /** More variables for the service's environment. */
  env?: Record<string, string>;
  trusted?: boolean;
}): Promise<{ served: ServedProject; projectDir: string; userDir: string }> {
  const entry = {
    provider: options.protocol === "openai" ? "openai-compatible" : "anthropic",
    model: options.protocol === "openai" ? "scripted-gpt" : "scripted-claude",
    baseURL: `${options.url}/v1`,
    ...(options.keyEnv ? { apiKeyEnv: options.keyEnv } : {}),
    ...options.entry,
  };
  const projectDir = await tempProject({
    "README.md": "# demo\n",
    "weft.json": JSON.stringify({ models: { default: entry } }),
    ...options.files,
  });
  const userDir = await Deno.makeTempDir({ prefix: "weft-user-" });
  if (options.trusted !== false) await trustProject(projectDir, userDir);
  const served = await serve(projectDir, {
    env: {
      XDG_CONFIG_HOME: userDir,
      ...options.env,
      ...(options.keyEnv ? { [options.keyEnv]: TEST_KEY } : {}),
    },
  });
  return { served, projectDir, userDir };
}

/** Polls `get_run` until `ready` holds; fails after `seconds` naming what it waited for and where the Run is. */
export async function waitForRun(
  client: Client,
  runId: string,
  what: string,
  ready: (run: RunView) => boolean,
  seconds = 20,
): Promise<RunView> {
  const deadline = Date.now() + seconds * 1000;
  let run: RunView | undefined;
  while (Date.now() < deadline) {
    run = (await call<{ run: RunView }>(client, "get_run", { runId })).run;
    if (ready(run)) return run;
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  throw new Error(`waited ${seconds} s for the Run to be ${what}; it is ${JSON.stringify(run)}`);
}

/** The Run's timeline. */
export async function timelineOf(client: Client, runId: string): Promise<RunEventView[]> {
  return (await call<{ timeline: RunEventView[] }>(client, "get_run", { runId, timeline: true })).timeline;
}

/**
 * A model that does the `intent` workflow's agent steps: read the context, submit, finish. Its first
 * specification draft asks the person a question instead; later drafts submit a specification.
 */
export function intentModel(): (request: RecordedRequest) => ScriptedReply {
  let specificationDrafts = 0;
  return (request) => {
    const tools = toolNames(request);
    const plan = tools.includes("submit_plan");
    const turn = turnOf(request);
    if (turn === 0) {
      if (!plan) specificationDrafts++;
      return { calls: [{ name: "get_context", input: {} }], usage: { input: 1200, output: 15 } };
    }
    const asking = !plan && specificationDrafts === 1;
    if (turn === 1) {
      if (plan) return { calls: [{ name: "submit_plan", input: { value: PLAN } }] };
      return asking
        ? {
          calls: [{
            name: "submit_questions",
            input: {
              value: [{ id: "format", question: "Which format?", options: [{ id: "csv", label: "CSV" }] }],
            },
          }],
        }
        : { calls: [{ name: "submit_specification", input: { value: specification() } }] };
    }
    return {
      calls: [{
        name: "complete_agent_call",
        input: { outcome: asking ? "clarification_required" : "ready" },
      }],
    };
  };
}

/** A one-stage workflow whose single agent step reads its context, submits a note and finishes `done`. */
export function probeFiles(model: Record<string, unknown> = {}): Record<string, string> {
  const manifest = {
    name: "probe",
    title: "Probe",
    description: "One agent step, for the model suites.",
    entryStage: "work",
    stages: {
      work: {
        state: {
          schema: { type: "object", properties: { note: { type: "string" } }, additionalProperties: false },
          initial: {},
        },
        entryStep: "draft",
        steps: {
          draft: {
            kind: "agent",
            agentId: "prober",
            instructions: "draft.md",
            tools: [
              { id: "get_context", kind: "run_context" },
              { id: "submit_note", kind: "submit_state", target: "/note" },
            ],
            output: {
              schema: {
                type: "object",
                required: ["outcome"],
                additionalProperties: false,
                properties: { outcome: { enum: ["done"] } },
              },
            },
            model: { maxTurns: 6, maxToolCalls: 4, maxRepairs: 1, ...model },
            routes: { done: { endStage: "done" } },
          },
        },
        routes: { done: { end: "completed" } },
      },
    },
  };
  return {
    "workflows/probe/workflow.json": JSON.stringify(manifest, null, 2),
    "workflows/probe/draft.md": "Read the context, submit a note, finish with outcome done.\n",
  };
}

/** A model that does the probe step in three turns: context, note, result. */
export function probeTurn(turn: number): { calls: ScriptedCall[] } {
  if (turn === 0) return { calls: [{ name: "get_context", input: {} }] };
  if (turn === 1) return { calls: [{ name: "submit_note", input: { value: "noted" } }] };
  return { calls: [{ name: "complete_agent_call", input: { outcome: "done" } }] };
}

/**
 * An answer that never comes: headers at once, then a space (JSON allows leading whitespace) every 20 ms
 * until the client has gone: Deno.serve then cancels the body, which reports it on the request's signal.
 */
export function hang(request: RecordedRequest): Response {
  const space = new TextEncoder().encode(" ");
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    clearInterval(timer);
    request.gone();
  };
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        timer = setInterval(() => {
          try {
            controller.enqueue(space);
          } catch {
            stop();
          }
        }, 20);
      },
      cancel: stop,
    }),
    { headers: { "content-type": "application/json" } },
  );
}

/** Every line the service logged in this project, for the suites that prove what never gets there. */
export function serviceLogs(projectDir: string): string {
  return [...Deno.readDirSync(`${projectDir}/.weft/logs`)]
    .map((entry) => Deno.readTextFileSync(`${projectDir}/.weft/logs/${entry.name}`)).join("\n");
}
