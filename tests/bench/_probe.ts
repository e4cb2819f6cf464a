import { startChild } from "./servers.ts";
import { connect, call, echo } from "./clients.ts";
import { closeClient, tempDir, cleanup } from "./resources.ts";
const flags = Deno.args[0] ? [Deno.args[0]] : [];
const dir = await tempDir({ "README.md": "# x\n" });
const weft = await startChild("weft", dir, true, undefined, [], { denoFlags: flags, env: Deno.args[1] ? Object.fromEntries([Deno.args[1].split("=")]) : undefined });
const bare = await startChild("bare");
const c = await connect(weft, "/internal/mcp"); await call(c, "status"); await closeClient(c);
const b = await connect(bare, "/mcp"); await echo(b); await closeClient(b);
await new Promise((r) => setTimeout(r, 10000));
for (const [name, s] of [["weft", weft], ["bare", bare]] as const) {
  const roll = Deno.readTextFileSync(`/proc/${s.pid}/smaps_rollup`).split("\n").filter((l) => /^(Rss|Anonymous|Private_Dirty|Private_Clean|Shared_Clean):/.test(l)).map((l) => l.replace(/\s+/g, " ")).join(" | ");
  console.log(name, roll);
  // biggest anon mappings
  const smaps = Deno.readTextFileSync(`/proc/${s.pid}/smaps`);
  let cur = ""; const rows: [number, string][] = [];
  for (const line of smaps.split("\n")) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) cur = line;
    const m = /^Rss:\s+(\d+)/.exec(line); if (m) rows.push([Number(m[1]), cur]);
  }
  rows.sort((a, b) => b[0] - a[0]);
  const cls = new Map<string, number>(); let cur2 = ""; let size = 0;
  for (const line of smaps.split("\n")) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) { cur2 = line; const [a, b] = line.split(" ")[0].split("-").map((x) => parseInt(x, 16)); size = (b - a) / 1024; }
    const m = /^Anonymous:\s+(\d+)/.exec(line); if (!m || Number(m[1]) === 0) continue;
    const name = cur2.trim().split(/\s+/).slice(5).join(" ");
    const key = name ? name.replace(/.*\//, "") : size >= 16384 ? "anon>=16MB" : size >= 1024 ? "anon1-16MB" : size >= 256 ? "anon256K-1M" : "anon<256K";
    cls.set(key, (cls.get(key) ?? 0) + Number(m[1]));
    if (false) console.log("     ", key, size, "KB mapping,", m[1], "KB anon", cur2.split(" ")[1]);
  }
  console.log("   anon by class", JSON.stringify(Object.fromEntries([...cls].sort((a, b) => b[1] - a[1]))));
  for (const [kb, l] of rows.slice(0, 0)) console.log("   ", kb, l.split(/\s+/).slice(0,1).concat(l.split(/\s+/).slice(5)).join(" "));
}
await weft.stop(); await bare.stop(); await cleanup();
