/**
 * The answers the page a ticket opened carries for the home view's first calls (`src/studio/first_view.ts`):
 * taken out of the page once, and each given once, to the first identical call, so the list shows before the
 * session is up. Whatever changed since then is read again once the session is up (`connection.ts`).
 *
 * @module
 */

import { FIRST_VIEW_ELEMENT_ID, type FirstAnswer } from "../first_view.ts";

let answers: FirstAnswer[] = [];

/** Takes the embedded answers out of the page (once, before the first view renders). */
export function takeFirstAnswers(): void {
  const element = document.getElementById(FIRST_VIEW_ELEMENT_ID);
  if (!element) return;
  element.remove();
  try {
    const parsed = JSON.parse(element.textContent ?? "[]");
    if (Array.isArray(parsed)) answers = parsed;
  } catch {
    // Unreadable: every call goes through the session, as without answers.
  }
}

/**
 * The embedded result of calling `name` with exactly `args`, given once (unless `keep`: the header's count
 * reads the answer the list then takes); undefined when there is none.
 */
export function firstAnswer(
  name: string,
  args: Record<string, unknown>,
  { keep = false }: { keep?: boolean } = {},
): { result: unknown } | undefined {
  const wanted = JSON.stringify(sorted(args));
  const index = answers.findIndex((answer) =>
    answer.name === name && JSON.stringify(sorted(answer.arguments)) === wanted
  );
  if (index < 0) return undefined;
  const answer = keep ? answers[index] : answers.splice(index, 1)[0];
  return { result: answer.result };
}

function sorted(args: Record<string, unknown>): [string, unknown][] {
  return Object.entries(args).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
}
