/**
 * The tab key: the secret this tab sends with its session cookie on every request that reads or changes the
 * project (the service's `studio_access.ts` says why the cookie alone never does). The page the ticket opened
 * carries it in a `<meta>` element; it is taken from there once and kept in `sessionStorage`, which no page
 * of another origin (another port included) reads, and which outlives a reload or a restart of the service
 * but not the tab.
 *
 * @module
 */

/** The header the key travels in. */
export const TAB_KEY_HEADER = "weft-studio-key";

const NAME = "weft-studio-key";

/** The key, also when the browser keeps no storage for the page. */
let kept: string | null = null;

/**
 * Takes the key out of the page a ticket opened into `sessionStorage`, and drops the used ticket from the
 * address (so that a reload or a bookmark does not present it again).
 */
export function takeTabKey(): void {
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="${NAME}"]`);
  if (meta) {
    kept = meta.content;
    meta.remove();
    try {
      sessionStorage.setItem(NAME, kept);
    } catch {
      // Storage refused: the key lasts as long as this page, and a reload asks for `weft studio`.
    }
  }
  const address = new URL(location.href);
  if (address.searchParams.has("ticket")) {
    address.searchParams.delete("ticket");
    history.replaceState(history.state, "", address.pathname + address.search + address.hash);
  }
}

/** The tab's key, or "" when this tab was not opened through a ticket. */
export function tabKey(): string {
  try {
    kept ??= sessionStorage.getItem(NAME);
  } catch {
    // Storage refused: only a key taken by this page counts.
  }
  return kept ?? "";
}
