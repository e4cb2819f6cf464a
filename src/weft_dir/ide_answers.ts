/**
 * `.weft/ide_answers.json`: the service's last answers to the requests an IDE opens a session with
 * (`initialize`, `tools/list`…), per weft version and endpoint, so that `weft mcp` can give them while the
 * service it starts gets ready. The file is weft's own state, held to the checks of `trust.ts` like the
 * others: answers that reach an agent's context never come from a file a repository brought along.
 *
 * @module
 */

import { VERSION } from "../version.ts";
import { replaceFile } from "../lib/replace_file.ts";
import type { WeftPaths } from "./paths.ts";

/** One endpoint's answers: the `result` of each request, by the key that says which request it answers. */
export type IdeAnswers = Record<string, unknown>;

/** The file: answers of one weft version, by endpoint path. */
interface IdeAnswersFile {
  weft: string;
  endpoints: Record<string, IdeAnswers>;
}

/**
 * The answers recorded for `endpointPath` by this version of weft; none when there is no file, it cannot be
 * understood, or another version wrote it. The caller has verified `.weft/` (`verifyWeftDir`) just before.
 */
export async function readIdeAnswers(paths: WeftPaths, endpointPath: string): Promise<IdeAnswers> {
  return (await readFile(paths))?.endpoints[endpointPath] ?? {};
}

/**
 * Records `answers` for `endpointPath` under this version of weft, beside what the file holds for the other
 * endpoints (a file of another version is replaced whole). Atomic, at mode 0600 like weft's other state.
 */
export async function recordIdeAnswers(
  paths: WeftPaths,
  endpointPath: string,
  answers: IdeAnswers,
): Promise<void> {
  const file = await readFile(paths) ?? { weft: VERSION, endpoints: {} };
  file.endpoints[endpointPath] = { ...file.endpoints[endpointPath], ...answers };
  await replaceFile(paths.ideAnswers, JSON.stringify(file) + "\n", { mode: 0o600 });
}

async function readFile(paths: WeftPaths): Promise<IdeAnswersFile | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(paths.ideAnswers);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  try {
    const value = JSON.parse(text);
    const endpoints = value?.endpoints;
    if (value?.weft !== VERSION || typeof endpoints !== "object" || endpoints === null) return undefined;
    for (const answers of Object.values(endpoints)) {
      if (typeof answers !== "object" || answers === null || Array.isArray(answers)) return undefined;
    }
    return value as IdeAnswersFile;
  } catch {
    // A torn or hand-edited file is as good as none: the next real answers replace it.
    return undefined;
  }
}
