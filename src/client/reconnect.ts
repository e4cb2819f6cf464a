/**
 * When a client of the service counts its session as lost, and how long it waits between tries: one rule for
 * every client, the bridge and the commands (`service_session.ts`, `http_session.ts`) and Studio's page
 * (`src/studio/page/connection.ts`), which bundles this module. So it stays pure: no import, no runtime API.
 *
 * @module
 */

/**
 * Whether a failed request means its session is lost, so the client opens a new one, joins again and
 * subscribes again: nobody answered (a network error, which `fetch` reports as a `TypeError`), or the service
 * answered 404 (it does not know the session: it restarted, or ended it), 401 (it refused the credentials:
 * new tokens, or a Studio session ended) or 503 (it would not take the session now): `failure.status` of the
 * clients' transport (`HttpStatusError`), which Studio's page speaks too.
 */
export function sessionLost(failure: unknown): boolean {
  if (failure instanceof TypeError) return true;
  const { status } = (failure ?? {}) as { status?: unknown };
  return status === 404 || status === 401 || status === 503;
}

/** The first wait before trying again, and the longest. */
const FIRST_WAIT_MS = 500;
const LONGEST_WAIT_MS = 5_000;

/** How long to wait before try `attempt` (1 for the first retry), doubling from 0.5 s up to 5 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(FIRST_WAIT_MS * 2 ** Math.max(0, attempt - 1), LONGEST_WAIT_MS);
}
