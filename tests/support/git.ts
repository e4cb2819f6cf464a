/**
 * Git as the person runs it in a test's repository: their own configuration of the repository (hooks,
 * filters and all), none of this machine's system or global configuration, and a fixed author.
 *
 * @module
 */
import { dirname } from "node:path";

/** Runs git with `args` in `dir` as a person would; its output, or an error with git's message. */
export function personGit(dir: string, ...args: string[]): string {
  const out = new Deno.Command("git", {
    args: ["-c", "user.email=person@example.com", "-c", "user.name=Person", ...args],
    cwd: dir,
    env: { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (!out.success) throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

/** A git repository with one commit of `files`, as the person made it; removed after `fn`. */
export async function withRepository(
  files: Record<string, string>,
  fn: (dir: string) => Promise<void>,
): Promise<void> {
  const dir = Deno.realPathSync(await Deno.makeTempDir({ prefix: "weft-test-" }));
  try {
    for (const [path, content] of Object.entries(files)) {
      Deno.mkdirSync(dirname(`${dir}/${path}`), { recursive: true });
      Deno.writeTextFileSync(`${dir}/${path}`, content);
    }
    personGit(dir, "init", "-q", "-b", "main");
    personGit(dir, "add", "-A");
    personGit(dir, "commit", "-q", "-m", "first");
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
