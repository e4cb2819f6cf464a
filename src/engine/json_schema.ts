/**
 * Run-time JSON Schema (draft 2020-12) validation of stage state, agent outputs and check rules, behind one
 * function so the validator can be swapped without touching its callers. Ajv is used because zod's
 * `fromJSONSchema` silently ignores keywords such as `minItems` without `items` or `required` without
 * `properties`, which would let invalid state through.
 *
 * @module
 */
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { escapeToken } from "./json_pointer.ts";
import { linearRegExp } from "./linear_regexp.ts";

/** The verdict on one value: readable violations, each prefixed with the JSON pointer it concerns. */
export type Validation = { ok: true } | { ok: false; errors: string[] };

/** A compiled schema, ready to judge values. */
export type Validator = (value: unknown) => Validation;

// Built on first use, not at start-up: constructing it compiles Ajv's meta-schemas, a cost no request before
// the first schema check needs (the embedded workflows' schemas are not compiled at load).
let ajv: Ajv2020 | undefined;
const compiled = new WeakMap<object, Validator>();

/**
 * Compiles a JSON Schema; throws a plain Error naming the problem when it is not usable (a `pattern` RE2
 * cannot match in linear time included). Workflow schemas are immutable once loaded, so validators are cached
 * by schema identity.
 */
export function compileSchema(schema: unknown): Validator {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new Error("a JSON Schema must be an object");
  }
  const cached = compiled.get(schema);
  if (cached) return cached;
  ajv ??= new Ajv2020({ allErrors: true, strict: false, code: { regExp: linearRegExp } });
  const check = ajv.compile(schema);
  const validator: Validator = (value) =>
    check(value) ? { ok: true } : { ok: false, errors: (check.errors ?? []).map(describeError) };
  compiled.set(schema, validator);
  return validator;
}

function describeError(error: ErrorObject): string {
  const at = error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${at}/${escapeToken(String(params.missingProperty))}: is required`;
    case "additionalProperties":
      return `${at}/${escapeToken(String(params.additionalProperty))}: is not allowed`;
    case "enum":
      return `${at || "/"}: must be one of ${
        (params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")
      }`;
    default:
      return `${at || "/"}: ${error.message ?? "is invalid"}`;
  }
}
