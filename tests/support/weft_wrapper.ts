/**
 * Test support: the `weft` command a checkout gets with `deno install`, installed exactly as the README says
 * (its root moved into a temporary folder), so that tests run weft's printed commands as a person would.
 *
 * @module
 */

import { within } from "./deadline.ts";

const CHECKOUT = new URL("../../", import.meta.url).pathname;

/** The README's `deno install` line, with `--root ~/.deno` where it puts the wrapper. */
export async function readmeInstallLine(): Promise<string> {
  const readme = await Deno.readTextFile(`${CHECKOUT}README.md`);
  const line = readme.split("\n").find((text) => text.startsWith("deno install "));
  if (!line) throw new Error("README.md shows no `deno install` line");
  return line;
}

/** A wrapper installed by the README's line into a temporary root; `remove` deletes it. */
export interface InstalledWeft {
  /** The folder holding `weft`, to put on PATH. */
  binDir: string;
  /** The wrapper itself. */
  path: string;
  remove(): Promise<void>;
}

/** Runs the README's `deno install` line in the checkout, with the root in a fresh temporary folder. */
export async function installWeft(): Promise<InstalledWeft> {
  const root = await Deno.makeTempDir({ prefix: "weft-root-" });
  const line = await readmeInstallLine();
  if (!line.includes("--root ~/.deno ")) throw new Error(`the README's line has no --root ~/.deno: ${line}`);
  const args = line.replace("--root ~/.deno ", `--root ${root} `).split(" ").slice(1);
  const output = await within(
    "deno install to write the wrapper",
    new Deno.Command(Deno.execPath(), { args, cwd: CHECKOUT, stdout: "piped", stderr: "piped" }).output(),
  );
  if (!output.success) {
    await Deno.remove(root, { recursive: true });
    throw new Error(`${line} failed: ${new TextDecoder().decode(output.stderr)}`);
  }
  return {
    binDir: `${root}/bin`,
    path: `${root}/bin/weft`,
    remove: () => Deno.remove(root, { recursive: true }),
  };
}
