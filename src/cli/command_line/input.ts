/**
 * Reading what a person or a script hands a command as a file argument: a path, or `-` for stdin.
 *
 * @module
 */

import { CommandFailure } from "./failure.ts";

/** The text of `source`: stdin when it is `-`, else the file at that path. */
export async function readSource(source: string, option: string): Promise<string> {
  if (source === "-") return await new Response(Deno.stdin.readable).text();
  try {
    return await Deno.readTextFile(source);
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound ? "does not exist" : "cannot be read";
    throw new CommandFailure(
      "INVALID_INPUT",
      `${option} ${source} ${why}`,
      `pass a readable file, or - for stdin`,
    );
  }
}

/** The JSON document in `source`, refused with a usage failure when it is not JSON. */
export async function readJsonSource(source: string, option: string): Promise<unknown> {
  const text = await readSource(source, option);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CommandFailure(
      "INVALID_INPUT",
      `${option} must hold one JSON document: ${(error as Error).message}`,
      `send the exact answer JSON, e.g. '{ "isConfirmed": true }'`,
    );
  }
}
