/**
 * Durations as a person writes them on a command line or in a settings file: `0`, bare seconds (`90`), or a
 * whole number with `s`, `m` or `h` (`90s`, `30m`, `2h`).
 *
 * @module
 */

/** The accepted forms, for messages and help texts. */
export const DURATION_FORMS = "0 (never), seconds (90), or a whole number with s, m or h (90s, 30m, 2h)";

/** The pattern of an accepted duration (bare digits are seconds). */
export const DURATION_PATTERN = /^(\d{1,9})([smh]?)$/;

const UNIT_MS: Record<string, number> = { "": 1000, s: 1000, m: 60_000, h: 3_600_000 };

/** The duration `text` stands for, in milliseconds, or undefined when it is not one of the accepted forms. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION_PATTERN.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2]];
}

/** A duration in the largest unit that writes it whole (`1800000` → `30m`), as a person would write it. */
export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0 && ms > 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0 && ms > 0) return `${ms / 60_000}m`;
  return `${Math.round(ms / 1000)}s`;
}
