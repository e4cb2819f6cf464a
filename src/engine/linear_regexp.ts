/**
 * The regular-expression engine of every JSON Schema `pattern` and `patternProperties` key: RE2's, whose
 * matching takes time linear in the text, so no answer, state or agent result can stall the service the way
 * backtracking does (`^(\w+\s?)*$` took a minute over 55 characters). What RE2 cannot do in linear time
 * (backreferences, lookarounds) is refused when the schema is compiled, naming the pattern.
 *
 * @module
 */
import type { RegExpEngine } from "ajv/dist/types/index.js";
import { RE2JS } from "re2js";

/** A pattern compiled for RE2. */
export class LinearPattern {
  readonly #source: string;
  readonly #compiled: RE2JS;

  /** Compiles `pattern` (JavaScript syntax); throws a plain Error naming it when RE2 cannot run it. */
  constructor(pattern: string) {
    this.#source = pattern;
    try {
      this.#compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
    } catch (error) {
      const reason = error instanceof Error
        ? error.message.replace(/^error parsing regexp: /, "")
        : "invalid";
      throw new Error(
        `pattern ${JSON.stringify(pattern)} is not supported (${reason}): patterns are matched in linear ` +
          "time with RE2 syntax, which has no backreferences or lookarounds",
      );
    }
  }

  /** Whether the pattern matches anywhere in `text`, as a JSON Schema `pattern` does. */
  test(text: string): boolean {
    return this.#compiled.test(text);
  }

  /** The pattern itself: Ajv shares one compiled pattern among the schemas whose patterns print alike. */
  toString(): string {
    return `/${this.#source}/`;
  }
}

/** Ajv's `code.regExp`. The `u` flag Ajv passes needs nothing: RE2 always matches by code point. */
export const linearRegExp: RegExpEngine = Object.assign((pattern: string) => new LinearPattern(pattern), {
  code: "linearRegExp",
});
