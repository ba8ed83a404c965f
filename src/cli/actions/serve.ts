/**
 * `gramkit serve`: opens the catalog (files or Redis), loads the libraries `function` tools name,
 * registers the bootstrap tools, and serves until SIGINT or SIGTERM. The first line on stdout is
 * `gramkit serve: listening on http://HOST:PORT …` (scripts and tests read the port from it).
 *
 * Only here is the process read: `ALLOWED_TOOL_PERMS`, the working directory (the bootstrap file,
 * the default data directory and workspace), the environment variables named by `--secret`.
 */
import { chooseApprover, commandPolicies } from '../../project/approval.js';
import { readFile, stat, unlink } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { Catalog } from '../../catalog/catalog.js';
import { nucleusToolJson } from '../../catalog/records/nucleus.js';
import { approvalQueue } from '../../policy/approval-queue.js';
import type { Policies } from '../../policy/evaluate.js';
import { DEFAULT_HOST, DEFAULT_PORT, isLoopbackHost, startServer } from '../../server/serve.js';
import { adminPage } from '../../server/admin-page.js';
import { catalogMcpMount } from '../../server/mcp-source.js';
import { createService } from '../../server/service.js';
import { type EventSink, isNatsUrl, openNatsSink } from '../../server/nats-events.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CommandContext } from '../context.js';
import { VERSION } from '../version.js';
import { openCliCatalog, storeLocation } from './catalog-store.js';
import { generatedTokenPath, NO_AUTH_WARNING, readAuth, saveToken } from './serve-auth.js';
import { functionLibraries, resolveWorkspace, webSearchOf } from './spec-source.js';
import { type CodedError, codedError, failWith, ok, type Result } from '../../core/result.js';
import { reportError, reportWarning, usageError } from '../report.js';
import { type CliCode, CliCodes } from '../codes.js';
import { CatalogCodes } from '../../catalog/codes.js';

export interface ServeCommandOptions {
  readonly host?: string;
  readonly port?: string;
  readonly data?: string;
  readonly store?: string;
  readonly library?: ReadonlyArray<string>;
  readonly allowHost?: ReadonlyArray<string>;
  readonly secret?: ReadonlyArray<string>;
  readonly workspace?: string;
  readonly bootstrap?: string;
  readonly tokenFile?: string;
  /** false with --no-auth */
  readonly auth?: boolean;
  readonly allowCommandTools?: boolean;
  readonly requireScopes?: boolean;
  readonly yes?: boolean;
  readonly approvals?: string;
  readonly approvalTimeout?: string;
  readonly maxBody?: string;
  /** `nats://host:port`: the events published on that bus too. */
  readonly events?: string;
  /** A directory of `gramkit ab --out NAME.jsonl` files: their reports under /api/v1/experiments. */
  readonly experiments?: string;
}

const BOOTSTRAP_FILES = ['tools_bootstrap.json', join('config', 'tools_bootstrap.json')];
const MAINTENANCE_MS = 1000;
const REAP_MS = 60 * 60 * 1000;

/** The bootstrap document: `--bootstrap`, else a default file of the working directory, else none (`CLI_UNREADABLE`, `CLI_INVALID_JSON`). */
const bootstrapDocument = async (
  cwd: string,
  given: string | undefined,
): Promise<Result<{ readonly doc?: unknown; readonly from?: string }, CodedError<CliCode>>> => {
  const candidates = given !== undefined ? [isAbsolute(given) ? given : resolve(cwd, given)] : BOOTSTRAP_FILES.map((f) => join(cwd, f));
  for (const path of candidates) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      if (given !== undefined) return failWith(CliCodes.UNREADABLE, `cannot read the bootstrap file ${given}: ${(e as Error).message}`);
      continue;
    }
    try {
      return ok({ doc: JSON.parse(text) as unknown, from: path });
    } catch (e) {
      return failWith(CliCodes.INVALID_JSON, `the bootstrap file ${path} is not JSON: ${(e as Error).message}`);
    }
  }
  return ok({});
};

export const action = async (ctx: CommandContext, options: ServeCommandOptions): Promise<number> => {
  const { io } = ctx;
  const usage = (text: string): number => {
    usageError(io, text);
    return EXIT_USAGE;
  };
  const failed = (e: CodedError<CliCode>): number => {
    reportError(io, e);
    return EXIT_FAILURE;
  };
  const host = options.host ?? DEFAULT_HOST;
  const auth = await readAuth(options, io.env, io.cwd);
  // a command line or a token the server cannot start with: exit 2, as a usage error
  if (!auth.ok) {
    reportError(io, auth.error);
    return EXIT_USAGE;
  }
  if (!isLoopbackHost(host) && auth.value.kind === 'none') {
    return usage(`listening on ${host} exposes the tools to the network: --no-auth is for 127.0.0.1 only (leave it out: requests then need the token)`);
  }
  const tokens = auth.value.kind === 'none' ? [] : auth.value.tokens;
  const port = options.port === undefined ? DEFAULT_PORT : Number(options.port);
  if (options.port !== undefined && (!/^\d{1,5}$/.test(options.port) || port > 65535))
    return usage(`--port must be a port number (0 to 65535), got ${JSON.stringify(options.port)}`);
  const maxBody = options.maxBody === undefined ? undefined : Number(options.maxBody);
  if (maxBody !== undefined && (!Number.isInteger(maxBody) || maxBody < 1))
    return usage(`--max-body must be a positive number of bytes, got ${JSON.stringify(options.maxBody)}`);
  const approvalMode = options.approvals ?? (options.yes === true ? 'yes' : 'queue');
  if (approvalMode !== 'queue' && approvalMode !== 'deny' && approvalMode !== 'yes')
    return usage(`--approvals must be queue, deny or yes, got ${JSON.stringify(approvalMode)}`);
  if (options.yes === true && approvalMode !== 'yes') return usage(`--yes approves every call; it contradicts --approvals ${approvalMode}`);
  const timeoutSeconds = options.approvalTimeout === undefined ? undefined : Number(options.approvalTimeout);
  if (timeoutSeconds !== undefined && (!/^\d{1,6}$/.test(options.approvalTimeout as string) || timeoutSeconds < 1 || timeoutSeconds > 86400)) {
    return usage(`--approval-timeout must be a number of seconds from 1 to 86400, got ${JSON.stringify(options.approvalTimeout)}`);
  }
  if (timeoutSeconds !== undefined && approvalMode !== 'queue') return usage(`--approval-timeout applies to --approvals queue, not ${approvalMode}`);
  const approvals = approvalMode === 'queue' ? approvalQueue(timeoutSeconds !== undefined ? { timeoutMs: timeoutSeconds * 1000 } : {}) : undefined;
  const where = storeLocation(options, io);
  if (!where.ok) return usage(where.error.message);
  const webSearch = webSearchOf(io.env);
  if (!webSearch.ok) return usage(`web_search: ${webSearch.error.message}`);
  if (options.events !== undefined && !isNatsUrl(options.events))
    return usage(`--events takes a NATS address, nats://host:port, got ${JSON.stringify(options.events)}`);
  const experiments = options.experiments === undefined ? undefined : resolve(io.cwd, options.experiments);
  if (
    experiments !== undefined &&
    !(await stat(experiments).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  )
    return usage(`--experiments names a directory of results files, and ${options.experiments} is none`);
  const workspace = await resolveWorkspace(io, options.workspace);
  if (!workspace.ok) {
    reportError(io, workspace.error);
    return EXIT_FAILURE;
  }

  // libraries whose tools `function` tools may name
  const functions = await functionLibraries(ctx, options.library ?? [], workspace.value);
  if (!functions.ok) {
    reportError(io, functions.error);
    return EXIT_FAILURE;
  }
  const policies: Policies = commandPolicies(io.env);
  // calls that need approval: wait in the queue (each surface names its caller), all approved (--yes), or refused (no approver)
  const approver = chooseApprover({ yes: approvalMode === 'yes' }, approvals !== undefined ? { unattended: approvals.ask } : {}).approver;
  const opened = await openCliCatalog(where.value, io, {
    workspace: workspace.value,
    functions: functions.value,
    allowHosts: options.allowHost ?? [],
    policies,
    ...(approver !== undefined ? { approver } : {}),
    ...(options.secret !== undefined ? { secrets: options.secret } : {}),
  });
  if (!opened.ok) {
    reportError(io, opened.error);
    return EXIT_FAILURE;
  }
  const catalog = opened.value;

  // the events on a NATS bus too (before the bootstrap, so its registrations are published); the client is loaded only then
  let sink: EventSink | undefined;
  if (options.events !== undefined) {
    const connected = await openNatsSink(catalog, options.events);
    if (!connected.ok) {
      await catalog.close();
      return failed(codedError(CliCodes.EVENTS_UNAVAILABLE, connected.error, { retryable: true }));
    }
    sink = connected.value;
  }
  const closeAll = async (): Promise<void> => {
    await sink?.close();
    await catalog.close();
  };

  // `shell` (tool_exec) is registered only where its sandbox works
  const { probeSandbox, findBwrap } = await import('../../tools/builtin/sandbox.js');
  const bwrap = await findBwrap(undefined);
  const sandbox = bwrap === undefined ? false : (await probeSandbox(bwrap, false, workspace.value)).ok;
  const usable = (builtin: string): boolean => sandbox || (builtin !== 'shell' && builtin !== 'run_code');

  const booted = await bootstrapDocument(io.cwd, options.bootstrap);
  if (!booted.ok) {
    await closeAll();
    reportError(io, booted.error);
    return EXIT_FAILURE;
  }
  const boot = booted.value;
  const registered = await catalog.bootstrap(boot.doc ?? nucleusToolJson(usable));
  if (!registered.ok) {
    await closeAll();
    reportError(io, registered.error);
    return EXIT_FAILURE;
  }
  for (const s of registered.value.skipped) io.stderr(`gramkit serve: bootstrap: ${s.id} skipped: ${s.reason}\n`);
  // the store emptied under the server (Redis FLUSHALL): the catalog starts again from nothing, and
  // the server bootstraps again as it did at start (seed 002: "restart or call discover", without the restart)
  catalog.onWiped(async () => {
    io.stderr(`gramkit serve: the store ${catalog.store.location} was wiped: bootstrapping again\n`);
    const again = await catalog.bootstrap(boot.doc ?? nucleusToolJson(usable));
    if (!again.ok) reportWarning(io, { ...again.error, message: `bootstrap after the wipe: ${again.error.message}` });
  });
  for (const p of catalog.problems())
    reportWarning(io, {
      reason: CatalogCodes.INVALID_RECORD,
      message: `the stored record ${p.record} does not decode and is skipped: ${p.diagnostics.map((d) => d.message).join('; ')}`,
    });

  // the catalog's enabled tools over MCP (Streamable HTTP) at /mcp; list_changed follows the catalog
  const mcpMount = await catalogMcpMount(catalog, {
    local: isLoopbackHost(host),
    version: VERSION,
    lazy: true,
    ...(approvals !== undefined ? { approvals } : {}),
  });
  if (!mcpMount.ok) reportWarning(io, mcpMount.error);
  const mcp = mcpMount.ok ? mcpMount.value : undefined;
  const service = createService({
    catalog,
    mounts: [...(mcp !== undefined ? [mcp.mount] : []), adminPage()],
    ...(tokens.length > 0 ? { tokens } : {}),
    ...(options.requireScopes === true ? { requireScopes: true } : {}),
    ...(options.allowCommandTools === true ? { allowCommandTools: true } : {}),
    hostHeaders: isLoopbackHost(host) ? 'loopback' : 'any',
    ...(maxBody !== undefined ? { maxBodyBytes: maxBody } : {}),
    version: VERSION,
    discoverUsable: usable,
    ...(approvals !== undefined ? { approvals } : {}),
    ...(experiments !== undefined ? { experiments } : {}),
  });
  let server;
  try {
    server = await startServer(service, { host, port });
  } catch (e) {
    approvals?.close();
    await mcp?.close();
    await closeAll();
    return failed(codedError(CliCodes.LISTEN_FAILED, `cannot listen on ${host}:${port}: ${(e as Error).message}`, { retryable: true }));
  }
  // a generated token: saved for the owner's scripts, printed once (with the line that says where the server listens)
  let tokenFile: string | undefined;
  let authLine: string;
  if (auth.value.kind === 'generated') {
    tokenFile = generatedTokenPath(io.cwd, server.port);
    try {
      await saveToken(tokenFile, auth.value.tokens[0]?.token as string);
    } catch (e) {
      await server.close();
      await mcp?.close();
      await closeAll();
      return failed(codedError(CliCodes.UNWRITABLE, `cannot save the token in ${tokenFile}: ${(e as Error).message}`));
    }
    authLine = `gramkit serve: token: ${auth.value.tokens[0]?.token as string} (saved in ${tokenFile}, readable by you only; requests send Authorization: Bearer <token>)\n`;
  } else if (auth.value.kind === 'given') {
    authLine = `gramkit serve: ${auth.value.tokens.length} token${auth.value.tokens.length === 1 ? '' : 's'} from ${auth.value.from} (${auth.value.tokens.map((t) => `${t.name}: ${t.scopes.join(' ')}`).join('; ')})\n`;
  } else {
    authLine = '';
    reportWarning(io, { reason: CliCodes.NO_AUTH, message: NO_AUTH_WARNING });
  }
  if (options.allowCommandTools === true)
    io.stderr('gramkit serve: --allow-command-tools: callers with write_registry may register command tools; they run in the sandbox or not at all\n');
  // the search index a load left to fill is filled now, between requests (a search before it is done fills the rest first)
  catalog.indexInBackground();
  const timers = maintenance(catalog);
  io.stdout(
    `gramkit serve: listening on ${server.url} (admin page ${server.url}/ui${mcp !== undefined ? `, MCP ${server.url}/mcp` : ''}; catalog: ${catalog.store.kind === 'files' ? 'files at ' : ''}${catalog.store.location}; bootstrap: ${boot.from ?? 'default nucleus'}, ${registered.value.discovered.length} registered; approvals: ${approvalMode === 'queue' ? `queued for ${(approvals?.timeoutMs ?? 0) / 1000} s at ${server.url}/api/v1/approvals` : approvalMode === 'yes' ? 'every call approved (--yes)' : 'refused'})\n${authLine}`,
  );
  if (sink !== undefined) io.stdout(`gramkit serve: events: ${sink.url} (agi.tool.discovered|created|invoked|result|failed)\n`);
  const signal = await (io.untilStopped?.() ?? new Promise<string>(() => undefined));
  io.stderr(`gramkit serve: ${signal}: stopping\n`);
  for (const t of timers) clearInterval(t);
  // calls still waiting for a person are refused (their clients get an answer before the sockets close)
  approvals?.close();
  await mcp?.close();
  await server.close();
  await closeAll();
  if (tokenFile !== undefined) await unlink(tokenFile).catch(() => undefined);
  return EXIT_OK;
};

/** Follows other processes' writes (so events reach subscribers) and reaps old soft-deleted bundles. */
const maintenance = (catalog: Catalog): ReadonlyArray<ReturnType<typeof setInterval>> => {
  void catalog.reap();
  const sync = setInterval(() => void catalog.sync(), MAINTENANCE_MS);
  const reap = setInterval(() => void catalog.reap(), REAP_MS);
  sync.unref?.();
  reap.unref?.();
  return [sync, reap];
};
