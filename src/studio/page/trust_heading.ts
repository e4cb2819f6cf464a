/**
 * The trust notice's heading: it names what asks for trust, since a project's workflows may ask to run
 * commands, or to change files, without any weft.json. Pure, so it is tested on its own.
 *
 * @module
 */

/** What a project asks to be trusted for, as `trust_project` reports it. */
export interface TrustContent {
  roles: readonly unknown[];
  content: {
    commands?: Record<string, unknown>;
    commandSteps?: readonly unknown[];
    editSteps?: readonly unknown[];
  };
}

/** "This project's weft.json is not trusted", or its workflow commands, or its workflows' file edits, or all. */
export function trustHeading(trust: TrustContent): string {
  const parts = [
    ...(trust.roles.length > 0 || Object.keys(trust.content.commands ?? {}).length > 0 ? ["weft.json"] : []),
    ...((trust.content.commandSteps ?? []).length > 0 ? ["workflow commands"] : []),
    ...((trust.content.editSteps ?? []).length > 0 ? ["workflow file edits"] : []),
  ];
  if (!parts.length) parts.push("weft.json");
  const named = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return `This project's ${named} ${
    parts.length === 1 && parts[0] === "weft.json" ? "is" : "are"
  } not trusted`;
}
