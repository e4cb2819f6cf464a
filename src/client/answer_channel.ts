/**
 * How a person's answer reached a Run, in the words every client shows (the terminal and Studio alike):
 * "confirmed in Studio", "relayed by the IDE's agent". Studio's page bundles it, so it imports nothing.
 *
 * @module
 */

// It imports nothing, not even types: Studio's page bundles it (the channels are the engine's `AnswerChannel`).
const WHERE: Record<string, string> = {
  form: "in the IDE's form",
  relayed: "relayed by the IDE's agent",
  terminal: "in the terminal",
  studio: "in Studio",
};

/** Answers stored before weft kept channels name only their endpoint. */
const WHERE_BY_SOURCE: Record<string, string> = {
  cli: "in the terminal",
  studio: "in Studio",
  agent_ide: "through the IDE",
};

/** Where an answer came from, with who gave it when known: "in Studio", "relayed by the IDE's agent (Ann)". */
export function answeredWhere(given: { channel?: unknown; source?: unknown; by?: unknown }): string {
  const where = WHERE[String(given.channel)] ?? WHERE_BY_SOURCE[String(given.source)] ??
    "through an unknown channel";
  // A name is text of the person's configuration: the terminal shows the line through `visibleLine`.
  return typeof given.by === "string" && given.by ? `${where} (${given.by})` : where;
}

/** One timeline answer as a line: "Confirmed in Studio", "Answered, relayed by the IDE's agent". */
export function answeredLine(event: Record<string, unknown>): string {
  const answer = event.answer as { isConfirmed?: unknown } | undefined;
  const verb = event.kind !== "user_ask_confirmation"
    ? "Answered"
    : answer?.isConfirmed === true
    ? "Confirmed"
    : "Sent back for revision";
  const where = answeredWhere(event);
  return `${verb}${event.channel === "relayed" ? "," : ""} ${where}`;
}
