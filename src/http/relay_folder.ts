/**
 * The private folder of the relay socket (`loopback_server.ts`): `<tmp>/weft-http-<pid>-<random>`, mode 0700,
 * holding only `http.sock`. A stop removes it; a killed service cannot, so each start removes the folders that
 * dead services of this user left, and only those: the name must carry a pid that no longer runs, and the
 * folder must be a real folder of this user with mode 0700 holding nothing but the socket. Anything else,
 * another user's folder or a live service's, is left as it is.
 *
 * @module
 */

import { tmpdir } from "node:os";
import { join } from "node:path";

/** The start of every relay folder's name; the owner's pid follows it. */
const PREFIX = "weft-http-";
const NAME = /^weft-http-(\d+)-[A-Za-z0-9_]+$/;
/** The only entry a relay folder ever holds. */
export const RELAY_SOCKET = "http.sock";

/** Makes this process's relay folder under `root` (the system's temporary folder by default). */
export async function makeRelayFolder(root = tmpdir()): Promise<string> {
  const folder = await Deno.makeTempDir({ dir: root, prefix: `${PREFIX}${Deno.pid}-` });
  if (Deno.build.os !== "windows") await Deno.chmod(folder, 0o700);
  return folder;
}

/**
 * Removes the relay folders under `root` that dead processes of user `uid` (this one) left; `isAlive` tells
 * whether a pid still runs. Returns how many were removed. Never fails: a folder it cannot judge or remove is
 * left.
 */
export async function removeStaleRelayFolders(
  isAlive: (pid: number) => boolean,
  root = tmpdir(),
  uid = Deno.build.os === "windows" ? undefined : Deno.uid(),
): Promise<number> {
  let removed = 0;
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(root));
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const pid = NAME.exec(entry.name)?.[1];
    if (pid === undefined || !entry.isDirectory || Number(pid) === Deno.pid || isAlive(Number(pid))) continue;
    const folder = join(root, entry.name);
    try {
      if (!(await isOwnRelayFolder(folder, uid))) continue;
      await Deno.remove(folder, { recursive: true });
      removed++;
    } catch {
      // Gone meanwhile, or not ours to remove: leave it.
    }
  }
  return removed;
}

/** A real folder of `uid`, mode 0700, holding at most the relay socket (itself a socket, not a link). */
async function isOwnRelayFolder(folder: string, uid: number | null | undefined): Promise<boolean> {
  const info = await Deno.lstat(folder);
  if (!info.isDirectory || info.isSymlink) return false;
  if (Deno.build.os !== "windows" && (info.uid !== uid || (info.mode! & 0o777) !== 0o700)) return false;
  for await (const entry of Deno.readDir(folder)) {
    if (entry.name !== RELAY_SOCKET) return false;
    const socket = await Deno.lstat(join(folder, entry.name));
    if (Deno.build.os !== "windows" && !socket.isSocket) return false;
  }
  return true;
}
