/**
 * The trust notice's heading: it names what asks for trust, since a project's workflows may ask to run
 * commands without any weft.json. Pure, so it is tested on its own.
 *
 * @module
 */

/** What a project asks to be trusted for, as `trust_project` reports it. */
export interface TrustContent {
  roles: readonly unknown[];
  content: { commands?: Record<string, unknown>; commandSteps?: readonly unknown[] };
}

/** "This project's weft.json is not trusted", or its workflow commands, or both. */
export function trustHeading(trust: TrustContent): string {
  const weftJson = trust.roles.length > 0 || Object.keys(trust.content.commands ?? {}).length > 0;
  const steps = (trust.content.commandSteps ?? []).length > 0;
  if (steps && !weftJson) return "This project's workflow commands are not trusted";
  if (steps) return "This project's weft.json and workflow commands are not trusted";
  return "This project's weft.json is not trusted";
}
