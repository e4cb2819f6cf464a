/**
 * Rendering a publish template with bounded work. mustache.js parses the template; this walks its tokens
 * itself, because `Mustache.render` has no bound: six nested sections over a 60-item list are 60⁶ steps of
 * synchronous work that produce nothing, and the service would answer no one until they end. Here every
 * token visited, section item entered and context frame looked in is a step, and the output is measured as
 * it grows: past either bound the render stops at once with `PUBLISH_FAILED` naming it, so one render holds
 * the event loop for a fraction of a second at most, and a publish needs no thread or worker (which the
 * bundled and compiled programs would have to load from an embedded module).
 *
 * The rules are Mustache's for the data a stage commits (JSON): variables (`{{a}}`, `{{{a}}}`, `{{&a}}`, not
 * escaped, since the target is Markdown), dotted names, `{{.}}`, sections over lists, objects and other
 * truthy values, inverted sections, comments and delimiter changes. A name finds only the data's own
 * properties (a string's and a list's `length` among them), never what objects inherit, so no template can
 * reach a function; partials have no source and render nothing, as with `Mustache.render` without partials.
 *
 * @module
 */
import Mustache from "mustache";
import { WeftError } from "../errors.ts";

/** How many steps one render may take; a template that needs more fails. */
export const MAX_RENDER_STEPS = 2_000_000;

/** A token as `Mustache.parse` gives it: its kind, its text or name, and for sections their inner tokens. */
type Token = [kind: string, value: string, start: number, end: number, inner?: Token[]];

/** The bounds of one render. */
export interface RenderBounds {
  /** Steps (tokens visited, section items, context frames looked in). */
  steps: number;
  /** Characters of output; each is at least one byte in UTF-8, so this bounds the bytes too. */
  chars: number;
}

/** Why `template` does not parse as Mustache, or undefined when it does. */
export function templateProblem(template: string): string | undefined {
  try {
    Mustache.parse(template);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * `template` rendered over `data`; `PUBLISH_FAILED` naming the bound when it would take more than
 * `bounds.steps` steps or produce more than `bounds.chars` characters (`what` names the template in the
 * message), and naming the template's own error when it does not parse.
 */
export function renderTemplate(template: string, data: unknown, bounds: RenderBounds, what: string): string {
  let tokens: Token[];
  try {
    tokens = Mustache.parse(template) as Token[];
  } catch (error) {
    throw new WeftError(
      "PUBLISH_FAILED",
      `${what} failed: ${error instanceof Error ? error.message : error}`,
    );
  }
  const render = new BoundedRender(bounds, what);
  render.tokens(tokens, [data]);
  return render.output.join("");
}

/** One render in progress: its output so far and the work it has left. */
class BoundedRender {
  readonly output: string[] = [];
  #steps: number;
  #chars: number;
  readonly #bounds: RenderBounds;
  readonly #what: string;
  /** Each dotted name split once. */
  readonly #names = new Map<string, string[]>();

  constructor(bounds: RenderBounds, what: string) {
    this.#bounds = bounds;
    this.#steps = bounds.steps;
    this.#chars = bounds.chars;
    this.#what = what;
  }

  /** Renders `tokens` with `stack` (innermost context last). */
  tokens(tokens: readonly Token[], stack: unknown[]): void {
    for (const token of tokens) {
      this.#spend(1);
      const [kind, value] = token;
      if (kind === "text") this.#emit(value);
      else if (kind === "name" || kind === "&") {
        const found = this.#lookup(value, stack);
        if (found != null) this.#emit(String(found));
      } else if (kind === "#") this.#section(token, stack);
      else if (kind === "^") {
        const found = this.#lookup(value, stack);
        if (!found || (Array.isArray(found) && found.length === 0)) this.tokens(token[4]!, stack);
      }
      // Comments (`!`), delimiter changes (`=`) and partials (`>`, which have no source) render nothing.
    }
  }

  #section(token: Token, stack: unknown[]): void {
    const found = this.#lookup(token[1], stack);
    if (!found) return;
    const inner = token[4]!;
    if (Array.isArray(found)) {
      for (const item of found) {
        this.#spend(1);
        stack.push(item);
        this.tokens(inner, stack);
        stack.pop();
      }
    } else if (typeof found === "object" || typeof found === "string" || typeof found === "number") {
      stack.push(found);
      this.tokens(inner, stack);
      stack.pop();
    } else this.tokens(inner, stack);
  }

  /**
   * What `name` names, from the innermost context out, as Mustache looks it up: `.` is the innermost
   * context; a dotted name is followed from the first context where its last part is found.
   */
  #lookup(name: string, stack: readonly unknown[]): unknown {
    if (name === ".") return stack.at(-1);
    const parts = this.#parts(name);
    for (let i = stack.length - 1; i >= 0; i--) {
      this.#spend(parts.length);
      const view = stack[i];
      if (parts.length === 1) {
        if (typeof view === "object" && view !== null && Object.hasOwn(view, name)) {
          return (view as Record<string, unknown>)[name];
        }
        continue;
      }
      let value = view;
      let at = 0;
      while (
        at < parts.length && value !== null && value !== undefined && Object.hasOwn(Object(value), parts[at])
      ) {
        value = (value as Record<string, unknown>)[parts[at++]];
      }
      if (at === parts.length) return value;
    }
    return undefined;
  }

  #parts(name: string): string[] {
    let parts = this.#names.get(name);
    if (!parts) this.#names.set(name, parts = name.split("."));
    return parts;
  }

  #spend(steps: number): void {
    this.#steps -= steps;
    if (this.#steps < 0) {
      throw new WeftError(
        "PUBLISH_FAILED",
        `${this.#what} takes more than ${this.#bounds.steps} steps to render (the bound of one render); ` +
          "nest fewer sections over long lists",
      );
    }
  }

  #emit(text: string): void {
    this.#chars -= text.length;
    if (this.#chars < 0) {
      throw new WeftError(
        "PUBLISH_FAILED",
        `${this.#what} renders more than ${this.#bounds.chars} bytes (the bound of a published document)`,
      );
    }
    this.output.push(text);
  }
}
