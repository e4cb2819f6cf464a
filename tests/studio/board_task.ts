/**
 * What the tests of Studio's task board read of it: each task's column and badge, and one task opened to its
 * last verify's output.
 *
 * @module
 */
import { type Locator, shown } from "./support.ts";

/** A task opened on the board: the task, its last verify's first line, and the output the test opened. */
export interface OpenedVerify {
  task: Locator;
  line: string;
  output: string | undefined;
}

/** Opens task `id` on `board`, waits for its last verify, and opens that verify's `stream` output. */
export async function openVerify(
  board: Locator,
  id: string,
  stream: "stdout" | "stderr",
): Promise<OpenedVerify> {
  const task = board.locator(`details.task[data-task="${id}"]`);
  await task.locator(":scope > summary").click();
  await shown(task.getByText("Last verify:"), `${id}'s last verify`);
  const line = (await task.locator(".verify p").first().textContent()) ?? "";
  const output = task.locator("details.command-output").filter({ hasText: stream });
  await output.locator(":scope > summary").click();
  return { task, line, output: (await output.locator("pre").textContent())?.trim() };
}

/** What the page's tasks hold, as far as {@linkcode boardTasks} reads them (the tests type no DOM). */
interface TaskElement {
  getAttribute(name: string): string | null;
  closest(selector: string): TaskElement | null;
  querySelector(selector: string): { textContent: string | null } | null;
}

/**
 * Each task on `board` by id: the column it is in and the status its badge says. Read in one go inside the
 * page: the board re-renders as the Run's events arrive, and a task read one locator at a time can be
 * replaced meanwhile, which leaves the read waiting for an element that is gone.
 */
export function boardTasks(board: Locator): Promise<Record<string, { column: string; status: string }>> {
  return board.evaluate((root) => {
    const found: Record<string, { column: string; status: string }> = {};
    const tasks = (root as unknown as { querySelectorAll(s: string): Iterable<TaskElement> })
      .querySelectorAll("details.task");
    for (const task of tasks) {
      found[task.getAttribute("data-task") ?? ""] = {
        column: task.closest("section.column")?.getAttribute("aria-label") ?? "",
        status: (task.querySelector(".badge")?.textContent ?? "").trim(),
      };
    }
    return found;
  });
}
