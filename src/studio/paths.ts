/**
 * Where Studio lives on the service, apart from its files, so that the HTTP layer can route to it without
 * loading them, and a client can ask for a ticket without importing the server's pages.
 *
 * @module
 */

/** The page's entry, served at `/studio/`. */
export const STUDIO_INDEX = "/studio/";

/**
 * Where a holder of the internal token asks for a ticket (POST); with `?redirectFile=true` the answer also
 * names a redirect file that opens it (`src/http/studio_redirect.ts`).
 */
export const STUDIO_TICKET_PATH = "/studio/ticket";

/** Where the internal token, or the page with its cookie and tab key, ends every Studio session (POST). */
export const STUDIO_SIGN_OUT_PATH = "/studio/sign-out";
