/**
 * Where Studio lives on the service, apart from its files, so that the HTTP layer can route to it without
 * loading them.
 *
 * @module
 */

/** The page's entry, served at `/studio/`. */
export const STUDIO_INDEX = "/studio/";
