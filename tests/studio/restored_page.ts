// deno-lint-ignore-file no-import-prefix -- playwright-core is test-only, as in support.ts.
/**
 * A tab's page taken back from Chromium's back-forward cache, followed through a DevTools session of the test's
 * own.
 *
 * Playwright does not follow a page the cache restores (its documentation says testing that is not supported):
 * a restore fires no load event, and the restored document's JavaScript worlds and the end of the document left
 * may be reported in either order, which can leave Playwright's `evaluate` and locators waiting for a world it
 * believes gone. So going back, and reading the page once it has been in the cache, go through the DevTools
 * protocol directly, which evaluates in whatever document the tab shows.
 *
 * @module
 */

import type { CDPSession, Page } from "npm:playwright-core@1.65.1";
import { eventually, within } from "../support/deadline.ts";

/** The elements of each role the tests read, named by their text (as the accessible name of these is). */
const ROLES = { status: "[role=status]", link: "a[href]" } as const;

/** One of Chromium's reasons for loading a page anew instead of restoring it from the cache. */
interface Explanation {
  /** `PageSupportNeeded` and `SupportPending` are the page's doing; `Circumstantial` is the browser's. */
  type: string;
  reason: string;
}

/** Chromium loaded the page anew instead of restoring it from the back-forward cache. */
export class NotRestored extends Error {
  /** Whether every reason is the browser's own (memory pressure, a timeout), none the page's doing. */
  readonly circumstantial: boolean;

  constructor(readonly reasons: Explanation[]) {
    const why = reasons.map((reason) => `${reason.reason} (${reason.type})`).join(", ");
    super(`the page was loaded anew, not restored from the back-forward cache: ${why || "no reason given"}`);
    this.circumstantial = reasons.length > 0 && reasons.every((reason) => reason.type === "Circumstantial");
  }
}

/** A tab's page, read through DevTools, and taken back from the back-forward cache. */
export class RestoredPage {
  #cdp: CDPSession;
  #settle: ((reasons: Explanation[] | undefined) => void) | undefined;

  private constructor(cdp: CDPSession) {
    this.#cdp = cdp;
    // Chromium promises no order between a failed restore's reasons and the navigation that loads the page
    // anew, and always sends the reasons: so only a restore or the reasons settle a history navigation.
    cdp.on("Page.frameNavigated", (event) => {
      if (event.frame.parentId === undefined && event.type === "BackForwardCacheRestore") {
        this.#settle?.(undefined);
      }
    });
    cdp.on("Page.backForwardCacheNotUsed", (event) => this.#settle?.(event.notRestoredExplanations));
  }

  /** Follows the tab of `page` from now on, for as long as its browser context is open. */
  static async follow(page: Page): Promise<RestoredPage> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Page.enable");
    return new RestoredPage(cdp);
  }

  /**
   * Goes back one entry in the tab's history; resolves once the page shown there came from the cache, and
   * rejects with {@linkcode NotRestored} when Chromium loaded it anew.
   */
  async back(): Promise<void> {
    const { currentIndex, entries } = await this.#cdp.send("Page.getNavigationHistory");
    const previous = entries[currentIndex - 1];
    if (previous === undefined) throw new Error("the tab has no page to go back to");
    const settled = new Promise<Explanation[] | undefined>((resolve) => this.#settle = resolve);
    try {
      await this.#cdp.send("Page.navigateToHistoryEntry", { entryId: previous.id });
      const reasons = await within(`the page at ${previous.url} to be shown again`, settled);
      if (reasons !== undefined) throw new NotRestored(reasons);
    } finally {
      this.#settle = undefined;
    }
  }

  /**
   * Resolves once an element of `role` (`status`, or `link`) in the page shown is named `name`, or has a name
   * that matches it; the failure names `what` and the names last read.
   */
  async shows(role: keyof typeof ROLES, name: string | RegExp, what: string): Promise<void> {
    let last = "nothing yet";
    await eventually(() => `${what}; last read: ${last}`, async () => {
      const names = await this.#names(ROLES[role]);
      last = names === undefined ? "no document" : JSON.stringify(names);
      const named = (text: string) => typeof name === "string" ? text === name : name.test(text);
      return names?.some(named) ? true : undefined;
    });
  }

  /** The names (trimmed text) of the elements matching `selector`; undefined while no document answers. */
  async #names(selector: string): Promise<string[] | undefined> {
    const answer = await this.#cdp.send("Runtime.evaluate", {
      expression: `[...document.querySelectorAll(${
        JSON.stringify(selector)
      })].map((element) => element.textContent.trim())`,
      returnByValue: true,
    }).catch(() => undefined); // between documents there is briefly none to evaluate in
    const value = answer?.exceptionDetails ? undefined : answer?.result.value;
    return Array.isArray(value) ? value : undefined;
  }
}
