/**
 * `weft` in a real terminal emulator: a detached tmux session of its own (its own server socket), whose
 * screen a test reads with `capture-pane`, so that the test sees what a person would see (a carriage return
 * and an erase-line applied, colours drawn), not the bytes that were written. tmux comes from Debian's
 * packages (`.ci/run` installs it when it is missing).
 *
 * @module
 */

import { eventually } from "../support/deadline.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** One `weft` command line running in its own tmux server. */
export class TmuxTerminal {
  readonly #dir: string;
  readonly #socket: string;

  private constructor(dir: string) {
    this.#dir = dir;
    this.#socket = `${dir}/tmux.sock`;
  }

  /**
   * Starts `weft ...args` in `cwd` in a 200×50 terminal, with `env` added to this process's environment
   * (NO_COLOR left out, so weft colours as it does for a person). The pane stays after weft exits.
   */
  static async start(
    args: string[],
    options: { cwd: string; env?: Record<string, string> },
  ): Promise<TmuxTerminal> {
    const terminal = new TmuxTerminal(await Deno.makeTempDir({ prefix: "weft-tmux-" }));
    const weft = [Deno.execPath(), "run", "-A", MAIN, ...args];
    // The pane keeps what weft showed once it exits, and says how it ended; Ctrl-C, which the terminal sends
    // to this shell as well as to weft, runs a no-op trap here instead of closing the pane (a trap, unlike an
    // ignored signal, is not inherited by weft).
    const script = 'trap : INT; "$@"; echo "[weft exited $?]"; exec sleep 600';
    await terminal.#tmux(
      ["new-session", "-d", "-x", "200", "-y", "50", "-c", options.cwd, "sh", "-c", script, "sh", ...weft],
      options.env ?? {},
    );
    return terminal;
  }

  /**
   * What the terminal shows now, its wrapped lines joined, its trailing spaces cut; with `styles`, each
   * colour and weight drawn is written as the escape that draws it.
   */
  async screen(options: { styles?: boolean } = {}): Promise<string> {
    return await this.#tmux(["capture-pane", "-p", "-J", "-S", "-", ...options.styles ? ["-e"] : []]);
  }

  /** Resolves with the screen once it shows `text`; fails at the deadline with what it showed. */
  async waitFor(text: string): Promise<string> {
    let last = "";
    return await eventually(
      () => `the terminal to show ${JSON.stringify(text)}; it shows:\n${last}`,
      async () => (last = await this.screen()).includes(text) ? last : undefined,
      { everyMs: 100 },
    );
  }

  /** Types `keys` (tmux key names, `Enter` or `C-c` say) into the terminal. */
  async keys(...keys: string[]): Promise<void> {
    await this.#tmux(["send-keys", ...keys]);
  }

  /** Ends the tmux server and everything in it, and removes its folder. */
  async close(): Promise<void> {
    await this.#tmux(["kill-server"]).catch(() => {});
    await Deno.remove(this.#dir, { recursive: true });
  }

  async #tmux(args: string[], env: Record<string, string> = {}): Promise<string> {
    const { NO_COLOR: _, ...inherited } = Deno.env.toObject();
    const output = await new Deno.Command("tmux", {
      args: ["-S", this.#socket, ...args],
      clearEnv: true,
      env: { ...inherited, ...env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoded = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    if (!output.success) throw new Error(`tmux ${args[0]} failed: ${decoded(output.stderr)}`);
    return decoded(output.stdout);
  }
}
