/**
 * The Studio page's entry: bundled by `deno task studio` into `src/studio/assets/studio.js`.
 *
 * @module
 */

import "./zod_jitless.ts";
import { render } from "preact";
import { App } from "./app.ts";
import { connection } from "./connection.ts";
import { html } from "./html.ts";

connection.start();
render(html`<${App} />`, document.getElementById("studio")!);
