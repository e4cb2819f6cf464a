/**
 * A small Markdown parser for the subset people write in notes and specifications: ATX headings,
 * paragraphs, emphasis and strong emphasis, inline code, fenced code, bullet and numbered lists (nested by
 * indentation), links and block quotes. It builds a tree and never HTML, so each surface renders the tree
 * its own safe way; anything else (raw HTML, tables, images) stays text. Pure and dependency-free: the
 * Studio page bundles it too.
 *
 * @module
 */

/** A piece of running text. */
export type Inline =
  | { type: "text"; text: string }
  | { type: "code"; text: string }
  | { type: "emphasis"; children: Inline[] }
  | { type: "strong"; children: Inline[] }
  | { type: "link"; href: string; children: Inline[] };

/** A block of a document. */
export type Block =
  | { type: "heading"; level: number; children: Inline[] }
  | { type: "paragraph"; children: Inline[] }
  | { type: "code"; text: string; lang?: string }
  | { type: "list"; ordered: boolean; start: number; items: Block[][] }
  | { type: "quote"; children: Block[] };

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*([^`\s]*)/;
const QUOTE = /^ {0,3}> ?/;
const ITEM = /^( {0,3})([-*+]|(\d{1,9})[.)])(?:[ \t]+|$)/;

/** The blocks of `source`. */
export function parseMarkdown(source: string): Block[] {
  return blocks(source.replace(/\r\n?/g, "\n").split("\n"));
}

function blocks(lines: string[]): Block[] {
  const result: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i++;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      result.push({ type: "heading", level: heading[1].length, children: parseInline(heading[2] ?? "") });
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const close = new RegExp(`^ {0,3}${fence[1][0]}{${fence[1].length},}[ \\t]*$`);
      const body: string[] = [];
      for (i++; i < lines.length && !close.test(lines[i]); i++) body.push(lines[i]);
      i++;
      result.push({ type: "code", text: body.join("\n"), ...(fence[2] ? { lang: fence[2] } : {}) });
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      for (; i < lines.length && QUOTE.test(lines[i]); i++) body.push(lines[i].replace(QUOTE, ""));
      result.push({ type: "quote", children: blocks(body) });
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const list = readList(lines, i);
      result.push(list.block);
      i = list.next;
      continue;
    }
    const text: string[] = [];
    for (; i < lines.length && lines[i].trim() && !startsBlock(lines[i]); i++) text.push(lines[i].trim());
    result.push({ type: "paragraph", children: parseInline(text.join("\n")) });
  }
  return result;
}

function startsBlock(line: string): boolean {
  return HEADING.test(line) || FENCE.test(line) || QUOTE.test(line) || ITEM.test(line);
}

/**
 * A list starting at line `start`: its items, each the blocks of its own lines. A line belongs to the item
 * above it when it is indented past the item's marker (a nested list, a second paragraph after a blank
 * line) or when it simply continues the item's text.
 */
function readList(lines: string[], start: number): { block: Block; next: number } {
  const first = ITEM.exec(lines[start])!;
  const ordered = first[3] !== undefined;
  const items: Block[][] = [];
  let i = start;
  while (i < lines.length) {
    const item = ITEM.exec(lines[i]);
    if (!item || (item[3] !== undefined) !== ordered) break;
    const marker = item[1].length;
    const content = item[0].length;
    const inside = (line: string) => indentOf(line) >= Math.min(content, marker + 2);
    const body = [lines[i].slice(content)];
    for (i++; i < lines.length; i++) {
      const line = lines[i];
      if (!line.trim()) {
        const next = lines.slice(i + 1).find((later) => later.trim());
        if (next === undefined || !inside(next)) break;
        body.push("");
      } else if (inside(line)) {
        body.push(line.slice(Math.min(indentOf(line), content)));
      } else if (!startsBlock(line)) {
        body.push(line.trim());
      } else {
        break;
      }
    }
    items.push(blocks(body));
    // A blank line between two items of one list keeps them in it.
    while (i < lines.length && !lines[i].trim() && ITEM.test(lines.slice(i).find((l) => l.trim()) ?? "")) i++;
  }
  return { block: { type: "list", ordered, start: ordered ? Number(first[3]) : 1, items }, next: i };
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The inline pieces of `text`: code spans first, then links, then emphasis; backslash escapes any mark. */
export function parseInline(text: string): Inline[] {
  const result: Inline[] = [];
  let plain = "";
  const flush = () => {
    if (plain) result.push({ type: "text", text: plain });
    plain = "";
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === "\\" && i + 1 < text.length && /[!-/:-@[-`{-~]/.test(text[i + 1])) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (char === "`") {
      const ticks = /^`+/.exec(text.slice(i))![0];
      const end = text.indexOf(ticks, i + ticks.length);
      if (end > 0) {
        flush();
        result.push({ type: "code", text: text.slice(i + ticks.length, end).replace(/\n/g, " ").trim() });
        i = end + ticks.length;
        continue;
      }
      plain += ticks;
      i += ticks.length;
      continue;
    }
    if (char === "[") {
      const link = /^\[([^\]]*)\]\(\s*<?((?:[^\s()<>]|\([^\s()<>]*\))*)>?(?:\s+"[^"]*")?\s*\)/.exec(
        text.slice(i),
      );
      if (link) {
        flush();
        result.push({ type: "link", href: link[2], children: parseInline(link[1]) });
        i += link[0].length;
        continue;
      }
    }
    if (char === "*" || char === "_") {
      const span = emphasis(text, i);
      if (span) {
        flush();
        result.push(span.node);
        i = span.next;
        continue;
      }
    }
    plain += char;
    i++;
  }
  flush();
  return result;
}

/** Strong (`**`/`__`) or emphasis (`*`/`_`) opening at `at`, when it closes; `_` only between words. */
function emphasis(text: string, at: number): { node: Inline; next: number } | undefined {
  const mark = text[at];
  const double = text[at + 1] === mark;
  const width = double ? 2 : 1;
  const inner = at + width;
  if (!text[inner] || /\s/.test(text[inner])) return undefined;
  if (mark === "_" && /\w/.test(text[at - 1] ?? "")) return undefined;
  for (let end = text.indexOf(mark, inner + 1); end > 0; end = text.indexOf(mark, end + 1)) {
    const before = text[end - 1];
    if (/\s/.test(before) || before === "\\") continue;
    if (double ? text[end + 1] !== mark : before === mark || text[end + 1] === mark) continue;
    if (mark === "_" && /\w/.test(text[end + width] ?? "")) continue;
    const children = parseInline(text.slice(inner, end));
    return { node: { type: double ? "strong" : "emphasis", children }, next: end + width };
  }
  return undefined;
}

/** The plain text of inline pieces (link targets left out). */
export function inlineText(nodes: Inline[]): string {
  return nodes.map((node) => "children" in node ? inlineText(node.children) : node.text).join("");
}

/**
 * Whether `href` may be followed: `http:` and `https:` addresses, and relative ones (a path, a query or a
 * fragment). Anything else (`javascript:`, `data:`, `file:`…) is shown as inert text.
 */
export function isSafeHref(href: string): boolean {
  // Browsers drop tabs, line breaks and leading spaces from an address, so "java\tscript:" is judged as they read it.
  const compact = [...href].filter((char) => char.charCodeAt(0) > 0x20).join("");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  if (scheme) return /^https?$/i.test(scheme[1]);
  // "//host" and "\\host" lead to another host through the page's own scheme.
  return !compact.startsWith("//") && !compact.includes("\\");
}
