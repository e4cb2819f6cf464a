/**
 * Project trust: the person's record of which content (`trusted_content.ts`) of which project they trust.
 * It lives outside every project, in `trusted-projects.json` beside the user-level `weft.json` (mode 0600,
 * its folder 0700), and binds the project's real path to the digest of exactly the content trusted; any
 * change of that content has another digest and is asked again. Nothing inside a repository can grant it,
 * and only a person grants it: `weft trust`, or Studio's `trust_project` (internal endpoints only).
 *
 * Not to be confused with `src/weft_dir/trust.ts`, which decides whether weft's own state folder `.weft/`
 * is one weft made for this user (and never uses one it did not). That is about weft's state; this is about
 * what the project's own files ask weft to do.
 *
 * A record file that cannot be read or parsed counts as trusting nothing (`weft doctor` reports it); the next
 * grant replaces it.
 *
 * @module
 */
import { dirname } from "node:path";
import { z } from "../lib/zod.ts";
import { replaceFile } from "../lib/replace_file.ts";
import { ParsedFileCache } from "../lib/parsed_file_cache.ts";

const RecordFile = z.strictObject({
  version: z.literal(1),
  projects: z.record(
    z.string().min(1),
    z.strictObject({ digest: z.string().regex(/^sha256:[0-9a-f]{64}$/), trustedAt: z.string() }),
  ),
});

/** The record file as read: absent, the trusted digests by real path, or why it counts as nothing trusted. */
export type TrustRecord =
  | { kind: "absent" }
  | { kind: "ok"; projects: Record<string, { digest: string; trustedAt: string }> }
  | { kind: "invalid"; problem: string };

/**
 * The record files as last parsed, kept while each stays the same file unchanged: a project whose weft.json
 * names a role asks at every `status`. Trusting and revoking replace the file, which a kept parse never hides.
 */
const RECORDS = new ParsedFileCache<TrustRecord>(recordOf);

/** Reads the record at `file`; `undefined` (no user config folder is known) trusts nothing. */
export function readTrustRecord(file: string | undefined): TrustRecord {
  if (!file) return { kind: "invalid", problem: "no user config folder is known (HOME is not set)" };
  try {
    return RECORDS.read(file) ?? { kind: "absent" };
  } catch (error) {
    return { kind: "invalid", problem: `${file} cannot be read (${(error as Error).name})` };
  }
}

/** A record file's text as its record, or why it counts as nothing trusted. */
function recordOf(text: string, file: string): TrustRecord {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: "invalid", problem: `${file} is not valid JSON` };
  }
  const parsed = RecordFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      kind: "invalid",
      problem: `${file}: ${issue.path.join(".") || "(top level)"}: ${issue.message}`,
    };
  }
  return { kind: "ok", projects: parsed.data.projects };
}

/** The real path of a project, the key of its record; `undefined` when the folder cannot be resolved. */
export function projectKey(projectDir: string): string | undefined {
  try {
    return Deno.realPathSync(projectDir);
  } catch {
    return undefined;
  }
}

/** Whether the record trusts exactly `digest` for the project at real path `key`. */
export function isTrusted(record: TrustRecord, key: string | undefined, digest: string): boolean {
  return record.kind === "ok" && key !== undefined && Object.hasOwn(record.projects, key) &&
    record.projects[key].digest === digest;
}

/**
 * Sets (a digest) or removes (`null`) the project's entry and writes the record atomically, 0600 in a 0700
 * folder. A record that could not be read is replaced: it trusted nothing anyway.
 */
export async function writeTrust(
  file: string,
  key: string,
  digest: string | null,
  now: Date = new Date(),
): Promise<void> {
  const record = readTrustRecord(file);
  const projects = record.kind === "ok" ? { ...record.projects } : {};
  if (digest === null) delete projects[key];
  else projects[key] = { digest, trustedAt: now.toISOString() };
  const folder = dirname(file);
  await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
  // The folder may predate weft (it also holds the user's weft.json): the record is not for other users.
  if (Deno.build.os !== "windows") await Deno.chmod(folder, 0o700);
  await replaceFile(file, JSON.stringify({ version: 1, projects }, null, 2) + "\n", { mode: 0o600 });
}
