/**
 * A printed or documented command line split into its words as a POSIX shell would for the simple lines weft
 * prints and its docs show: words, '…' and "…" quoting, and a trailing # comment. Anything else a shell would
 * interpret (pipes, redirections, substitutions, variables) is refused, so that a test never runs a line other
 * than the one written.
 *
 * @module
 */

/** The words of `line`; throws on shell syntax beyond plain words and quotes. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === " " || c === "\t") {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "#" && word === undefined) {
      break;
    } else if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end < 0) throw new Error(`an unclosed ${c} in: ${line}`);
      const quoted = line.slice(i + 1, end);
      if (c === '"' && /[$`\\]/.test(quoted)) throw new Error(`a substitution in: ${line}`);
      word = (word ?? "") + quoted;
      i = end;
    } else if ("|&;<>()$`\\*?".includes(c)) {
      throw new Error(`shell syntax (${c}) in: ${line}`);
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
