/**
 * Who may open Studio in a browser: single-use tickets, exchanged for a session cookie.
 *
 * A ticket is minted for a holder of the internal token (`weft studio`, or `weft serve --studio-url`), lives
 * about a minute in this process's memory and opens one browser session. The session is a signed value:
 * a random id and an expiry, with an HMAC keyed by the internal token, so it survives a restart of the
 * service (the page reconnects by itself) but not a change of the project's tokens, and needs no table that a
 * flood of exchanges could grow. Neither value is ever logged.
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

const SESSION_FORMAT = "s1";

/** A freshly minted ticket. */
export interface StudioTicket {
  ticket: string;
  expiresAt: Date;
}

/** A session cookie value that checked out. */
export interface StudioSession {
  value: string;
  expiresAt: number;
}

/** Tickets and sessions of one service; `now` is injectable so that expiry is tested without waiting. */
export class StudioAccess {
  #tickets = new Map<string, number>();
  #key: Promise<CryptoKey>;

  constructor(internalToken: string, private readonly now: () => number = Date.now) {
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
    const expiresAt = this.now() + TICKET_TTL_MS;
    this.#tickets.set(ticket, expiresAt);
    return { ticket, expiresAt: new Date(expiresAt) };
  }

  /** Consumes `ticket` and opens a session; null when it is unknown, used already or expired. */
  async redeem(ticket: string): Promise<StudioSession | null> {
    const expiresAt = this.#tickets.get(ticket);
    // Consumed whatever the outcome: a ticket is tried once.
    this.#tickets.delete(ticket);
    if (expiresAt === undefined || expiresAt <= this.now()) return null;
    return await this.#session(randomId(16));
  }

  /** The session `value` stands for, when it is well formed, signed by this project and not expired. */
  async verify(value: string): Promise<StudioSession | null> {
    const parts = value.split(".");
    if (parts.length !== 4 || parts[0] !== SESSION_FORMAT) return null;
    const [, id, expiry, mac] = parts;
    const expiresAt = Number(expiry);
    if (!/^[0-9]{1,15}$/.test(expiry) || expiresAt <= this.now()) return null;
    if (!constantTimeEqual(mac, await this.#mac(id, expiry))) return null;
    return { value, expiresAt };
  }

  /** The same session with a later expiry once half of its time has passed, else null (nothing to renew). */
  async renewal(session: StudioSession): Promise<StudioSession | null> {
    if (session.expiresAt - this.now() > SESSION_TTL_MS / 2) return null;
    return await this.#session(session.value.split(".")[1]);
  }

  async #session(id: string): Promise<StudioSession> {
    const expiresAt = this.now() + SESSION_TTL_MS;
    const expiry = String(expiresAt);
    return { value: `${SESSION_FORMAT}.${id}.${expiry}.${await this.#mac(id, expiry)}`, expiresAt };
  }

  async #mac(id: string, expiry: string): Promise<string> {
    const signed = new TextEncoder().encode(`${SESSION_FORMAT}.${id}.${expiry}`);
    return base64url(new Uint8Array(await crypto.subtle.sign("HMAC", await this.#key, signed)));
  }

  #dropExpired(): void {
    const now = this.now();
    for (const [ticket, expiresAt] of this.#tickets) if (expiresAt <= now) this.#tickets.delete(ticket);
  }
}
