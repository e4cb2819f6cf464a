/**
 * The Studio page's entry: bundled by `deno task studio` into `src/studio/assets/studio.js`.
 *
 * @module
 */

import "./zod_jitless.ts";
import { render } from "./preact.ts";
import { App } from "./app.ts";
import { connection } from "./connection.ts";
import { html } from "./html.ts";
import { takeTabKey } from "./tab_key.ts";
import { takeFirstAnswers } from "./first_answers.ts";
import { HOME, parseRoute } from "./route.ts";

// Before anything reads the address or talks to the service.
takeTabKey();
takeFirstAnswers();
// The home view is in the address before the first render, so the first paint is already its list.
if (!parseRoute(location.hash)) history.replaceState(null, "", HOME);
connection.start();
render(html`<${App} />`, document.getElementById("studio")!);
