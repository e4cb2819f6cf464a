/**
 * Moving between the page's views: {@linkcode navigate} and the {@linkcode useRoute} hook over the addresses
 * of `address.ts`.
 *
 * @module
 */

import { useEffect, useState } from "./preact.ts";
import { formatRoute, parseRoute, type Route } from "./address.ts";

export { formatRoute, HOME, parseRoute, type Route } from "./address.ts";

const listeners = new Set<() => void>();

/**
 * Goes to `route`. `replace` rewrites the current history entry instead of adding one (typing in a search
 * box is one step back, not one per key).
 */
export function navigate(route: Route, replace = false): void {
  const hash = formatRoute(route);
  if (hash === location.hash) return;
  if (replace) history.replaceState(null, "", hash);
  else history.pushState(null, "", hash);
  for (const listener of listeners) listener();
}

/** The current route, following links, the back button and {@linkcode navigate}. */
export function useRoute(): Route | undefined {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const update = () => setHash(location.hash);
    listeners.add(update);
    globalThis.addEventListener("hashchange", update);
    return () => {
      listeners.delete(update);
      globalThis.removeEventListener("hashchange", update);
    };
  }, []);
  return parseRoute(hash);
}
