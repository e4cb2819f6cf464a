/**
 * Text lines from a byte stream, read as they arrive: prompts read a person's typed lines with it, and
 * `weft start` the service's ready line.
 *
 * @module
 */

/** Reads one stream line by line. */
export class LineReader {
  #reader: ReadableStreamDefaultReader<string>;
  #buffer = "";
  #ended = false;

  constructor(input: ReadableStream<Uint8Array>) {
    this.#reader = input.pipeThrough(new TextDecoderStream()).getReader();
  }

  /**
   * The next line without its line break (a `\r` before it is dropped too); at the end of the input the
   * unterminated rest, if any, and then `null`.
   */
  async next(): Promise<string | null> {
    let end = this.#buffer.indexOf("\n");
    if (end < 0 && !this.#ended) {
      // Chunks without a line break are only collected: a long line (a large message on `weft mcp`'s stdin)
      // is joined once, not re-scanned and re-copied as each chunk of it arrives.
      const pieces = [this.#buffer];
      let length = this.#buffer.length;
      while (end < 0) {
        const { done, value } = await this.#reader.read();
        if (done) {
          this.#ended = true;
          break;
        }
        const at = value.indexOf("\n");
        if (at >= 0) end = length + at;
        pieces.push(value);
        length += value.length;
      }
      this.#buffer = pieces.join("");
    }
    if (!this.#buffer) return null;
    const line = end < 0 ? this.#buffer : this.#buffer.slice(0, end);
    this.#buffer = end < 0 ? "" : this.#buffer.slice(end + 1);
    return line.replace(/\r$/, "");
  }

  /** Stops reading the input. */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}
