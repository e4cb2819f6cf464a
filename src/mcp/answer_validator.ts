/**
 * What checks a person's elicitation answer against the form's schema, for one session. The SDK's server
 * builds its own Ajv validator (with every string format) for each session when none is given: ~17 KB held
 * for the session's life and several times that allocated at every `initialize`, although most sessions
 * never ask a person anything. This one builds the same validator the first time its session checks an
 * answer, and keeps it for the session as the SDK's would (Ajv caches what it compiled per instance, so one
 * instance shared by every session would keep every form it ever checked).
 *
 * @module
 */

import { AjvJsonSchemaValidator, type jsonSchemaValidator } from "./sdk.ts";

/** A session's answer validator: the SDK's default one, built at its first use. */
export function answerValidator(): jsonSchemaValidator {
  let validator: AjvJsonSchemaValidator | undefined;
  return {
    getValidator: (schema) => (validator ??= new AjvJsonSchemaValidator()).getValidator(schema),
  };
}
