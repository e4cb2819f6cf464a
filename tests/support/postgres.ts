/**
 * Test support: a throwaway PostgreSQL server from the machine's `postgresql` package, started for one test
 * file and removed afterwards. It lives in a temporary folder (its data, its unix socket, its log), listens on
 * loopback only at a free port, and asks for a password that the tests give the way a person would: through
 * a `.pgpass` file (`PGPASSFILE`), never in a connection string. PostgreSQL refuses to run as root, so under
 * root (CI, containers) the server runs as `nobody`.
 *
 * @module
 */
import { within } from "./deadline.ts";

/** The folder Debian installs PostgreSQL 15's programs into; `WEFT_TEST_PG_BIN` names another. */
const PG_BIN = Deno.env.get("WEFT_TEST_PG_BIN") ?? "/usr/lib/postgresql/15/bin";
/** The role and password of every throwaway server, so one `.pgpass` line serves them all. */
export const TEST_ROLE = "weft";
/** Not a secret: the password of throwaway servers, for tests that check it is never shown. */
export const TEST_PASSWORD = "weft-test-only";

/** A running throwaway server. */
export interface TestPostgres {
  /** Its loopback port. */
  port: number;
  /** A connection string for a new empty database on it (no password: `.pgpass` gives it). */
  newDatabase(): Promise<string>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** Runs `body` with a throwaway server, stopped and removed whatever happens. */
export async function withPostgres<T>(body: (server: TestPostgres) => Promise<T>): Promise<T> {
  const server = await startPostgres();
  try {
    return await body(server);
  } finally {
    await server.stop();
  }
}

/** Starts a throwaway server: initdb into a temporary folder, then the server on a free loopback port. */
export async function startPostgres(): Promise<TestPostgres> {
  const dir = await Deno.makeTempDir({ prefix: "weft-pg-" });
  const asUser = Deno.uid() === 0 ? ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] : [];
  const port = freePort();
  let started = false;
  const stop = async () => {
    if (started) {
      started = false;
      await run(asUser, "pg_ctl", ["-D", `${dir}/data`, "-m", "immediate", "-w", "stop"]).catch(() => {});
    }
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  try {
    if (asUser.length) await run([], "chown", ["nobody:nogroup", dir]);
    await Deno.writeTextFile(`${dir}/password`, TEST_PASSWORD);
    if (asUser.length) await run([], "chown", ["nobody:nogroup", `${dir}/password`]);
    await run(asUser, "initdb", [
      "-D",
      `${dir}/data`,
      "-U",
      TEST_ROLE,
      `--pwfile=${dir}/password`,
      "--auth-host=scram-sha-256",
      "--auth-local=scram-sha-256",
      "--no-sync",
      "--encoding=UTF8",
      "--locale=C",
    ]);
    // Loopback only, the socket in the temporary folder, and no fsync: a test server keeps nothing.
    const options = `-h 127.0.0.1 -p ${port} -k ${dir} -F -c max_connections=40`;
    started = true;
    await run(asUser, "pg_ctl", [
      "-D",
      `${dir}/data`,
      "-w",
      "-t",
      "60",
      "-l",
      `${dir}/log`,
      "-o",
      options,
      "start",
    ]);
    const pgpass = `${dir}/pgpass`;
    await Deno.writeTextFile(pgpass, `127.0.0.1:*:*:${TEST_ROLE}:${TEST_PASSWORD}\n`, { mode: 0o600 });
    // Every throwaway server has the same role and password, so test files running side by side may each
    // point the variable at their own copy of this one line.
    Deno.env.set("PGPASSFILE", pgpass);
  } catch (error) {
    const log = await Deno.readTextFile(`${dir}/log`).catch(() => "");
    await stop();
    throw new Error(`could not start a throwaway PostgreSQL (${(error as Error).message})\n${log}`);
  }
  let databases = 0;
  return {
    port,
    async newDatabase() {
      const name = `weft_test_${++databases}`;
      await psql(port, `CREATE DATABASE ${name}`);
      return `postgres://127.0.0.1:${port}/${name}`;
    },
    stop,
  };
}

/** Runs one SQL statement as the test role through `psql`, for what the tests set up around weft. */
export async function psql(port: number, sql: string, database = "postgres"): Promise<string> {
  const out = await within(
    `psql ${sql}`,
    new Deno.Command(`${PG_BIN}/psql`, {
      args: ["-h", "127.0.0.1", "-p", String(port), "-U", TEST_ROLE, "-d", database, "-XAtq", "-c", sql],
      env: { PGPASSWORD: TEST_PASSWORD },
      stdout: "piped",
      stderr: "piped",
    }).output(),
  );
  if (!out.success) throw new Error(`psql failed: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout).trim();
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function run(asUser: string[], program: string, args: string[]): Promise<void> {
  const path = program === "chown" || program === "setpriv" ? program : `${PG_BIN}/${program}`;
  const [command, ...rest] = [...asUser, path, ...args];
  const out = await within(
    `${program} to finish`,
    new Deno.Command(command, { args: rest, stdout: "piped", stderr: "piped", cwd: "/" }).output(),
    90_000,
  );
  if (!out.success) throw new Error(`${program}: ${new TextDecoder().decode(out.stderr).trim()}`);
}
