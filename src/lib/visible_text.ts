/**
 * Untrusted text made safe to show: every character that a terminal or a page would act on instead of showing
 * (C0 and C1 controls, DEL, and the Unicode marks that reorder or hide text) is written out as a visible escape.
 * Repository files, workflow definitions, agent and model output and command output reach a person only
 * through this, so that what a person reads is what the text holds: `\x1b[2K\r` cannot erase a line of a diff or
 * of a command a person is asked to trust.
 *
 * @module
 */

/**
 * C0 controls but line feed and tab, DEL, C1 controls, and the bidirectional and invisible formatting marks
 * (left-to-right/right-to-left marks, embeddings, overrides, isolates) that can make text read other than it is.
 */
const HIDDEN =
  // deno-lint-ignore no-control-regex -- control characters are exactly what it finds
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** `text` with each control or hiding character written as `\xHH` or `\uHHHH`; line feeds and tabs kept. */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, escapeOf);
}

/** `text` on one line: as `visibleText`, and line feeds and tabs escaped too (`\n`, `\t`). */
export function visibleLine(text: string): string {
  return visibleText(text).replace(/\n/g, "\\n").replace(/\t/g, "\\t");
}

/**
 * `value` as JSON text in which no control or hiding character stays raw: JSON.stringify escapes C0 controls
 * already; C1 controls, DEL and the hiding marks become `\uHHHH` escapes, which every JSON reader reads back as
 * the same characters. For JSON printed where a person may see it (a script's output in a terminal).
 */
export function visibleJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(HIDDEN, (character) => `\\u${hex(character, 4)}`);
}

function escapeOf(character: string): string {
  const code = character.charCodeAt(0);
  return code <= 0xff ? `\\x${hex(character, 2)}` : `\\u${hex(character, 4)}`;
}

function hex(character: string, digits: number): string {
  return character.charCodeAt(0).toString(16).padStart(digits, "0");
}
