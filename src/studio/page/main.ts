/**
 * The Studio page's program: bundled by `deno task studio` into `src/studio/assets/studio.js`, loaded by `loader.ts`.
 *
 * @module
 */

import { render } from "./preact.ts";
import { App } from "./app.ts";
import { connection } from "./connection.ts";
import { html } from "./html.ts";
import { takeTabKey } from "./tab_key.ts";
import { takeFirstAnswers } from "./first_answers.ts";

// Before anything reads the address or talks to the service.
takeTabKey();
takeFirstAnswers();
connection.start();
const root = document.getElementById("studio")!;
// Replaces the home view the service drew into the root (the same markup) in place.
render(html`<${App} />`, root);
// The program has taken the page over: tests wait for the mark, the bench reads the time.
root.dataset.running = "";
performance.mark("weft-studio-running");
