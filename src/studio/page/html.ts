/**
 * `html`, the page's one way to build elements: tagged templates read by htm into Preact elements. Every
 * interpolated string becomes a text node or an attribute value, never markup, so an intent holding HTML or a
 * script is shown as the characters it is.
 *
 * @module
 */

import { type ComponentChildren, h } from "./preact.ts";
import { htm as htmModule } from "./preact.ts";

type Hyperscript = (type: unknown, props: Record<string, unknown> | null, ...children: unknown[]) => unknown;
type Htm = { bind(h: Hyperscript): (strings: TemplateStringsArray, ...values: unknown[]) => unknown };

// htm ships CommonJS typings, so its default export is typed as the module; in the browser bundle it is the
// function itself.
const htm = ((htmModule as unknown as { default?: Htm }).default ?? htmModule) as unknown as Htm;

/** Builds Preact elements from a tagged template. */
export const html = htm.bind(h as unknown as Hyperscript) as (
  strings: TemplateStringsArray,
  ...values: unknown[]
) => ComponentChildren;
