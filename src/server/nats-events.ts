/**
 * The catalog's events on a NATS bus (`gramkit serve --events nats://host:port`), under seed 002's
 * subjects: `agi.tool.discovered` (registered by discovery or the bootstrap), `agi.tool.created`
 * (registered by a write), `agi.tool.invoked` (a call starts), `agi.tool.result` (it returned) and
 * `agi.tool.failed` (it failed). Server-sent events (`GET /api/v1/events`) are kept beside.
 *
 * Payloads are JSON in the seed's words: a registration carries the registry's `Tool` JSON (`id`,
 * `name`, `input_schema`, `created_by`, …, as `GET /api/v1/tools/{id}` shows it); a call carries
 * `{ts, type, tool, tool_id, call_id, agent_id?, project_id?}` (a usage history entry's fields)
 * with `args`, `result` and `duration_ms`, or `error`. Each has `event_id`, the id SSE gives the
 * same event. Each server publishes what happens in it: events relayed from the other servers on
 * one Redis are not published again.
 *
 * The NATS client (`nats` on npm) is loaded only when a sink is opened. It reconnects by itself and
 * buffers while the bus is away; publishing never blocks nor breaks a call.
 */
import type { Catalog } from '../catalog/catalog-types.js';
import type { CatalogEvent } from '../catalog/events.js';
import type { JsonObject } from '../core/json-schema.js';
import { isRecord } from '../core/json.js';
import { err, ok, type Result } from '../core/result.js';

/** Seed 002's subject of each event type published (`changed` is not: it has none). */
export const NATS_SUBJECTS = {
  discovered: 'agi.tool.discovered',
  created: 'agi.tool.created',
  invoked: 'agi.tool.invoked',
  result: 'agi.tool.result',
  failed: 'agi.tool.failed',
} as const;

export interface BusMessage {
  readonly subject: string;
  readonly payload: JsonObject;
}

/** An event relayed from another process on the same store (it carries that process's `origin`). */
const relayed = (e: CatalogEvent): boolean => isRecord(e) && 'origin' in e;

/**
 * The message of an event, or none (a `changed` event, or one relayed from another server). A
 * registration needs its tool's Tool JSON (`toolJson`); without it the message says the ids only.
 */
export const busMessageOf = (e: CatalogEvent, toolJson?: JsonObject): BusMessage | undefined => {
  if (e.type === 'changed' || relayed(e)) return undefined;
  if (e.type === 'discovered' || e.type === 'created') {
    const tool: JsonObject = toolJson ?? { id: e.tool, tool_id: e.toolID, ...(e.type === 'created' ? { created_by: e.createdBy } : {}) };
    return { subject: NATS_SUBJECTS[e.type], payload: { ...tool, event_id: e.id, ts: e.at } };
  }
  const call: JsonObject = {
    event_id: e.id,
    ts: e.at,
    type: e.type,
    tool: e.tool,
    tool_id: e.toolID,
    call_id: e.callId,
    ...(e.agentId !== undefined ? { agent_id: e.agentId } : {}),
    ...(e.projectId !== undefined ? { project_id: e.projectId } : {}),
  };
  switch (e.type) {
    case 'invoked':
      return { subject: NATS_SUBJECTS.invoked, payload: { ...call, args: (e.args ?? null) as JsonObject } };
    case 'result':
      return { subject: NATS_SUBJECTS.result, payload: { ...call, result: (e.value ?? null) as JsonObject, duration_ms: e.durationMs } };
    case 'failed':
      return { subject: NATS_SUBJECTS.failed, payload: { ...call, error: e.error as unknown as JsonObject, duration_ms: e.durationMs } };
  }
};

/** Whether a `--events` value is a NATS address (`nats://host:port`). */
export const isNatsUrl = (s: string): boolean => /^nats:\/\/[^/\s]+\/?$/i.test(s);

export interface EventSink {
  /** Where it publishes. */
  readonly url: string;
  /** Stops listening, sends what is buffered, and disconnects. */
  readonly close: () => Promise<void>;
}

/**
 * Connects to the NATS server at `url` and publishes the catalog's events there until closed; an
 * error (the server cannot be reached within `timeoutMs`) says why.
 */
export const openNatsSink = async (
  catalog: Pick<Catalog, 'subscribe' | 'registryTool'>,
  url: string,
  options: { readonly timeoutMs?: number } = {},
): Promise<Result<EventSink, string>> => {
  if (!isNatsUrl(url)) return err(`--events takes a NATS address nats://host:port, got ${JSON.stringify(url)}`);
  const nats = await import('nats');
  let connection: Awaited<ReturnType<typeof nats.connect>>;
  try {
    connection = await nats.connect({
      servers: url,
      name: 'gramkit serve',
      timeout: options.timeoutMs ?? 5000,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
    });
  } catch (e) {
    return err(`cannot connect to NATS at ${url}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const encoder = new TextEncoder();
  // one chain, so messages leave in the order of their events (a registration looks its tool up first)
  let chain: Promise<void> = Promise.resolve();
  const send = (m: BusMessage | undefined): void => {
    if (m === undefined || connection.isClosed()) return;
    try {
      connection.publish(m.subject, encoder.encode(JSON.stringify(m.payload)));
    } catch {
      // the connection is closing: the event is lost to the bus (SSE still had it)
    }
  };
  const unsubscribe = catalog.subscribe((e) => {
    if (busMessageOf(e) === undefined) return;
    chain = chain
      .then(async () => {
        if (e.type !== 'discovered' && e.type !== 'created') return send(busMessageOf(e));
        const tool = await catalog.registryTool(e.toolID);
        send(busMessageOf(e, tool.ok ? tool.value : undefined));
      })
      .catch(() => undefined);
  });
  return ok({
    url,
    close: async () => {
      unsubscribe();
      await chain;
      await connection.drain().catch(() => connection.close());
    },
  });
};
