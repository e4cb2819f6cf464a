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
    while (!this.#buffer.includes("\n") && !this.#ended) {
      const { done, value } = await this.#reader.read();
      if (done) this.#ended = true;
      else this.#buffer += value;
    }
    if (!this.#buffer) return null;
    const end = this.#buffer.indexOf("\n");
    const line = end < 0 ? this.#buffer : this.#buffer.slice(0, end);
    this.#buffer = end < 0 ? "" : this.#buffer.slice(end + 1);
    return line.replace(/\r$/, "");
  }

  /** Stops reading the input. */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}
