/**
 * Preact and htm, the page's UI library, named here by their npm specifiers rather than in deno.json: Deno
 * installs every package deno.json names on any command's first run, and these are inputs of
 * `deno task studio` only (the page ships as the committed bundle), so no command of weft should fetch them.
 *
 * @module
 */
export * from "npm:preact@11.2.0";
export * from "npm:preact@11.2.0/hooks";
export { default as htm } from "npm:htm@3.1.1";
