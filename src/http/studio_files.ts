/**
 * Studio's embedded files as the service sends them, prepared once at the first request for any of them: each
 * file but the page also at a content-hashed name (`/studio/studio.<hash>.js`) that the page links to and a
 * browser may keep for good, and each large one gzip-compressed for a browser that accepts it. The files are
 * loaded at that first request, not at start: a service that never shows Studio never holds them.
 *
 * @module
 */

import type { StudioAsset } from "../studio/assets.ts";
import { base64url } from "../lib/base64url.ts";

/** One file ready to send. */
export interface StudioFile {
  contentType: string;
  body: Uint8Array<ArrayBuffer>;
  /** The same bytes gzip-compressed, for a file large enough to gain from it. */
  gzip?: Uint8Array<ArrayBuffer>;
  /** The strong validator of `body`; the compressed bytes have their own (`etagOf`). */
  etag: string;
  /** Whether the path it was found at names its content (a hashed name): then it never changes. */
  immutable: boolean;
  /** Whether it is the page itself, which is never stored. */
  page: boolean;
}

/** Below this many bytes compressing saves less than the headers it adds. */
const COMPRESS_FROM = 1024;

/** Every servable path of Studio's files. */
export class StudioFiles {
  private constructor(readonly byPath: ReadonlyMap<string, StudioFile>, readonly index: StudioFile) {}

  /** Loads the embedded files, names each by its content, links the page to those names, compresses. */
  static async load(): Promise<StudioFiles> {
    const { STUDIO_ASSETS, STUDIO_INDEX } = await import("../studio/assets.ts");
    const byPath = new Map<string, StudioFile>();
    let html = STUDIO_ASSETS.get(STUDIO_INDEX)!.body;
    for (const [path, asset] of STUDIO_ASSETS) {
      if (path === STUDIO_INDEX) continue;
      const body = new TextEncoder().encode(asset.body);
      const hash = await sha256(body);
      const hashed = path.replace(/(\.[a-z]+)$/, `.${hash.slice(0, 12)}$1`);
      const file = await prepared(asset, body, hash, false);
      byPath.set(path, file);
      byPath.set(hashed, { ...file, immutable: true });
      // The page links to the hashed name, so a new weft's page asks for its new files at once.
      html = html.replaceAll(`"${path}"`, `"${hashed}"`);
    }
    const body = new TextEncoder().encode(html);
    const index = await prepared(STUDIO_ASSETS.get(STUDIO_INDEX)!, body, await sha256(body), true);
    byPath.set(STUDIO_INDEX, index);
    return new StudioFiles(byPath, index);
  }

  /** The file at `path`; any other path without a file extension is the page itself (its own routes). */
  at(path: string): StudioFile | undefined {
    const exact = this.byPath.get(path);
    if (exact) return exact;
    const last = path.slice(path.lastIndexOf("/") + 1);
    return last.includes(".") ? undefined : this.index;
  }
}

/** Whether an `Accept-Encoding` header accepts gzip (named, or `*`, with a quality above zero). */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false;
  const quality = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [coding, ...params] = part.trim().split(";");
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    quality.set(coding.trim(), q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  return (quality.get("gzip") ?? quality.get("*") ?? 0) > 0;
}

/** The validator of `file` as sent with or without compression. */
export function etagOf(file: StudioFile, gzip: boolean): string {
  return gzip ? file.etag.replace(/"$/, '-gzip"') : file.etag;
}

async function prepared(
  asset: StudioAsset,
  body: Uint8Array<ArrayBuffer>,
  hash: string,
  page: boolean,
): Promise<StudioFile> {
  return {
    contentType: asset.contentType,
    body,
    ...(body.length >= COMPRESS_FROM ? { gzip: await gzipped(body) } : {}),
    etag: `"${hash}"`,
    immutable: false,
    page,
  };
}

async function gzipped(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}
