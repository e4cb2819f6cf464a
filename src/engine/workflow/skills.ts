/**
 * Skills: `skills/<name>/SKILL.md` with `name` and `description` front matter, plus the assets beside it,
 * which agents read by declared id only.
 *
 * @module
 */
import { readWorkflowText, unreadable, type WorkflowFile, type WorkflowSource } from "./source.ts";

/** Largest asset an agent may read, checked at load and again at every read. */
export const MAX_ASSET_BYTES = 1024 * 1024;

/** A loaded Skill. */
export interface LoadedSkill {
  name: string;
  description: string;
  /** The Markdown body, front matter removed. */
  content: string;
  /** `SKILL.md` as read, front matter included: what the workflow's version covers. */
  text: string;
  /** Assets by id (`<skill>/<relative name>`), each with the file it is read from. */
  assets: { id: string; name: string; file: WorkflowFile }[];
}

/** The folder-relative path of a Skill's `SKILL.md`. */
export function skillFilePath(skill: string): string {
  return `skills/${skill}/SKILL.md`;
}

/** The folder-relative path of the asset `<skill>/<name>`. */
export function assetPath(assetId: string): string {
  return `skills/${assetId}`;
}

/** Loads one Skill or returns the problems, each naming the workflow-relative file. */
export function loadSkill(source: WorkflowSource, name: string): LoadedSkill | { errors: string[] } {
  const folder = `skills/${name}/`;
  const skillPath = skillFilePath(name);
  const where = `${source.label}/${skillPath}`;
  const file = source.files.get(skillPath);
  if (!file) return { errors: [`${where}: missing`] };
  if (file.kind === "symlink") return { errors: [`${where}: is a symbolic link`] };
  let text: string;
  try {
    text = readWorkflowText(source, file);
  } catch (error) {
    return { errors: [unreadable(error)] };
  }
  const parsed = parseFrontMatter(text);
  const errors: string[] = [];
  if (!parsed) return { errors: [`${where}: missing front matter (--- name / description ---)`] };
  if (parsed.fields.name !== name) errors.push(`${where}: front matter name must be "${name}"`);
  if (!parsed.fields.description) errors.push(`${where}: front matter needs a non-empty description`);
  const assets: LoadedSkill["assets"] = [];
  for (const [path, asset] of source.files) {
    if (!path.startsWith(folder) || path === skillPath) continue;
    const assetName = path.slice(folder.length);
    if (asset.kind === "symlink") {
      errors.push(`${source.label}/${path}: skill assets cannot be symbolic links`);
    } else if (asset.kind === "disk" && asset.size > MAX_ASSET_BYTES) {
      errors.push(`${source.label}/${path}: skill assets are limited to 1 MiB`);
    } else assets.push({ id: `${name}/${assetName}`, name: assetName, file: asset });
  }
  if (errors.length) return { errors };
  return { name, description: parsed.fields.description, content: parsed.body, text, assets };
}

function parseFrontMatter(text: string): { fields: Record<string, string>; body: string } | undefined {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return undefined;
  const fields: Record<string, string> = {};
  for (const line of match[1].split(/\r?\n/)) {
    const field = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (field) fields[field[1]] = field[2].trim().replace(/^(["'])(.*)\1$/, "$2");
  }
  return { fields, body: text.slice(match[0].length).trimStart() };
}
