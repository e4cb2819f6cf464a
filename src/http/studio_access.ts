/**
 * Who may open Studio in a browser: single-use tickets, exchanged for a session cookie and a tab key.
 *
 * A ticket is minted for a holder of the internal token (`weft studio`, or `weft serve --studio-url`), lives
 * about a minute in this process's memory and opens one browser session. The session is a signed value: a
 * random id, when it was opened, its expiry and the project's session generation, with an HMAC keyed by the
 * internal token. So it survives a restart of the service (the page reconnects by itself) but not a change of
 * the project's tokens, needs no table that a flood of exchanges could grow, and ends:
 * - {@linkcode SESSION_TTL_MS} after its last renewal (a page in use renews it),
 * - {@linkcode SESSION_MAX_MS} after it was opened, however often it was renewed, and
 * - when the person ends every session ({@linkcode StudioAccess.endAll}): the generation, kept durably by
 *   the service, moves on, and a value signed for an earlier one no longer counts, also after a restart.
 *
 * Why a tab key besides the cookie: a browser sends a cookie of 127.0.0.1 to every port of 127.0.0.1, so any
 * other local server a page of the person's browser talks to (on the paths the cookie is scoped to) receives
 * the cookie's value and can replay it, with whatever `Origin` it likes. The cookie therefore never
 * authorizes alone: the page also sends the tab key ({@linkcode StudioAccess.tabKey}, an HMAC of the session's
 * id) as a header, and keeps it in `sessionStorage`, which belongs to one origin (scheme, host and port) and
 * one tab, so no page of another port reads it and no browser sends it anywhere by itself.
 *
 * How the key reaches the page decides whether that holds. It is handed out once, in the body of the ticket's
 * exchange (the page itself, with the key in a `<meta>` element, `no-store`, under a same-origin resource
 * policy): that body is readable only by the page of this origin it became, and getting it takes the
 * single-use ticket, which travels only over the service's answer to the internal token, a pipe, or a 0600
 * file. No request the cookie alone authorizes ever answers with the key, since whoever replays a cookie can
 * send such a request too. Nor does the key ride in an address (a query or a fragment), where the browser's
 * history would keep it. The key is derived, not stored, so it stays the same across renewals and restarts.
 * Neither the ticket, the session value nor the key is ever logged.
 *
 * @module
 */

import { base64url } from "../lib/base64url.ts";
import { constantTimeEqual, newToken, randomId } from "../lib/tokens.ts";

/** How long a ticket can be exchanged. */
export const TICKET_TTL_MS = 60_000;
/** Unused tickets kept at most; past it the oldest is dropped (it was never going to be used). */
export const MAX_OPEN_TICKETS = 64;
/** A session ends this long after its last renewal; requests renew it once half of that has passed. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** A session ends this long after it was opened, however often it was renewed. */
export const SESSION_MAX_MS = 24 * 60 * 60 * 1000;

const SESSION_FORMAT = "s2";

/** A freshly minted ticket. */
export interface StudioTicket {
  ticket: string;
  expiresAt: Date;
}

/** A session cookie value that checked out. */
export interface StudioSession {
  value: string;
  id: string;
  openedAt: number;
  expiresAt: number;
}

/**
 * Where the project's session generation is kept across restarts; ending every session moves it on. The
 * default keeps it in memory (a handler under test).
 */
export interface SessionGenerations {
  read(): Promise<number>;
  write(generation: number): Promise<void>;
}

/** What a {@linkcode StudioAccess} is built with besides the internal token. */
export interface StudioAccessOptions {
  /** The clock; injectable so that expiry is tested without waiting. */
  now?: () => number;
  generations?: SessionGenerations;
}

/** Tickets and sessions of one service. */
export class StudioAccess {
  #tickets = new Map<string, number>();
  #key: Promise<CryptoKey>;
  #now: () => number;
  #generations: SessionGenerations;
  #generation: Promise<number>;

  constructor(internalToken: string, options: StudioAccessOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#generations = options.generations ?? inMemoryGenerations();
    this.#generation = this.#generations.read();
    this.#key = crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(`weft studio sessions\0${internalToken}`),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
  }

  /** Mints a single-use ticket. */
  issueTicket(): StudioTicket {
    this.#dropExpired();
    while (this.#tickets.size >= MAX_OPEN_TICKETS) {
      this.#tickets.delete(this.#tickets.keys().next().value!);
    }
    const ticket = newToken();
    const expiresAt = this.#now() + TICKET_TTL_MS;
    this.#tickets.set(ticket, expiresAt);
    return { ticket, expiresAt: new Date(expiresAt) };
  }

  /** Consumes `ticket` and opens a session; null when it is unknown, used already or expired. */
  async redeem(ticket: string): Promise<StudioSession | null> {
    const expiresAt = this.#tickets.get(ticket);
    // Consumed whatever the outcome: a ticket is tried once.
    this.#tickets.delete(ticket);
    if (expiresAt === undefined || expiresAt <= this.#now()) return null;
    const now = this.#now();
    return await this.#session(randomId(16), now, now + SESSION_TTL_MS);
  }

  /** The session `value` stands for, when it is well formed, signed by this project, current and not ended. */
  async verify(value: string): Promise<StudioSession | null> {
    const parts = value.split(".");
    if (parts.length !== 6 || parts[0] !== SESSION_FORMAT) return null;
    const [, id, opened, expiry, generation, mac] = parts;
    if (![opened, expiry, generation].every((field) => /^[0-9]{1,15}$/.test(field))) return null;
    const openedAt = Number(opened);
    const expiresAt = Number(expiry);
    const now = this.#now();
    if (expiresAt <= now || openedAt + SESSION_MAX_MS <= now) return null;
    if (Number(generation) !== await this.#generation) return null;
    if (!constantTimeEqual(mac, await this.#mac(parts.slice(0, 5).join(".")))) return null;
    return { value, id, openedAt, expiresAt };
  }

  /**
   * The same session with a later expiry once half of its time has passed, else null (nothing to renew). The
   * expiry never passes the session's absolute end.
   */
  async renewal(session: StudioSession): Promise<StudioSession | null> {
    if (session.expiresAt - this.#now() > SESSION_TTL_MS / 2) return null;
    const expiresAt = Math.min(this.#now() + SESSION_TTL_MS, session.openedAt + SESSION_MAX_MS);
    if (expiresAt <= session.expiresAt) return null;
    return await this.#session(session.id, session.openedAt, expiresAt);
  }

  /** The key of `session` that its page sends as a header with the cookie (see the module's doc). */
  async tabKey(session: StudioSession): Promise<string> {
    return await this.#mac(`tab key\0${session.id}`);
  }

  /** Whether `presented` is the tab key of `session`, compared in constant time. */
  async isTabKey(session: StudioSession, presented: string): Promise<boolean> {
    return constantTimeEqual(presented, await this.tabKey(session));
  }

  /**
   * Ends every session opened so far, in every browser, and every ticket not yet exchanged. The new
   * generation is kept before it takes effect, so that a restart never brings the old sessions back.
   */
  async endAll(): Promise<void> {
    const next = await this.#generation + 1;
    await this.#generations.write(next);
    this.#generation = Promise.resolve(next);
    this.#tickets.clear();
  }

  async #session(id: string, openedAt: number, expiresAt: number): Promise<StudioSession> {
    const signed = `${SESSION_FORMAT}.${id}.${openedAt}.${expiresAt}.${await this.#generation}`;
    return { value: `${signed}.${await this.#mac(signed)}`, id, openedAt, expiresAt };
  }

  async #mac(text: string): Promise<string> {
    const signed = new TextEncoder().encode(text);
    return base64url(new Uint8Array(await crypto.subtle.sign("HMAC", await this.#key, signed)));
  }

  #dropExpired(): void {
    const now = this.#now();
    for (const [ticket, expiresAt] of this.#tickets) if (expiresAt <= now) this.#tickets.delete(ticket);
  }
}

/** A generation kept only for the life of this process. */
function inMemoryGenerations(): SessionGenerations {
  let generation = 0;
  return {
    read: () => Promise.resolve(generation),
    write: (next) => Promise.resolve(void (generation = next)),
  };
}
