/**
 * The Studio page's files, embedded in the program (text imports travel inside `deno bundle` and
 * `deno compile`), by the URL path the service serves each one at. `src/studio/assets/` holds the files the
 * page's build writes (`deno task studio` bundles `src/studio/page/` into `studio.js`, and its first script
 * into `loader.js`); a file added there needs its line here. Nothing else of `src/studio/` is imported by the
 * server: the page's source is only the bundles' input.
 *
 * Only text imports are stable in Deno 2.9, so every asset is text (icons as SVG). The HTTP layer imports this
 * module at Studio's first request (`src/http/studio_files.ts`), which names the files by their content and
 * compresses them once.
 *
 * @module
 */

import indexHtml from "./assets/index.html" with { type: "text" };
import studioJs from "./assets/studio.js" with { type: "text" };
import loaderJs from "./assets/loader.js" with { type: "text" };
import studioCss from "./assets/studio.css" with { type: "text" };
import iconSvg from "./assets/icon.svg" with { type: "text" };
import { STUDIO_INDEX } from "./paths.ts";

export { STUDIO_INDEX };

/** One embedded file: its media type and its content. */
export interface StudioAsset {
  contentType: string;
  body: string;
}

/** Every embedded file, by URL path. */
export const STUDIO_ASSETS: ReadonlyMap<string, StudioAsset> = new Map([
  [STUDIO_INDEX, { contentType: "text/html; charset=utf-8", body: indexHtml }],
  ["/studio/loader.js", { contentType: "text/javascript; charset=utf-8", body: loaderJs }],
  ["/studio/studio.js", { contentType: "text/javascript; charset=utf-8", body: studioJs }],
  ["/studio/studio.css", { contentType: "text/css; charset=utf-8", body: studioCss }],
  ["/studio/icon.svg", { contentType: "image/svg+xml", body: iconSvg }],
]);
