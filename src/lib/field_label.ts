/**
 * A JSON field name as a person reads it, the same in the terminal, IDE forms and Studio (whose page shares
 * this module, so it imports nothing and uses no runtime API).
 *
 * @module
 */

/** A field name as words: `openQuestions` and `open_questions` both read "Open questions". */
export function label(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").trim().toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : key;
}
