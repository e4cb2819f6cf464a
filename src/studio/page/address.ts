/**
 * The page's addresses. Routes live in the address's hash, so the service serves one page and a view can be
 * bookmarked, reloaded or shared with its filters:
 * `#/runs?status=&workflow=&q=&page=`, `#/runs/<runId>`, `#/start`, `#/artifacts?workflow=&stage=` and
 * `#/artifacts/<workflow>/<stage>/<artifactId>?from=&to=`. Pure, so it is tested on its own.
 *
 * @module
 */

import { HOME_HASH, runHash } from "../first_view_html.ts";

/** A view and its parameters. */
export type Route =
  | { view: "runs"; status: string; workflow: string; q: string; page: number }
  | { view: "run"; runId: string }
  | { view: "start" }
  | { view: "artifacts"; workflow: string; stage: string }
  | { view: "artifact"; workflow: string; stage: string; name: string; from?: number; to?: number };

/** The first view: the Runs waiting for the person. */
export const HOME = HOME_HASH;

/** Reads a hash (with or without its `#`); anything unknown is undefined. */
export function parseRoute(hash: string): Route | undefined {
  const text = hash.replace(/^#/, "");
  const question = text.indexOf("?");
  const path = question < 0 ? text : text.slice(0, question);
  const query = new URLSearchParams(question < 0 ? "" : text.slice(question + 1));
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "runs" && parts.length === 1) {
    const page = Number(query.get("page") ?? "1");
    return {
      view: "runs",
      status: query.get("status") ?? "",
      workflow: query.get("workflow") ?? "",
      q: query.get("q") ?? "",
      page: Number.isInteger(page) && page >= 1 ? page : 1,
    };
  }
  if (parts[0] === "runs" && parts.length === 2) return { view: "run", runId: parts[1] };
  if (parts[0] === "start" && parts.length === 1) return { view: "start" };
  if (parts[0] === "artifacts" && parts.length === 1) {
    return { view: "artifacts", workflow: query.get("workflow") ?? "", stage: query.get("stage") ?? "" };
  }
  if (parts[0] === "artifacts" && parts.length === 4) {
    const revision = (key: string) => {
      const value = Number(query.get(key) ?? "");
      return Number.isInteger(value) && value >= 1 ? value : undefined;
    };
    return {
      view: "artifact",
      workflow: parts[1],
      stage: parts[2],
      name: parts[3],
      from: revision("from"),
      to: revision("to"),
    };
  }
  return undefined;
}

/** The hash of `route`; empty parameters are left out. */
export function formatRoute(route: Route): string {
  const query = (params: Record<string, string | number | undefined>) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) {
      if (value !== undefined && value !== "" && !(key === "page" && value === 1)) {
        search.set(key, String(value));
      }
    }
    const text = search.toString();
    return text ? `?${text}` : "";
  };
  const segment = encodeURIComponent;
  switch (route.view) {
    case "runs":
      return `#/runs${
        query({ status: route.status, workflow: route.workflow, q: route.q, page: route.page })
      }`;
    case "run":
      return runHash(route.runId);
    case "start":
      return "#/start";
    case "artifacts":
      return `#/artifacts${query({ workflow: route.workflow, stage: route.stage })}`;
    case "artifact":
      return `#/artifacts/${segment(route.workflow)}/${segment(route.stage)}/${segment(route.name)}${
        query({ from: route.from, to: route.to })
      }`;
  }
}
