/**
 * The network check of `weft doctor` for one model role: does its server answer, accept the key and know
 * the model? It lists the server's models (`GET {baseURL}/models`, which OpenAI, Anthropic, OpenRouter,
 * Ollama, llama.cpp, vLLM and LM Studio all serve) and never sends a prompt.
 *
 * @module
 */
import { baseUrlOf, type ResolvedModel } from "./config.ts";
import { excerpt } from "./failures.ts";

/** What the check found, with the fix when something is wrong. */
export interface RoleCheck {
  role: string;
  ok: boolean;
  message: string;
  fix?: string;
}

/** Checks one resolved role over the network, within `timeoutMs`. */
export async function checkRole(
  model: ResolvedModel,
  key: string | undefined,
  timeoutMs = 5000,
): Promise<RoleCheck> {
  const { role, entry } = model;
  const base = baseUrlOf(entry);
  const where = `models.${role} (${entry.provider} ${entry.model} at ${base}, key ${
    entry.apiKeyEnv ?? "none"
  })`;
  const headers: Record<string, string> = entry.provider === "anthropic"
    ? { "anthropic-version": "2023-06-01", ...(key ? { "x-api-key": key } : {}) }
    : key
    ? { authorization: `Bearer ${key}` }
    : {};
  let response: Response;
  try {
    response = await fetch(`${base}/models`, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const timedOut = (error as Error).name === "TimeoutError";
    return {
      role,
      ok: false,
      message: `${where}: ${
        timedOut ? `no answer within ${timeoutMs / 1000} s` : "the server cannot be reached"
      }`,
      fix: `start the model server, or correct models.${role}.baseURL in ${fileOf(model)}`,
    };
  }
  const text = await response.text().catch(() => "");
  if (response.status === 401 || response.status === 403) {
    return {
      role,
      ok: false,
      message: `${where}: the server refused the key (HTTP ${response.status})`,
      fix: entry.apiKeyEnv
        ? `check the key in ${entry.apiKeyEnv}`
        : `name the variable that holds the key in models.${role}.apiKeyEnv`,
    };
  }
  if (!response.ok) {
    return {
      role,
      ok: false,
      message: `${where}: listing models answered HTTP ${response.status}: ${
        excerpt(text, key ? [key] : [])
      }`,
      fix: `check models.${role}.baseURL: it must be the API root (usually ending in /v1)`,
    };
  }
  let ids: string[] = [];
  try {
    const parsed = JSON.parse(text) as {
      data?: { id?: unknown }[];
      models?: { id?: unknown; name?: unknown }[];
    };
    ids = [...(parsed.data ?? []), ...(parsed.models ?? [])]
      .map((item) => String((item as { id?: unknown }).id ?? (item as { name?: unknown }).name ?? ""));
  } catch {
    return {
      role,
      ok: false,
      message: `${where}: the server's model list is not JSON`,
      fix:
        `check models.${role}.baseURL: it must be the API root of an OpenAI-compatible or Anthropic server`,
    };
  }
  if (!ids.includes(entry.model)) {
    const known = ids.slice(0, 8).join(", ") || "none";
    return {
      role,
      ok: false,
      message: `${where}: the server does not list the model "${entry.model}" (it lists: ${known})`,
      fix: `load or pull the model on the server, or set models.${role}.model to one it lists`,
    };
  }
  return { role, ok: true, message: `${where}: answers and knows the model` };
}

function fileOf(model: ResolvedModel): string {
  return model.origin === "project" ? "weft.json" : model.file;
}
