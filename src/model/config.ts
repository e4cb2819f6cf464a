/**
 * The service's model configuration: `weft.json` at the project root (committed with the project) and a
 * user-level file for personal defaults, both written in one zod schema that `schema/weft.schema.json` is
 * generated from. A role resolves to the project's entry when the project names it and the person trusts the
 * project's entries (`project_trust.ts`), else to the user's; an entry is always taken whole, never merged
 * field by field. Keys are never written in either file: an entry names the environment variable that holds
 * its key, and a key is never sent over plain HTTP to another machine.
 *
 * @module
 */
import { isAbsolute, join } from "node:path";
import { z } from "../lib/zod.ts";
import { DURATION_FORMS, DURATION_PATTERN, parseDuration } from "../lib/duration.ts";
import type { ModelRoles, RoleReadiness } from "../engine/model_roles.ts";
import { isTrusted, projectKey, readTrustRecord, type TrustRecord } from "./project_trust.ts";
import { type DigestedContent, trustedContentOf } from "./trusted_content.ts";
import { ArgumentVector, NamePattern } from "../engine/workflow/manifest.ts";
import { projectTrustedSteps } from "../engine/workflow/trusted_steps.ts";
import { projectTreeAt } from "../files/project_tree.ts";
import { ParsedFileCache } from "../lib/parsed_file_cache.ts";
import { TeamSettings } from "./team_config.ts";

/** A role name: `default` or a lowercase identifier a workflow's agent step names. */
export const RolePattern = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;

/** The providers weft speaks to. */
export const PROVIDERS = ["openai-compatible", "anthropic"] as const;

/** How a final result is obtained as JSON, where servers differ. */
export const STRUCTURED_OUTPUT_MODES = ["tool", "json_schema", "json_object"] as const;

/** The name of an environment variable, as a shell writes it. */
const EnvName = /^[A-Za-z_][A-Za-z0-9_]*$/;

const ModelEntry = z.strictObject({
  provider: z.enum(PROVIDERS).describe("the protocol: OpenAI's chat completions or Anthropic's Messages"),
  model: z.string().min(1).max(200).describe("the model name the server knows, such as `gpt-4.1-mini`"),
  baseURL: z.url({ protocol: /^https?$/ }).optional().describe(
    "the server's API root, e.g. `http://127.0.0.1:11434/v1`; default: OpenAI's or Anthropic's own",
  ),
  apiKeyEnv: z.string().regex(
    EnvName,
    "must be the name of an environment variable, such as `OPENAI_API_KEY`",
  )
    .optional().describe("the environment variable that holds the key; never the key itself"),
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().gt(0).max(1).optional(),
  maxOutputTokens: z.int().min(1).max(1_000_000).optional().describe("default 4096"),
  seed: z.int().optional(),
  timeoutSeconds: z.number().positive().max(3600).optional().describe(
    "how long one model request may take; default 120",
  ),
  structuredOutput: z.enum(STRUCTURED_OUTPUT_MODES).optional().describe(
    "how the final result is obtained: `tool` (a result tool, the default), `json_schema` (response_format " +
      "with the output schema) or `json_object` (JSON mode, the schema in the instructions)",
  ),
});

/** One role's entry. */
export type ModelEntry = z.infer<typeof ModelEntry>;

/** How long a service started on someone's behalf stays with nothing to do, when the person says nothing. */
export const DEFAULT_IDLE_EXIT_MS = 30 * 60_000;

const ServiceSettings = z.strictObject({
  idleExit: z.union([z.int().min(0), z.string().regex(DURATION_PATTERN, `must be ${DURATION_FORMS}`)])
    .optional().describe(
      "how long a service that a client started for you (weft mcp, flow, studio, attach) stays with no " +
        "session, no stream and no work in progress before it exits: 0 (never), seconds, or 90s, 30m, 2h; " +
        "default 30m",
    ),
});

/** The whole file (the project's `weft.json` and the user-level file share it). */
export const ModelConfigFile = z.strictObject({
  $schema: z.string().optional(),
  models: z.record(z.string().regex(RolePattern, "must be `default` or a lowercase role name"), ModelEntry)
    .optional().describe("roles: `default` plus named ones a workflow's agent step may ask for"),
  publishFolder: z.string().max(256).regex(
    /^(?![/\\])(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/,
    "must be a folder relative to the project, such as `docs/specs`",
  ).optional().describe(
    "where the built-in workflows publish their documents ({publishFolder} in a stage's publish path), " +
      "relative to the project; default docs/weft; read from the project's weft.json",
  ),
  commands: z.record(z.string().regex(NamePattern, "must be a lowercase name such as `test`"), ArgumentVector)
    .optional().describe(
      "the project's own commands by name (e.g. test, lint), which command steps name in `run`; read from " +
        "the project's weft.json only, and run only once the person trusts them",
    ),
  service: ServiceSettings.optional().describe(
    "the service's own settings; read from the user-level file only, so a project cannot set them",
  ),
  team: TeamSettings.optional(),
});

/** Where a resolved entry came from. */
export type ModelOrigin = "project" | "user";

/** A role's entry with where it came from. */
export interface ResolvedModel {
  role: string;
  entry: ModelEntry;
  origin: ModelOrigin;
  /** The file that holds it, for messages a person reads on their own machine. */
  file: string;
}

/** The default request timeout, in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 120;

/** The API roots used when an entry names none. */
export const HOSTED_BASE_URLS = {
  "openai-compatible": "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
} as const;

/** Where the files live; the user's two are unknown when no absolute user config folder is. */
export interface ConfigLocations {
  projectFile: string;
  userFile: string | undefined;
  /** The person's project trust record, beside the user-level file. */
  trustFile: string | undefined;
}

/**
 * The project's `weft.json`, the platform's user-level file (`$XDG_CONFIG_HOME/weft/weft.json` on Linux) and
 * the project trust record beside it.
 */
export function configLocations(
  projectDir: string,
  env: (name: string) => string | undefined,
): ConfigLocations {
  const userDir = userConfigDir(env);
  return {
    projectFile: join(projectDir, "weft.json"),
    userFile: userDir && join(userDir, "weft", "weft.json"),
    trustFile: userDir && join(userDir, "weft", "trusted-projects.json"),
  };
}

/**
 * The user's config folder, only as an absolute path: a relative one (HOME unset, say) would resolve inside
 * the working directory, which may be the very repository whose files must not configure or trust anything.
 */
function userConfigDir(env: (name: string) => string | undefined): string | undefined {
  const absolute = (path: string | undefined) => path && isAbsolute(path) ? path : undefined;
  const home = absolute(env("HOME")) ?? absolute(env("USERPROFILE"));
  if (Deno.build.os === "windows") {
    return absolute(env("APPDATA")) ?? (home && join(home, "AppData", "Roaming"));
  }
  if (Deno.build.os === "darwin") return home && join(home, "Library", "Application Support");
  return absolute(env("XDG_CONFIG_HOME")) ?? (home && join(home, ".config"));
}

/**
 * The idle exit of a service started on someone's behalf, from the user-level file's `service.idleExit`
 * (default 30 minutes; 0 is never). A file that cannot be read or says something else gives the default,
 * flagged `invalid`, so a broken setting never keeps the service from starting.
 */
export function configuredIdleExit(
  env: (name: string) => string | undefined = readEnv,
): { idleExitMs: number; invalid?: true } {
  const fallback = { idleExitMs: DEFAULT_IDLE_EXIT_MS };
  // No user folder (HOME unset or relative): no user file, so the default.
  const { userFile } = configLocations(".", env);
  if (userFile === undefined) return fallback;
  let raw: unknown;
  try {
    raw = JSON.parse(Deno.readTextFileSync(userFile));
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? fallback : { ...fallback, invalid: true };
  }
  const settings = ServiceSettings.optional().safeParse((raw as { service?: unknown } | null)?.service);
  if (!settings.success) return { ...fallback, invalid: true };
  const idleExit = settings.data?.idleExit;
  if (idleExit === undefined) return fallback;
  return { idleExitMs: typeof idleExit === "number" ? idleExit * 1000 : parseDuration(idleExit)! };
}

/**
 * The project's `publishFolder` (weft.json), or undefined when it names none or cannot be read: a broken file
 * is reported by `weft doctor` and never keeps the service from starting. It needs no trust: it names a
 * folder inside the project, and every write there is confined to the project.
 */
export function configuredPublishFolder(projectDir: string): string | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(Deno.readTextFileSync(join(projectDir, "weft.json")));
  } catch {
    return undefined;
  }
  const parsed = ModelConfigFile.shape.publishFolder.safeParse(
    (raw as { publishFolder?: unknown })?.publishFolder,
  );
  return parsed.success ? parsed.data : undefined;
}

/** One file as read: absent, its roles, or why it cannot be used. */
type FileState =
  | { kind: "absent" }
  | { kind: "ok"; models: Record<string, ModelEntry>; commands: Record<string, string[]> }
  | { kind: "invalid"; problem: string };

/**
 * The roles as the engine and `status` ask about them, both files looked at on disk at every question and
 * read again whenever they changed. Where the files are is worked out once: it depends only on the service's
 * own environment (HOME, XDG_CONFIG_HOME), which nothing outside the process can change, and working it out
 * cost a third of listing the roles.
 */
export function modelRolesOf(projectDir: string): ModelRoles {
  const locations = configLocations(projectDir, readEnv);
  return {
    readiness: (role) => ModelConfig.read(projectDir, readEnv, locations).readiness(role),
    list: () => {
      const config = ModelConfig.read(projectDir, readEnv, locations);
      return config.roles().map((role) => config.readiness(role));
    },
    configured: () => ModelConfig.read(projectDir, readEnv, locations).configured(),
  };
}

/** The project's content that needs trust, and whether the person's record trusts exactly it. */
export interface ProjectTrustState extends DigestedContent {
  trusted: boolean;
  /** The project's real path, the key of its record. */
  key: string | undefined;
  record: TrustRecord;
}

/** The model configuration of one project as read from disk now. */
export class ModelConfig {
  #trust: ProjectTrustState | undefined;

  private constructor(
    readonly locations: ConfigLocations,
    readonly project: FileState,
    readonly user: FileState,
    private readonly readTrust: () => ProjectTrustState,
    readonly env: (name: string) => string | undefined,
  ) {}

  /**
   * Reads both files; the trust record and the project's content that needs trust are read at the first
   * question about them, since most questions (a role the project does not name) never ask: walking the
   * project's workflows and hashing them on every `status` cost more than the rest of the call.
   */
  static read(
    projectDir: string,
    env: (name: string) => string | undefined = readEnv,
    locations: ConfigLocations = configLocations(projectDir, env),
  ): ModelConfig {
    const project = readFile(locations.projectFile, PROJECT_FILES, "weft.json");
    const readTrust = (): ProjectTrustState => {
      const content = trustedContentOf({
        models: project.kind === "ok" ? project.models : {},
        commands: project.kind === "ok" ? project.commands : {},
        ...projectTrustedSteps(projectTreeAt(projectDir)),
      });
      const record = readTrustRecord(locations.trustFile);
      const key = projectKey(projectDir);
      return { ...content, key, record, trusted: !content.empty && isTrusted(record, key, content.digest) };
    };
    return new ModelConfig(
      locations,
      project,
      locations.userFile ? readFile(locations.userFile, USER_FILES, locations.userFile) : { kind: "absent" },
      readTrust,
      env,
    );
  }

  /** The project's content that needs trust and whether the person trusts it, read once at first use. */
  get trust(): ProjectTrustState {
    return this.#trust ??= this.readTrust();
  }

  /** Every role either file names, `default` first. */
  roles(): string[] {
    const names = new Set<string>(["default"]);
    for (const state of [this.project, this.user]) {
      if (state.kind === "ok") { for (const role of Object.keys(state.models)) names.add(role); }
    }
    return [...names];
  }

  /** Whether either file names a model role, or does not read (its problem is then every role's reason). */
  configured(): boolean {
    return [this.project, this.user].some((state) =>
      state.kind === "invalid" || (state.kind === "ok" && Object.keys(state.models).length > 0)
    );
  }

  /**
   * The entry of `role`, or why there is none (a broken project file hides every role). The project's entry
   * counts only while the person trusts the project's content; until then the user's own entry of the role
   * applies, and a role only the project names is `untrusted` (its entry is given, to be shown, never used).
   */
  resolve(role: string):
    | { ok: true; model: ResolvedModel }
    | { ok: false; reason: string; untrusted?: ModelEntry } {
    if (this.project.kind === "invalid") return { ok: false, reason: this.project.problem };
    const own = this.project.kind === "ok" ? this.project.models[role] : undefined;
    if (own && this.trust.trusted) {
      return { ok: true, model: { role, entry: own, origin: "project", file: this.locations.projectFile } };
    }
    if (this.user.kind === "invalid") return { ok: false, reason: this.user.problem };
    const personal = this.user.kind === "ok" ? this.user.models[role] : undefined;
    if (personal) {
      return { ok: true, model: { role, entry: personal, origin: "user", file: this.locations.userFile! } };
    }
    if (own) {
      return {
        ok: false,
        untrusted: own,
        reason:
          `models.${role} comes from this project's weft.json, which is not trusted: weft sends nothing ` +
          "to a model a repository names until you trust it; run `weft trust` to review and trust it",
      };
    }
    return {
      ok: false,
      reason: `no model is configured for the role "${role}": add models.${role} to weft.json ` +
        "(see docs/models.md)",
    };
  }

  /** Whether `role` can run now without asking the network: it resolves, is trusted and its key is at hand. */
  readiness(role: string): RoleReadiness {
    const resolved = this.resolve(role);
    if (!resolved.ok) {
      const entry = resolved.untrusted;
      if (!entry) return { role, ready: false, reason: resolved.reason };
      return { ...describe(role, entry, "project"), trusted: false, ready: false, reason: resolved.reason };
    }
    const { entry, origin } = resolved.model;
    const base = { ...describe(role, entry, origin), ...(origin === "project" ? { trusted: true } : {}) };
    if (entry.apiKeyEnv && !carriesKeySafely(baseUrlOf(entry))) {
      return {
        ...base,
        ready: false,
        reason: `models.${role} would send the key in ${entry.apiKeyEnv} over plain http:// to ` +
          `${new URL(baseUrlOf(entry)).host}, where anyone on the way can read it: use an https:// baseURL ` +
          "(plain http:// only to this machine)",
      };
    }
    if (entry.apiKeyEnv) {
      const keySet = Boolean(this.env(entry.apiKeyEnv));
      return {
        ...base,
        keySet,
        ready: keySet,
        ...(keySet ? {} : {
          reason: `the environment variable ${entry.apiKeyEnv} (models.${role}.apiKeyEnv) is not set ` +
            "where the service runs; set it and restart the service",
        }),
      };
    }
    if (!isLoopback(baseUrlOf(entry))) {
      return {
        ...base,
        keySet: false,
        ready: false,
        reason: `models.${role} talks to ${new URL(baseUrlOf(entry)).host} without a key: name the ` +
          "environment variable that holds it in apiKeyEnv",
      };
    }
    return { ...base, ready: true };
  }

  /** The key of a resolved entry, read from its environment variable at the moment of use. */
  keyOf(model: ResolvedModel): string | undefined {
    return model.entry.apiKeyEnv ? this.env(model.entry.apiKeyEnv) || undefined : undefined;
  }
}

/** What a role's readiness says of its entry, whatever else it says. */
function describe(role: string, entry: ModelEntry, origin: ModelOrigin) {
  return {
    role,
    provider: entry.provider,
    model: entry.model,
    baseURL: baseUrlOf(entry),
    origin,
    ...(entry.apiKeyEnv ? { apiKeyEnv: entry.apiKeyEnv } : {}),
  };
}

/** Whether a key may travel to `url`: over TLS, or over plain HTTP only to this machine. */
function carriesKeySafely(url: string): boolean {
  return new URL(url).protocol === "https:" || isLoopback(url);
}

/** The API root an entry talks to. */
export function baseUrlOf(entry: ModelEntry): string {
  return (entry.baseURL ?? HOSTED_BASE_URLS[entry.provider]).replace(/\/+$/, "");
}

/** Whether a URL points at this machine, where no key is needed. */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/** A file's text as its state: its roles, or why it cannot be used (`label` names it in the reason). */
function stateOf(text: string, label: string): FileState {
  const parsed = parseModelConfig(text, label);
  return parsed.ok
    ? { kind: "ok", models: parsed.models, commands: parsed.commands }
    : { kind: "invalid", problem: parsed.problem };
}

/**
 * Both files as last parsed, kept while each stays the same file unchanged: reading, parsing and checking a
 * file cost ~60–110 µs of every `status` that has one, a `stat` a few. The project's file is named
 * `weft.json` in a reason, the user's by its path.
 */
const PROJECT_FILES = new ParsedFileCache<FileState>((text) => stateOf(text, "weft.json"));
const USER_FILES = new ParsedFileCache<FileState>((text, path) => stateOf(text, path));

function readFile(path: string, files: ParsedFileCache<FileState>, label: string): FileState {
  // A file that exists but cannot be read hides every role with its reason; one removed in between is absent.
  try {
    return files.read(path) ?? { kind: "absent" };
  } catch (error) {
    return { kind: "invalid", problem: `${label}: cannot be read (${(error as Error).name})` };
  }
}

/** Parses one file's text; a key written into it is refused naming the field, before any schema check. */
export function parseModelConfig(
  text: string,
  label: string,
):
  | { ok: true; models: Record<string, ModelEntry>; commands: Record<string, string[]> }
  | { ok: false; problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `${label}: not valid JSON (${(error as Error).message})` };
  }
  const secret = findSecret(raw, "");
  if (secret) {
    return {
      ok: false,
      problem: `${label}: ${secret} looks like a key; keys are never written in a file: put it in an ` +
        "environment variable and name that variable in apiKeyEnv",
    };
  }
  const parsed = ModelConfigFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue.path.length ? issue.path.join(".") : "(top level)";
    return { ok: false, problem: `${label}: ${at}: ${issue.message}` };
  }
  return { ok: true, models: parsed.data.models ?? {}, commands: parsed.data.commands ?? {} };
}

/** Fields whose name says they hold a secret. */
const SECRET_FIELD = /^(api[-_]?key|key|token|secret|password|authorization|auth)$/i;
/** Values shaped like the keys providers hand out, or like a long random token. */
const SECRET_VALUE =
  /^(sk-|sk_|sk-ant-|xai-|gsk_|hf_|AIza|ghp_|pk-)[A-Za-z0-9_\-]{8,}|^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_\-]{32,}$/;

/** The dotted path of the first key-looking value (or secret-named field), if any. */
function findSecret(value: unknown, path: string): string | undefined {
  if (typeof value === "string") {
    if (SECRET_VALUE.test(value)) return path || "(top level)";
    try {
      const url = new URL(value);
      if (url.password || url.username || /key|token/i.test(url.search)) return path;
    } catch {
      // not a URL
    }
    return undefined;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findSecret(item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (SECRET_FIELD.test(key) && typeof item === "string" && item) return at;
      const found = findSecret(item, at);
      if (found) return found;
    }
  }
  return undefined;
}

/** The JSON Schema of `weft.json`, as shipped in `schema/weft.schema.json`. */
export function modelConfigJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ModelConfigFile, { io: "input", target: "draft-2020-12" }),
    $id: "https://weft.local/schema/weft.schema.json",
    title: "weft model configuration (weft.json)",
  };
}
