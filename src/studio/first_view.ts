/**
 * The first view's data, embedded in the page a ticket opens: the answers to the calls the home view makes
 * first, so that its list shows as soon as the script runs instead of after the MCP session is up. Shared by
 * the service (which answers them) and the page (which takes them once, in place of the same calls).
 *
 * @module
 */

/** Runs per page of the Runs view. */
export const RUNS_PAGE_SIZE = 50;

/** The id of the `<script type="application/json">` element that holds the answers. */
export const FIRST_VIEW_ELEMENT_ID = "weft-studio-first-view";

/** One tool call and its structured result. */
export interface FirstAnswer {
  name: string;
  arguments: Record<string, unknown>;
  result: unknown;
}

/** The calls the home view (`#/runs?status=waiting`, its first page) makes first, as the page makes them. */
export const FIRST_VIEW_CALLS: readonly {
  name: "list_runs";
  arguments: { status: "waiting"; limit: number };
}[] = [{ name: "list_runs", arguments: { status: "waiting", limit: RUNS_PAGE_SIZE } }];

/**
 * `answers` as the body of a `<script type="application/json">` element: JSON in which `<`, `>`, `&` and the
 * line separators are escaped, so no text in a Run (a `</script>`, a `<!--`) can end the element or start
 * markup, and the data stays data.
 */
export function embeddedJson(answers: readonly FirstAnswer[]): string {
  return JSON.stringify(answers).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
