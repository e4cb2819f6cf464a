/**
 * A unified diff (as `git diff` writes one for many files, or `diff -u` for one) read file by file, as a
 * code review shows it: each file's hunks, each line added, removed or kept with its line numbers in the old
 * and the new file, binary files and files too long to read named as such. Hunks are read by the line counts
 * their `@@` headers give, so a removed line that reads `-- x` is never taken for a file header. A diff cut to
 * a bound ends where it was cut. Pure: no imports, so the terminal, the IDE's form and Studio read it alike.
 *
 * @module
 */

/** One line of a file's diff, with where it is in the old and the new file. */
export interface DiffFileLine {
  /** `note` is git's `\ No newline at end of file`. */
  kind: "add" | "del" | "same" | "note";
  text: string;
  oldLine?: number;
  newLine?: number;
}

/** One hunk: its `@@ … @@` header (with the function git names after it) and its lines. */
export interface DiffHunk {
  header: string;
  lines: DiffFileLine[];
}

/** What changed in one file. */
export interface DiffFile {
  path: string;
  status: "added" | "deleted" | "modified";
  /** git said the file is binary: there are no lines to show. */
  binary: boolean;
  /** How many lines were added and removed (in what the diff holds). */
  added: number;
  removed: number;
  hunks: DiffHunk[];
}

/** A file with more changed lines than this is summarized rather than shown line by line. */
export const HUGE_FILE_LINES = 400;

/** Whether `file` is summarized rather than shown: binary, or too long to read in a review. */
export function summarized(file: DiffFile): boolean {
  return file.binary || file.added + file.removed > HUGE_FILE_LINES;
}

/** The files of `diff`, in its order. */
export function diffFiles(diff: string): DiffFile[] {
  const lines = diff.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const files: DiffFile[] = [];
  let file: DiffFile | undefined;
  // A `diff --git` line starts a file whose `---`/`+++` pair may follow (a binary file has none).
  let awaitingHeader = false;
  const start = (path: string) => {
    file = { path, status: "modified", binary: false, added: 0, removed: 0, hunks: [] };
    files.push(file);
    return file;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const git = /^diff --git a\/(.*) b\/(.*)$/.exec(line);
    if (git) {
      start(git[2]);
      awaitingHeader = true;
      continue;
    }
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      const before = pathOf(line.slice(4));
      const after = pathOf(lines[i + 1].slice(4));
      // `diff -u` has no `diff --git` line: its `---`/`+++` pair starts the file.
      const current = awaitingHeader && file ? file : start(after ?? before ?? "");
      awaitingHeader = false;
      if (before === null) current.status = "added";
      else if (after === null) current.status = "deleted";
      current.path = after ?? before ?? current.path;
      i++;
      continue;
    }
    if (!file) continue;
    if (/^new file mode /.test(line)) file.status = "added";
    else if (/^deleted file mode /.test(line)) file.status = "deleted";
    else if (/^Binary files .* differ$/.test(line) || line === "GIT binary patch") {
      file.binary = true;
      awaitingHeader = false;
    } else if (line.startsWith("@@")) {
      awaitingHeader = false;
      i = readHunk(file, lines, i);
    }
  }
  return files;
}

/** A path of a `---`/`+++` line: without its `a/`/`b/` prefix and a trailing tab's timestamp; null for none. */
function pathOf(text: string): string | null {
  const path = text.split("\t")[0];
  if (path === "/dev/null") return null;
  return path.replace(/^[ab]\//, "");
}

/** Reads the hunk whose header is at `at` into `file`; returns the index of its last line. */
function readHunk(file: DiffFile, lines: string[], at: number): number {
  const header = lines[at];
  const counts = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(header);
  const hunk: DiffHunk = { header, lines: [] };
  file.hunks.push(hunk);
  if (!counts) return at;
  let oldLine = Number(counts[1]);
  let newLine = Number(counts[3]);
  let oldLeft = counts[2] === undefined ? 1 : Number(counts[2]);
  let newLeft = counts[4] === undefined ? 1 : Number(counts[4]);
  // A hunk that starts at line 0 is empty on that side: its first line there is 1.
  if (oldLine === 0) oldLine = 1;
  if (newLine === 0) newLine = 1;
  let i = at + 1;
  for (; i < lines.length && (oldLeft > 0 || newLeft > 0 || lines[i].startsWith("\\")); i++) {
    const line = lines[i];
    const text = line.slice(1);
    if (line.startsWith("\\")) hunk.lines.push({ kind: "note", text: line.slice(2) });
    else if (line.startsWith("+") && newLeft > 0) {
      hunk.lines.push({ kind: "add", text, newLine: newLine++ });
      newLeft--;
      file.added++;
    } else if (line.startsWith("-") && oldLeft > 0) {
      hunk.lines.push({ kind: "del", text, oldLine: oldLine++ });
      oldLeft--;
      file.removed++;
    } else if ((line.startsWith(" ") || line === "") && oldLeft > 0 && newLeft > 0) {
      hunk.lines.push({ kind: "same", text, oldLine: oldLine++, newLine: newLine++ });
      oldLeft--;
      newLeft--;
    } else break;
  }
  return i - 1;
}

/** What a `changes` step writes: the files changed, their unified diff, and how much of it was cut. */
export interface ChangesResult {
  files: { path: string; status: string }[];
  diff: string;
  cutBytes: number;
}

/** Whether `value` is what a `changes` step writes, so a confirmation showing it shows a review, not its fields. */
export function isChangesResult(value: unknown): value is ChangesResult {
  const changes = value as Partial<ChangesResult> | null | undefined;
  return typeof changes === "object" && changes !== null && Array.isArray(changes.files) &&
    typeof changes.diff === "string" && typeof changes.cutBytes === "number" &&
    Object.keys(changes).length === 3;
}
