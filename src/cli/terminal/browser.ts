/**
 * Opening an address in the person's web browser: `$BROWSER` when set (the usual convention, which also lets
 * a person or a test choose), else the system's opener (`xdg-open`, `open`, `start`).
 *
 * @module
 */

/** How long an opener may take before it is left to run on: some stay until the browser they start quits. */
const OPENER_WAIT_MS = 5_000;

/** What became of an attempt to open an address. */
export type OpenOutcome =
  | { opened: true; opener: string }
  | { opened: false; reason: string };

/** The command that opens an address on this system, for `env` (the process's environment by default). */
export function browserOpener(
  env: { get(name: string): string | undefined } = Deno.env,
  os: typeof Deno.build.os = Deno.build.os,
): { command: string; args: string[] } {
  const chosen = env.get("BROWSER")?.trim();
  if (chosen) return { command: chosen, args: [] };
  if (os === "darwin") return { command: "open", args: [] };
  // `start` is a built-in of cmd; its first quoted argument is a window title, hence the empty one (passed
  // as `""`). The addresses weft opens escape the characters cmd would interpret (`studio_redirect.ts`).
  if (os === "windows") return { command: "cmd", args: ["/c", "start", ""] };
  return { command: "xdg-open", args: [] };
}

/**
 * Asks the system to open `url`. Resolves `opened: false` with the reason when there is no opener or it fails,
 * so that the caller prints the address instead. The address becomes an argument of the opener, which every
 * user of the machine can read (`/proc/PID/cmdline`): it must hold no secret (Studio's ticket goes through a
 * redirect file instead).
 */
export async function openInBrowser(url: string): Promise<OpenOutcome> {
  const { command, args } = browserOpener();
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(command, {
      args: [...args, url],
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { opened: false, reason: `${command} is not installed` };
    }
    return { opened: false, reason: `${command} could not be started: ${(error as Error).message}` };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stillRunning = new Promise<"running">((resolve) => {
    timer = setTimeout(() => resolve("running"), OPENER_WAIT_MS);
  });
  try {
    const status = await Promise.race([child.status, stillRunning]);
    if (status === "running") {
      child.unref();
      return { opened: true, opener: command };
    }
    return status.success
      ? { opened: true, opener: command }
      : { opened: false, reason: `${command} exited with code ${status.code}` };
  } finally {
    clearTimeout(timer);
  }
}
