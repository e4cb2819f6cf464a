/**
 * `html`, the page's one way to build elements: tagged templates read by htm into Preact elements. Every
 * interpolated string becomes a text node or an attribute value, never markup, so an intent holding HTML or a
 * script is shown as the characters it is. Every string shown as text (a child, a title or a label) has its
 * control and hiding characters written out as escapes (`visibleText`), so that a repository's files, a
 * workflow's words, what an agent wrote or a command printed cannot hide or reorder what a person reads; the
 * values a form submits are left as they are.
 *
 * @module
 */

import { type ComponentChildren, h } from "./preact.ts";
import { htm as htmModule } from "./preact.ts";
import { visibleText } from "../../lib/visible_text.ts";

type Hyperscript = (type: unknown, props: Record<string, unknown> | null, ...children: unknown[]) => unknown;
type Htm = { bind(h: Hyperscript): (strings: TemplateStringsArray, ...values: unknown[]) => unknown };

// htm ships CommonJS typings, so its default export is typed as the module; in the browser bundle it is the
// function itself.
const htm = ((htmModule as unknown as { default?: Htm }).default ?? htmModule) as unknown as Htm;

/** The attributes a person reads (or hears from a screen reader) as text. */
const SHOWN_ATTRIBUTES = ["title", "aria-label", "aria-description", "placeholder", "alt"];

/** Preact's `h`, with every string it shows made visible. */
function visibleH(type: unknown, props: Record<string, unknown> | null, ...children: unknown[]): unknown {
  return (h as unknown as Hyperscript)(type, props && shownProps(props), ...children.map(shown));
}

function shownProps(props: Record<string, unknown>): Record<string, unknown> {
  const named = SHOWN_ATTRIBUTES.filter((name) => typeof props[name] === "string");
  if (named.length === 0) return props;
  return { ...props, ...Object.fromEntries(named.map((name) => [name, visibleText(props[name] as string)])) };
}

/** A child as shown: a string made visible, an array child by child, anything else (an element) as it is. */
function shown(child: unknown): unknown {
  if (typeof child === "string") return visibleText(child);
  return Array.isArray(child) ? child.map(shown) : child;
}

/** Builds Preact elements from a tagged template. */
export const html = htm.bind(visibleH) as (
  strings: TemplateStringsArray,
  ...values: unknown[]
) => ComponentChildren;
