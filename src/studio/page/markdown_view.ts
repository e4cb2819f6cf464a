/**
 * Markdown as Preact elements, from the one parser the terminal uses too (`src/lib/markdown.ts`). Every
 * piece of the text becomes a text node, never markup; a link is followed only to an `http(s)` or relative
 * address (anything else, `javascript:` say, stays inert text) and never passes the page's address or
 * a handle on it to where it leads.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { type Block, type Inline, isSafeHref, parseMarkdown } from "../../lib/markdown.ts";
import { html } from "./html.ts";

/** `source` (Markdown) rendered; its headings start at `level` (h3 by default, h6 at most). */
export function Markdown(props: { source: string; level?: number }): ComponentChildren {
  return html`<div class="markdown">${blocks(parseMarkdown(props.source), props.level ?? 3)}</div>`;
}

function blocks(list: Block[], level: number): ComponentChildren {
  return list.map((block, i) => blockElement(block, level, i));
}

function blockElement(block: Block, level: number, key: number): ComponentChildren {
  switch (block.type) {
    case "heading": {
      const Heading = `h${Math.min(level + block.level - 1, 6)}`;
      return html`<${Heading} key=${key}>${inline(block.children)}<//>`;
    }
    case "paragraph":
      return html`<p key=${key}>${inline(block.children)}</p>`;
    case "code":
      return html`<pre key=${key}><code>${block.text}</code></pre>`;
    case "quote":
      return html`<blockquote key=${key}>${blocks(block.children, level)}</blockquote>`;
    case "list": {
      const items = block.items.map((item, i) => html`<li key=${i}>${blocks(item, level)}</li>`);
      return block.ordered
        ? html`<ol key=${key} start=${block.start}>${items}</ol>`
        : html`<ul key=${key}>${items}</ul>`;
    }
  }
}

function inline(nodes: Inline[]): ComponentChildren {
  return nodes.map((node, key) => {
    switch (node.type) {
      case "text":
        return node.text;
      case "code":
        return html`<code key=${key}>${node.text}</code>`;
      case "emphasis":
        return html`<em key=${key}>${inline(node.children)}</em>`;
      case "strong":
        return html`<strong key=${key}>${inline(node.children)}</strong>`;
      case "link":
        return isSafeHref(node.href)
          ? html`<a key=${key} href=${node.href} target="_blank" rel="noopener noreferrer">${
            inline(node.children)
          }</a>`
          : html`<span key=${key} class="inert-link">${inline(node.children)}</span>`;
    }
  });
}
