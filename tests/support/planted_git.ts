/**
 * Programs a hostile repository plants for git to run, and the proof that they ran: each writes a marker
 * file named for itself (with the environment it saw) into a folder outside the project, so a test can
 * assert that weft ran none of them and that the person's own git does run them (the planting is not
 * vacuous).
 *
 * @module
 */

/** A folder of markers, and the programs that write them. */
export class Markers {
  private constructor(readonly dir: string) {}

  /** A fresh folder outside any project; {@linkcode remove} it in a `finally`. */
  static async make(): Promise<Markers> {
    return new Markers(Deno.realPathSync(await Deno.makeTempDir({ prefix: "weft-planted-" })));
  }

  /**
   * An executable script that writes the marker `name` with its environment, then passes its input through
   * (so a filter or pager it stands in for still works); its path.
   */
  script(name: string): string {
    const path = `${this.dir}/${name}.sh`;
    Deno.writeTextFileSync(path, `#!/bin/sh\nenv > '${this.dir}/${name}.ran'\nexec cat\n`, { mode: 0o755 });
    return path;
  }

  /**
   * A shell command line that writes the marker `name` and passes its input through, quoted as a value of
   * git's configuration files.
   */
  command(name: string): string {
    return `"env > '${this.dir}/${name}.ran'; cat"`;
  }

  /** The names of the markers written so far. */
  ran(): string[] {
    return [...Deno.readDirSync(this.dir)].map((entry) => entry.name).filter((name) => name.endsWith(".ran"))
      .map((name) => name.slice(0, -".ran".length)).sort();
  }

  /** What each marker written so far says (the environment its program saw), for a failure's message. */
  report(): string {
    return this.ran().map((name) => `${name}:\n${Deno.readTextFileSync(`${this.dir}/${name}.ran`)}`).join(
      "\n",
    );
  }

  /** Forgets the markers written so far (after proving that the person's git writes them). */
  clear(): void {
    for (const name of this.ran()) Deno.removeSync(`${this.dir}/${name}.ran`);
  }

  async remove(): Promise<void> {
    await Deno.remove(this.dir, { recursive: true });
  }
}

/** Appends `lines` to the repository configuration of the git repository at `dir`. */
export function plantConfig(dir: string, lines: string[]): void {
  Deno.writeTextFileSync(`${dir}/.git/config`, `${lines.join("\n")}\n`, { append: true });
}
