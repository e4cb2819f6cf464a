/**
 * What a Run's timeline says of each task of its list: the last command that ended and the last changes
 * read while the task ran. Items run one at a time, so the events between a task's `item_started` and the
 * next item's belong to it. Pure: no DOM, no service, so it is tested on its own.
 *
 * @module
 */

import type { RunEvent } from "./types.ts";

/** What one task's timeline holds: its last verify's `command_ended`, its last `changes_read`. */
export interface TaskEvidence {
  command?: RunEvent;
  changes?: RunEvent;
}

/** Each task's evidence, by task id; a task that never began has none. */
export function taskEvidence(events: RunEvent[]): Map<string, TaskEvidence> {
  const byTask = new Map<string, TaskEvidence>();
  let current: TaskEvidence | undefined;
  for (const event of events) {
    if (event.type === "item_started" && typeof event.itemId === "string") {
      // A task begun again (a new attempt is not a new start) keeps only what its latest start led to.
      current = {};
      byTask.set(event.itemId, current);
    } else if (event.type === "item_ended" || event.type === "list_ended") {
      current = undefined;
    } else if (current && event.type === "command_ended") {
      current.command = event;
    } else if (current && event.type === "changes_read") {
      current.changes = event;
    }
  }
  return byTask;
}
