/**
 * What the service's tools and resources return, as every client names it: the view types of Runs,
 * workflows, Artifacts, Records, timeline events and a running command's output (the engine defines them
 * once, and the wire carries them as they are), the helpers read from a status, and the page sizes lists
 * take. The CLI imports them from here; Studio's page derives its own types from them (a type-only import,
 * which its bundle erases).
 *
 * @module
 */

export type {
  ActionReview,
  ArtifactView,
  ChangesEvidence,
  Cursor,
  ListItemStatus,
  ListItemView,
  ListView,
  PendingActionView,
  PendingAgentCallView,
  PendingCommandView,
  PublicationDriftView,
  RecordView,
  ReviewItem,
  RunEventView,
  RunStatus,
  RunView,
  Source,
  VerifyEvidence,
  WorkflowView,
} from "../engine/views.ts";
export type { PublishedQuestion } from "../engine/answers.ts";
export type { StreamTail } from "../engine/command_step.ts";
export type { RunningCommandOutput } from "../engine/command_output.ts";
export type { ResumableFailure } from "../errors.ts";
export { isActive, LIST_ITEM_STATUSES, RUN_STATUSES } from "../engine/views.ts";
export { type RunTasks, runTasks } from "../engine/run_tasks.ts";
export { PAGE_SIZE, PAGE_SIZE_TEXT } from "../engine/paging.ts";
