/**
 * A JSON document the test edits by path (a manifest to mutate, a tool result to read), where declaring its
 * whole shape would only repeat the schema under test.
 *
 * @module
 */

// deno-lint-ignore no-explicit-any
export type Json = any;
