/**
 * Deadlines for the waits of the tests: a wait that is not met fails, saying what it waited for, instead of
 * hanging the suite.
 *
 * @module
 */

/** How long one wait may take: generous for a loaded machine, short enough to fail rather than hang. */
export const WAIT_MS = 30_000;

/**
 * Resolves as `promise` does, or rejects once `ms` have passed with an error naming `what` was awaited
 * (a function is called then, so the message can show what had happened by that time).
 */
export async function within<T>(
  what: string | (() => string),
  promise: Promise<T>,
  ms = WAIT_MS,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const named = typeof what === "string" ? what : what();
      reject(new Error(`gave up after ${ms / 1000} s waiting for ${named}`));
    }, ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** The text of a byte stream, read as far as a test needs it and no further. */
export class StreamText {
  #reader: ReadableStreamDefaultReader<string>;
  #text = "";
  #ended = false;
  #draining: Promise<void> | undefined;

  constructor(stream: ReadableStream<Uint8Array>, readonly name = "the output") {
    this.#reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** Everything read so far. */
  get text(): string {
    return this.#text;
  }

  /**
   * Reads until the text holds `expected` at or after `from`; resolves with the index just past it. Fails
   * when the stream ends first or the deadline passes, showing what was read.
   */
  until(expected: string, from = 0, ms = WAIT_MS): Promise<number> {
    const read = async () => {
      while (true) {
        const at = this.#text.indexOf(expected, from);
        if (at >= 0) return at + expected.length;
        if (this.#ended) {
          throw new Error(`${this.name} ended before showing ${JSON.stringify(expected)}:\n${this.#text}`);
        }
        await this.#readOnce();
      }
    };
    return within(
      () => `${this.name} to show ${JSON.stringify(expected)}; it showed:\n${this.#text}`,
      read(),
      ms,
    );
  }

  /**
   * Keeps reading to the end of the stream, with no deadline (so a child process never blocks on a full
   * pipe); resolves with the text after `from`. Await it with {@linkcode within}.
   */
  drain(from = 0): Promise<string> {
    this.#draining ??= (async () => {
      while (!this.#ended) await this.#readOnce();
    })();
    return this.#draining.then(() => this.#text.slice(from));
  }

  /** Stops reading; the stream is cancelled. */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }

  async #readOnce(): Promise<void> {
    const { done, value } = await this.#reader.read();
    if (done) this.#ended = true;
    else this.#text += value;
  }
}

/**
 * Resolves once `check` returns a value other than `undefined`, asking again every `everyMs`; fails after the
 * deadline naming `what` (a function is called then, as with {@linkcode within}). For state a test cannot be
 * told about, such as a line appearing in a file.
 */
export function eventually<T>(
  what: string | (() => string),
  check: () => Promise<T | undefined> | T | undefined,
  options: { everyMs?: number; ms?: number } = {},
): Promise<T> {
  const poll = async () => {
    while (true) {
      const value = await check();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 25));
    }
  };
  return within(what, poll(), options.ms);
}
