/**
 * Command-line parsing: the typed options a command declares, and the options every command understands
 * (`--project`, `--json`, `--help`). Every parsing mistake is a {@linkcode UsageError}.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { WeftError } from "../../errors.ts";
import { resolve } from "node:path";
import { nearest } from "./suggest.ts";
import { DURATION_FORMS, parseDuration } from "../../lib/duration.ts";

/** Raised for a wrong command line; the CLI prints it with the command's usage and exits 2. */
export class UsageError extends WeftError {
  constructor(message: string) {
    super("USAGE", message);
    this.name = "UsageError";
  }
}

/** An on/off flag: `--follow`. */
export interface FlagOption {
  type: "boolean";
  short?: string;
  help: string;
}

/** An option with text: `--flow NAME`. */
export interface TextOption {
  type: "string";
  /** The placeholder shown in help, e.g. `NAME`. */
  arg: string;
  short?: string;
  help: string;
}

/** An option with a whole number in `[min, max]`: `--limit N`. */
export interface IntegerOption {
  type: "integer";
  arg: string;
  min: number;
  max?: number;
  help: string;
}

/** An option with a duration (`--idle-exit 30m`), parsed to milliseconds. */
export interface DurationOption {
  type: "duration";
  arg: string;
  help: string;
}

/** One declared option. */
export type OptionSpec = FlagOption | TextOption | IntegerOption | DurationOption;

/** A command's declared options, by long name without the dashes. */
export type OptionSpecs = Record<string, OptionSpec>;

/** `--port N`, as `start` and `serve` take it. */
export const PORT_OPTION: IntegerOption = {
  type: "integer",
  arg: "N",
  min: 0,
  max: 65535,
  help: "listen on port N (0: any free port); default: the port of the last run, else any",
};

/** `--idle-exit DURATION`, as `start` and `serve` take it. */
export const IDLE_EXIT_OPTION: DurationOption = {
  type: "duration",
  arg: "DURATION",
  help: "exit after this long with no session, no stream and no work in progress: " + DURATION_FORMS,
};

/**
 * The options of every command that can prompt (`flow`, `attach`, `retry`, `trust`): one set, so that a
 * script passes the same `--no-interactive` to each.
 */
export const PROMPT_OPTIONS = {
  "no-interactive": {
    type: "boolean",
    help: "never prompt, as without a terminal: a Run is printed at its first wait, trust is not granted",
  },
} as const satisfies OptionSpecs;

/** The parsed value of each declared option: flags are booleans, the others absent unless given. */
export type OptionValues<O extends OptionSpecs> = {
  [K in keyof O]: O[K] extends FlagOption ? boolean
    : O[K] extends IntegerOption | DurationOption ? number | undefined
    : string | undefined;
};

/** What every command gets besides its own options. */
export interface ParsedArgs<O extends OptionSpecs> {
  options: OptionValues<O>;
  positionals: string[];
  /** `--project`, resolved; the working directory when absent. */
  projectDir: string;
  /** Whether `--project` was given (a given directory must exist; the working directory always does). */
  projectGiven: boolean;
  json: boolean;
  help: boolean;
  /** `--no-color`: no colour, as with `NO_COLOR` set. */
  noColor: boolean;
}

/** The options every command understands, documented once in every command's help. */
export const COMMON_OPTIONS = {
  project: { type: "string", arg: "DIR", help: "the project (default: the working directory)" },
  json: { type: "boolean", help: 'an error prints {"error":{code,message,retryable,fix}} on stdout' },
  help: { type: "boolean", short: "h", help: "print this help" },
  "no-color": { type: "boolean", help: "no colour, as with NO_COLOR set (also before the command)" },
} as const satisfies OptionSpecs;

/** Refuses positionals for a command that takes none (a project is named with `--project`). */
export function noArguments(positionals: string[]): void {
  if (positionals.length) {
    throw new UsageError(
      `takes no arguments, not "${positionals[0]}" (a project is named with --project DIR)`,
    );
  }
}

/** Parses `args` against the common options plus `specs`; unknown options and bad values are usage errors. */
export function parseCommandLine<O extends OptionSpecs>(args: string[], specs: O): ParsedArgs<O> {
  const all: OptionSpecs = { ...COMMON_OPTIONS, ...specs };
  const config = Object.fromEntries(
    Object.entries(all).map(([name, spec]) => {
      const short = "short" in spec ? spec.short : undefined;
      return [name, {
        type: spec.type === "boolean" ? "boolean" as const : "string" as const,
        ...(short ? { short } : {}),
      }];
    }),
  );
  let parsed;
  try {
    parsed = parseArgs({ args, options: config, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(plainMessage(error as Error, Object.keys(all)));
  }
  const raw = parsed.values as Record<string, string | boolean | undefined>;
  const options: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const value = raw[name];
    options[name] = spec.type === "boolean"
      ? value === true
      : spec.type === "integer" && value !== undefined
      ? parseInteger(String(value), `--${name}`, spec.min, spec.max)
      : spec.type === "duration" && value !== undefined
      ? parseDurationOption(String(value), `--${name}`)
      : value;
  }
  return {
    options: options as OptionValues<O>,
    positionals: parsed.positionals,
    projectDir: resolve(typeof raw.project === "string" ? raw.project : Deno.cwd()),
    projectGiven: typeof raw.project === "string",
    json: raw.json === true,
    help: raw.help === true,
    noColor: raw["no-color"] === true,
  };
}

/** The one integer parser of the CLI: digits only, within `[min, max]`, or a usage error naming the option. */
export function parseInteger(text: string, option: string, min: number, max?: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || (max !== undefined && value > max)) {
    const range = max === undefined ? `from ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${option} takes a whole number ${range}, not "${text}"`);
  }
  return value;
}

/** A duration in milliseconds, or a usage error naming the option and the accepted forms. */
function parseDurationOption(text: string, option: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new UsageError(`${option} takes a duration: ${DURATION_FORMS}; not "${text}"`);
  return ms;
}

/** node:util's messages end with advice meant for Node programs; keep the fact, and suggest the option meant. */
function plainMessage(error: Error, known: string[]): string {
  const unknown = error.message.match(/^Unknown option '-{1,2}([^']+)'/);
  if (!unknown) return error.message.split(". To ")[0];
  const meant = nearest(unknown[1], known);
  return `unknown option ${unknown[0].slice("Unknown option ".length)}` +
    (meant ? `; did you mean --${meant}?` : "");
}
