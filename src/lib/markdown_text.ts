/**
 * Markdown as plain text for a terminal or a plain-text form: no emphasis marks, headings underlined,
 * bullets as "•", numbered items numbered, quotes behind "│", code indented, links as "text (url)".
 *
 * @module
 */

import { type Block, type Inline, parseMarkdown } from "./markdown.ts";

/** `source` (Markdown) as readable plain text. */
export function markdownToText(source: string): string {
  return blocksText(parseMarkdown(source)).join("\n");
}

function blocksText(blocks: Block[]): string[] {
  return blocks.flatMap((block, i) => [...(i > 0 ? [""] : []), ...blockText(block)]);
}

function blockText(block: Block): string[] {
  switch (block.type) {
    case "heading": {
      const text = inlineText(block.children);
      return [text, (block.level === 1 ? "=" : "-").repeat(Math.max(3, [...text].length))];
    }
    case "paragraph":
      return inlineText(block.children).split("\n");
    case "code":
      return block.text.split("\n").map((line) => `    ${line}`);
    case "quote":
      return blocksText(block.children).map((line) => line ? `│ ${line}` : "│");
    case "list":
      return block.items.flatMap((item, i) => {
        const marker = block.ordered ? `${block.start + i}. ` : "• ";
        // Tight: an item's own blocks (its text, a nested list) follow each other without a blank line.
        const [first = "", ...rest] = item.flatMap(blockText);
        return [marker + first, ...rest.map((line) => line ? " ".repeat(marker.length) + line : "")];
      });
  }
}

function inlineText(nodes: Inline[]): string {
  return nodes.map((node) => {
    switch (node.type) {
      case "text":
        return node.text;
      case "code":
        return `\`${node.text}\``;
      case "emphasis":
      case "strong":
        return inlineText(node.children);
      case "link": {
        const text = inlineText(node.children);
        return !node.href || text === node.href ? text || node.href : `${text} (${node.href})`;
      }
    }
  }).join("");
}
