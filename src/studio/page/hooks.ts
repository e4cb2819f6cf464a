/**
 * The views' two hooks: the connection indicator's state, and data loaded through tools that reloads by
 * itself when a watched resource changes (or the connection comes back).
 *
 * @module
 */

import { useCallback, useEffect, useRef, useState } from "./preact.ts";
import { connection, type LinkState, StudioError } from "./connection.ts";

/** The connection indicator's text, kept current. */
export function useLink(): LinkState {
  const [, setChanges] = useState(0);
  useEffect(() => connection.onState(() => setChanges((changes) => changes + 1)), []);
  return connection.state;
}

/** What {@linkcode useLoad} holds: the last data loaded, the last error, and a way to load again now. */
export interface Loaded<T> {
  data: T | undefined;
  error: StudioError | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * Loads with `load` when `key` changes, and again whenever one of `uris` changes. Loads never overlap: a
 * change during a load asks for one more load after it, so a burst of changes costs at most two. When `early`
 * has the data at the first render (the opened page carried it), that is shown at once and loaded again once
 * the session is up, since it may have changed before the subscriptions were made.
 */
export function useLoad<T>(
  key: string,
  load: () => Promise<T>,
  uris: readonly string[],
  early?: () => T | undefined,
): Loaded<T> {
  // Asked in the first render, so data the opened page carried is in the view's first paint.
  const earlyKey = useRef<string | null>(null);
  const [state, setState] = useState<{ key: string; data?: T; error?: StudioError; loading: boolean }>(() => {
    const given = early?.();
    if (given === undefined) return { key, loading: true };
    earlyKey.current = key;
    return { key, data: given, loading: false };
  });
  const latest = useRef({ key, load });
  latest.current = { key, load };
  const running = useRef<{ key: string; again: boolean } | null>(null);

  const run = useCallback(() => {
    const current = running.current;
    if (current && current.key === latest.current.key) {
      current.again = true;
      return;
    }
    const mine = { key: latest.current.key, again: false };
    running.current = mine;
    const step = async () => {
      do {
        mine.again = false;
        try {
          const data = await latest.current.load();
          if (running.current === mine) setState({ key: mine.key, data, loading: false });
        } catch (error) {
          const failure = error instanceof StudioError
            ? error
            : new StudioError({ code: "INTERNAL", message: String(error) });
          if (running.current === mine) {
            setState((old) => ({
              key: mine.key,
              data: old.key === mine.key ? old.data : undefined,
              error: failure,
              loading: false,
            }));
          }
        }
      } while (mine.again && running.current === mine);
      if (running.current === mine) running.current = null;
    };
    step();
  }, []);

  useEffect(() => {
    if (earlyKey.current === key) {
      earlyKey.current = null;
      connection.live().then(run, run);
    } else {
      setState((old) => old.key === key ? old : { key, loading: true });
      run();
    }
    const stops = uris.map((uri) => connection.watch(uri, run));
    return () => stops.forEach((stop) => stop());
  }, [key, uris.join("\n")]);

  const fresh = state.key === key;
  return {
    data: fresh ? state.data : undefined,
    error: fresh ? state.error : undefined,
    loading: !fresh || state.loading,
    reload: run,
  };
}
