/**
 * One running weft service for one project: state directory, lock, engine, HTTP server, connection file,
 * and an orderly shutdown.
 *
 * @module
 */

import { Engine } from "../engine/engine.ts";
import { errorKind } from "../errors.ts";
import { createHandler } from "../http/handler.ts";
import { type LoopbackServer, serveOnLoopback } from "../http/loopback_server.ts";
import { removeStaleRelayFolders } from "../http/relay_folder.ts";
import { DEFAULT_SESSION_LIMITS, type SessionLimits, SessionTable } from "../http/sessions.ts";
import { StudioAccess } from "../http/studio_access.ts";
import { studioUrl } from "../http/studio_pages.ts";
import { StudioRedirectFiles } from "../http/studio_redirect.ts";
import { studioGenerations } from "../weft_dir/studio_sessions.ts";
import type { ServiceContext } from "../mcp/context.ts";
import { createSessionServer } from "../mcp/server.ts";
import { RequestStates } from "../mcp/elicitation/request_state.ts";
import { ModernRequests } from "../http/modern_requests.ts";
import { publishChanges } from "../mcp/resources/change_events.ts";
import { InMemoryServerEventBus } from "../mcp/sdk.ts";
import { ClaimTable } from "../agent_calls/claim_table.ts";
import { toolsFor } from "../mcp/tools/mod.ts";
import { ENDPOINTS } from "../mcp/endpoints.ts";
import { listingFor } from "../mcp/listing.ts";
import { openProjectStorage } from "./project_storage.ts";
import { LISTING_LIMITS, projectFolder } from "../files/project_folder.ts";
import { projectTreeAt } from "../files/project_tree.ts";
import { projectChanges } from "../files/project_changes.ts";
import { editRefusal } from "../model/edit_trust.ts";
import { configuredPublishFolder, ModelConfig, modelRolesOf } from "../model/config.ts";
import { grantTrust, reviewTrust } from "../model/trust_review.ts";
import { ModelExecutor } from "../model/executor.ts";
import { CommandExecutor } from "../commands/executor.ts";
import { endLeftoverGroups, GroupLedger, type GroupRecord } from "../commands/group_ledger.ts";
import { LiveOutput } from "../commands/live_output.ts";
import { VERSION } from "../version.ts";
import { EMBEDDED_WORKFLOWS } from "../workflows/embedded.ts";
import { type ConnectionInfo, loopbackUrl, tokensFrom, writeConnection } from "../weft_dir/connection.ts";
import { type ClaimedStateDir, claimStateDir } from "../weft_dir/claim.ts";
import { releaseLock } from "../weft_dir/lock.ts";
import { isProcessAlive } from "../weft_dir/process.ts";
import { Logger } from "../lib/logger.ts";
import { formatDuration } from "../lib/duration.ts";
import { WorkInProgress } from "../lib/work_in_progress.ts";
import { configuredIdleExit } from "../model/config.ts";
import { IdleExit } from "./idle_exit.ts";
import { resetTemporary, type WeftPaths } from "../weft_dir/paths.ts";

/** How to start a service. */
export interface ServiceOptions {
  projectDir: string;
  /** An explicit port; when absent the previous port is tried, then one the OS chooses. */
  port?: number;
  limits?: SessionLimits;
  /** The project's `.weft/`, already claimed for this instance (`weft serve` claims it while this loads). */
  claimed?: ClaimedStateDir;
  /**
   * How long the service may have no session, no stream and no work in progress before {@linkcode
   * RunningService.idle} resolves: milliseconds (0 or absent: never), or `"configured"` for the user-level
   * configuration's `service.idleExit` (what a service started on someone's behalf uses).
   */
  idleExit?: number | "configured";
}

/** A started service. */
export interface RunningService {
  url: string;
  port: number;
  pid: number;
  instanceId: string;
  paths: WeftPaths;
  /** A fresh single-use address that opens Studio in a browser (valid about a minute). */
  studioUrl(): string;
  /**
   * Resolves once the service has been idle for its idle exit (never without one); its owner then shuts it
   * down, as it would on SIGTERM.
   */
  idle: Promise<void>;
  /** Closes sessions, then the HTTP server, then storage, then releases the lock. Safe to call twice. */
  shutdown(): Promise<void>;
}

/**
 * Starts the service for a project; throws `LockHeldError` when one already runs there. With `claimed`, the
 * lock it holds is released if the start fails.
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { paths, previous, owner } = options.claimed ?? await claimStateDir(options.projectDir);

  const logger = Logger.open(paths.logs, owner.instanceId);
  let engine: Engine | undefined;
  let server: LoopbackServer | undefined;
  try {
    // Looked at when asked: an edited weft.json or a newly exported key applies to the next question.
    const models = modelRolesOf(paths.projectDir);
    const work = new WorkInProgress();
    // Resolved once: file reads compare what they opened with paths under this link-free root.
    const projectRoot = Deno.realPathSync(paths.projectDir);
    const tree = projectTreeAt(projectRoot);
    // Before the engine opens, which finishes the publications a kill cut short and so writes files.
    await resetTemporary(paths);
    engine = await Engine.open({
      storage: await openProjectStorage(
        projectRoot,
        paths.database,
        (name) => Deno.env.get(name),
        (event) => logger.log("service.team_store", event),
      ),
      embedded: EMBEDDED_WORKFLOWS,
      log: (event) => logger.log("engine", event),
      models,
      projectFiles: projectFolder(projectRoot, LISTING_LIMITS, paths.temporary),
      projectTree: tree,
      projectChanges: projectChanges(projectRoot, paths.changes),
      editRefusal: (site) => editRefusal(ModelConfig.read(paths.projectDir), site),
      publishFolder: configuredPublishFolder(paths.projectDir),
    });
    const claims = new ClaimTable(engine);
    const executor = new ModelExecutor({
      engine,
      claims,
      config: () => ModelConfig.read(paths.projectDir),
      log: (event) => logger.log("model", event),
      work,
    });
    // What a killed instance's commands left running is listed before any command of this one is recorded,
    // and ended meanwhile: the grace its groups get between SIGTERM and SIGKILL does not delay the start.
    const ledger = new GroupLedger(paths.commandGroups);
    const leftovers = endLeftovers(ledger, await ledger.records(), logger);
    const commandOutput = new LiveOutput();
    const commands = new CommandExecutor({
      engine,
      projectDir: projectRoot,
      projectTree: tree,
      config: () => ModelConfig.read(paths.projectDir),
      env: (name) => Deno.env.get(name),
      log: (event) => logger.log("commands", event),
      work,
      output: commandOutput,
      ledger,
    });
    const context: ServiceContext = {
      engine,
      instance: { instanceId: owner.instanceId, pid: owner.pid, version: VERSION, startedAt: new Date() },
      logger,
      claims,
      models,
      commandOutput,
      projectTrust: {
        review: () => reviewTrust(paths.projectDir),
        grant: (digest) => grantTrust(paths.projectDir, digest),
      },
      requestStates: new RequestStates(owner.instanceId),
      sessions: () => ({ open: sessions.size, max: sessions.limits.maxSessions }),
    };
    const sessions = new SessionTable(
      options.limits ?? DEFAULT_SESSION_LIMITS,
      (endpoint) => createSessionServer(endpoint, context, toolsFor(endpoint)),
      logger,
      { work },
    );
    const changeBus = new InMemoryServerEventBus();
    const stopPublishing = publishChanges(engine, commandOutput, changeBus);
    const limits = options.limits ?? DEFAULT_SESSION_LIMITS;
    const modern = new ModernRequests(
      (endpoint) => createSessionServer(endpoint, context, toolsFor(endpoint), "modern").server,
      {
        bus: changeBus,
        maxSubscriptions: limits.maxSessions,
        keepAliveMs: limits.keepAliveMs ?? DEFAULT_SESSION_LIMITS.keepAliveMs!,
        logger,
        work,
      },
    );
    const tokens = tokensFrom(previous);
    let port = 0;
    const redirectFiles = new StudioRedirectFiles(paths.weftDir);
    // Those of a killed service are not worth keeping: their tickets died with it.
    await redirectFiles.removeAll();
    const studio = new StudioAccess(tokens.internalToken, { generations: studioGenerations(paths) });
    const openEngine = engine;
    const handler = createHandler({
      tokens: { external: tokens.externalToken, internal: tokens.internalToken },
      port: () => port,
      sessions,
      modern,
      studio,
      redirectFiles,
      logger,
      listRuns: (query) => openEngine.listRuns(query),
    });
    // A killed service cannot remove its relay folder; the next start of any project clears such leftovers.
    const stale = await removeStaleRelayFolders(isProcessAlive);
    server = await serveOnLoopback(handler, { port: options.port, previousPort: previous?.port, logger });
    port = server.port;
    sessions.startSweeping();

    const info: ConnectionInfo = {
      version: 1,
      url: loopbackUrl(port),
      port,
      pid: owner.pid,
      instanceId: owner.instanceId,
      ...tokens,
    };
    await writeConnection(paths, info);
    // An instance's log opens with its start; what the start found on the way is said after it.
    logger.log("service.started", { port, pid: owner.pid, version: VERSION });
    if (stale) logger.log("service.stale_relay_folders_removed", { count: stale });
    const idleExit = idleExitOf(options.idleExit, logger);
    const watch = idleExit ? new IdleExit(work, idleExit) : undefined;
    if (watch) logger.log("service.idle_exit_set", { after: formatDuration(idleExit) });
    watch?.start();
    const idle = watch
      ? watch.idle.then(() => logger.log("service.idle_exit", { idleFor: formatDuration(idleExit) }))
      : new Promise<void>(() => {});

    // The IDE's first tools/list would build its answer while the IDE waits. Right after ready, a client that
    // started the service is still checking it before it connects: the answers are built in that gap.
    const listings = setTimeout(() => {
      for (const endpoint of ENDPOINTS) {
        if (endpoint.tokenClass === "external") listingFor(endpoint, toolsFor(endpoint));
      }
    }, 0);

    let stopping: Promise<void> | undefined;
    const running = server;
    const openedEngine = engine;
    return {
      url: info.url,
      port,
      pid: owner.pid,
      instanceId: owner.instanceId,
      paths,
      studioUrl: () => studioUrl(port, studio.issueTicket().ticket),
      idle,
      shutdown: () =>
        stopping ??= (async () => {
          try {
            watch?.stop();
            clearTimeout(listings);
            // Model requests in flight end first; their Runs are interrupted on the next start.
            await executor.stop();
            // Commands' process groups are ended; their Runs are interrupted on the next start.
            await commands.stop();
            await leftovers;
            // Open SSE streams would keep the server's shutdown waiting forever: close the sessions first.
            await sessions.closeAll();
            await modern.close();
            stopPublishing();
            await running.shutdown();
            await redirectFiles.removeAll();
          } finally {
            // Whatever failed above, the store is closed and the lock released, so the next start is clean.
            await openedEngine.close();
            logger.log("service.stopped", {});
            logger.close();
            await releaseLock(paths, owner);
          }
        })(),
    };
  } catch (error) {
    await server?.shutdown();
    await engine?.close();
    logger.log("service.failed", errorKind(error));
    logger.close();
    await releaseLock(paths, owner);
    throw error;
  }
}

/**
 * Ends the command groups a killed instance left running (see `group_ledger.ts`); resolves once they are
 * ended, logging what it did.
 */
async function endLeftovers(ledger: GroupLedger, records: GroupRecord[], logger: Logger): Promise<void> {
  if (!records.length) return;
  try {
    const ended = await endLeftoverGroups(ledger, records, LEFTOVER_GRACE_MS);
    logger.log("service.leftover_commands_ended", { groups: ended.length, records: records.length });
  } catch (error) {
    logger.log("service.leftover_commands_failed", errorKind(error));
  }
}

/** Between `SIGTERM` and `SIGKILL` of a killed instance's command group, as for a command of this one. */
const LEFTOVER_GRACE_MS = 2000;

/** The idle exit in milliseconds (0: never); an unusable configured one is logged and the default used. */
function idleExitOf(idleExit: ServiceOptions["idleExit"], logger: Logger): number {
  if (idleExit !== "configured") return idleExit ?? 0;
  const configured = configuredIdleExit();
  if (configured.invalid) logger.log("service.idle_exit_setting_invalid", { setting: "service.idleExit" });
  return configured.idleExitMs;
}
