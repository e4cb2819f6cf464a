/**
 * The page's first script, bundled by `deno task studio` into `src/studio/assets/loader.js`: small, so that
 * the browser paints the Runs list the service drew into the page before anything else, and only then loads
 * the page's program (`main.ts`, which keeps the main thread busy while it compiles and runs). The page
 * names the program's content-hashed address in a `<meta>` element and has the browser fetch it meanwhile.
 *
 * @module
 */

/** The `<meta>` element naming the program's address. */
const PROGRAM_META = "weft-studio-program";

const program = document.querySelector<HTMLMetaElement>(`meta[name="${PROGRAM_META}"]`)?.content ??
  "/studio/studio.js";
const start = () => void import(program);
// A frame callback runs before the next paint and a timer set in it after that paint; a hidden tab paints
// nothing and runs no frame callbacks, so there the program starts at once.
if (document.visibilityState === "hidden") start();
else requestAnimationFrame(() => setTimeout(start));
