/**
 * `weft config <ide>`: prints the MCP server entry for Codex, Claude Code, Cursor or VS Code, ready to paste
 * into that IDE's configuration file. The stdio form launches `weft mcp` and needs no token at all; the HTTP
 * form names the `WEFT_TOKEN` environment variable in the IDE's own syntax and never holds the token.
 *
 * @module
 */

import { endpointFor, HUMAN_WAIT_MS } from "../../client/endpoints.ts";
import { recordedConnection } from "../../client/recorded_connection.ts";
import { UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { lastingCommand, weftCommand } from "../terminal/invocation.ts";
import { say } from "../terminal/screen.ts";
import { visibleJson } from "../../lib/visible_text.ts";

/** The environment variable the HTTP form reads the token from; `weft token` prints its value. */
export const TOKEN_VARIABLE = "WEFT_TOKEN";

/** Seconds an IDE may wait for the bridge's first answer, which may include starting the service. */
const STARTUP_TIMEOUT_SEC = 60;

/** How the IDE reaches weft. */
type Launch = { kind: "stdio"; command: string; args: string[] } | { kind: "http"; url: string };

/** One IDE's configuration format. */
interface IdeFormat {
  name: string;
  /** Where the snippet goes. */
  file: string;
  /** Codex gets its own presentation endpoint. */
  codex: boolean;
  snippet(launch: Launch): string;
  /** What else the person must know, printed on stderr so stdout stays pasteable. */
  notes: string[];
}

const bearer = (reference: string) => ({ Authorization: `Bearer ${reference}` });

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The four IDEs, by the name `weft config` takes. */
export const IDE_FORMATS: Record<string, IdeFormat> = {
  codex: {
    name: "Codex",
    file: "~/.codex/config.toml",
    codex: true,
    snippet: (launch) =>
      [
        "[mcp_servers.weft]",
        ...(launch.kind === "stdio"
          ? [`command = ${toml(launch.command)}`, `args = [${launch.args.map(toml).join(", ")}]`]
          : [`url = ${toml(launch.url)}`, `bearer_token_env_var = ${toml(TOKEN_VARIABLE)}`]),
        `startup_timeout_sec = ${STARTUP_TIMEOUT_SEC}`,
        // A person answering a form keeps `interact` running; Codex must not give up on them.
        `tool_timeout_sec = ${HUMAN_WAIT_MS / 1000}`,
      ].join("\n"),
    notes: [],
  },
  claude: {
    name: "Claude Code",
    file: ".mcp.json in the project (or `claude mcp add-json weft '<the weft entry>'`)",
    codex: false,
    snippet: (launch) =>
      json({
        mcpServers: {
          weft: launch.kind === "stdio"
            ? { type: "stdio", command: launch.command, args: launch.args }
            : { type: "http", url: launch.url, headers: bearer(`\${${TOKEN_VARIABLE}}`) },
        },
      }),
    notes: [
      `set MCP_TOOL_TIMEOUT=${HUMAN_WAIT_MS} in Claude Code's environment so long human answers do not time out`,
    ],
  },
  cursor: {
    name: "Cursor",
    file: ".cursor/mcp.json in the project (or ~/.cursor/mcp.json)",
    codex: false,
    snippet: (launch) =>
      json({
        mcpServers: {
          weft: launch.kind === "stdio"
            ? { command: launch.command, args: launch.args }
            : { url: launch.url, headers: bearer(`\${env:${TOKEN_VARIABLE}}`) },
        },
      }),
    notes: [],
  },
  vscode: {
    name: "VS Code",
    file: ".vscode/mcp.json in the project",
    codex: false,
    snippet: (launch) =>
      json({
        servers: {
          weft: launch.kind === "stdio"
            ? { type: "stdio", command: launch.command, args: launch.args }
            : { type: "http", url: launch.url, headers: bearer(`\${env:${TOKEN_VARIABLE}}`) },
        },
      }),
    notes: [],
  },
};

/** `weft config <ide> [--stdio|--http]` */
export const configCommand = defineCommand({
  name: "config",
  summary: "print the MCP entry for codex, claude, cursor or vscode",
  synopsis: "config <codex|claude|cursor|vscode> [--stdio|--http]",
  description: `Prints the MCP server entry for that IDE, ready to paste; where it goes is said on stderr.`,
  options: {
    stdio: {
      type: "boolean",
      help: "(the default) the IDE launches `weft mcp`, which starts the service when needed; no token",
    },
    http: {
      type: "boolean",
      help: `connect to the running service directly; the token comes from $${TOKEN_VARIABLE}
(set it with: export ${TOKEN_VARIABLE}="$(weft token)")`,
    },
  },
  json: 'print { "ide", "name", "transport", "file", "snippet", "notes" }',
  async run({ projectDir, options, positionals, json }) {
    const [ide, ...extra] = positionals;
    const format = ide === undefined || !Object.hasOwn(IDE_FORMATS, ide) ? undefined : IDE_FORMATS[ide];
    if (!format || extra.length) {
      throw new UsageError(`name one IDE: ${Object.keys(IDE_FORMATS).join(", ")}`);
    }
    if (options.stdio && options.http) throw new UsageError("choose either --stdio or --http");
    const launch = options.http ? await httpLaunch(projectDir, format) : stdioLaunch(projectDir, format);
    const snippet = format.snippet(launch);
    const notes = [
      ...(launch.kind === "http"
        ? [`set the token first: export ${TOKEN_VARIABLE}="$(${weftCommand("token")})"`]
        : []),
      ...format.notes,
    ];
    if (json) {
      say(visibleJson({ ide, name: format.name, transport: launch.kind, file: format.file, snippet, notes }));
      return EXIT.OK;
    }
    say(`# ${format.name}: paste into ${format.file}`, Deno.stderr);
    for (const note of notes) say(`# ${note}`, Deno.stderr);
    say(snippet);
    return EXIT.OK;
  },
});

function stdioLaunch(projectDir: string, format: IdeFormat): Launch {
  const self = lastingCommand();
  const args = [...self.args, "mcp", "--project", projectDir, ...(format.codex ? ["--codex"] : [])];
  return { kind: "stdio", command: self.command, args };
}

async function httpLaunch(projectDir: string, format: IdeFormat): Promise<Launch> {
  const connection = await recordedConnection(
    projectDir,
    "the HTTP form needs the service's port",
    "run `weft start` once, or use the stdio form (the default)",
  );
  return {
    kind: "http",
    url: new URL(endpointFor("agent_ide", { codex: format.codex }).path, connection.url).href,
  };
}

/** A TOML basic string: JSON's string escapes are a subset of TOML's. */
function toml(text: string): string {
  return JSON.stringify(text);
}
