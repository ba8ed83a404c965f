/**
 * `GET /api/v1/events`: the catalog's events as server-sent events (`event: <type>`, `id`, `data:
 * <json>`): `invoked`, `result`, `failed`, `discovered`, `created`, and `changed` for
 * every record change; and, when the service queues approvals, `approval_requested` and
 * `approval_decided` (without the arguments: `GET /api/v1/approvals` shows them to approvers).
 * `?types=` keeps some types only. A comment line every 15 s keeps proxies
 * from closing the stream; it ends when the client goes away.
 *
 * Each subscriber has a bounded buffer: what its connection has not taken yet. A subscriber that
 * falls behind by more than that (a client that stopped reading) is dropped: it gets a last event,
 * `dropped`, and the stream ends, so one stalled client cannot grow the server's memory.
 */
import { CATALOG_EVENT_TYPES, type CatalogEvent } from '../catalog/events.js';
import { APPROVAL_EVENT_TYPES, type ApprovalEvent } from '../policy/approval-queue.js';
import { Scopes } from './codes.js';
import { refTo } from './schemas.js';
import type { RouteSpec } from './route.js';

const HEARTBEAT_MS = 15_000;
const EVENT_TYPES: ReadonlyArray<string> = [...CATALOG_EVENT_TYPES, ...APPROVAL_EVENT_TYPES];

/** The most bytes a subscriber may have waiting (default 4 MiB). */
export const DEFAULT_EVENT_BUFFER_BYTES = 4 * 1024 * 1024;

export const eventsRoute = (options: { readonly bufferBytes?: number } = {}): RouteSpec => ({
  method: 'get',
  path: '/api/v1/events',
  operationId: 'events',
  summary: "The catalog's events as server-sent events",
  tag: 'events',
  scope: Scopes.READ,
  query: { types: { kind: 'list', enum: EVENT_TYPES, description: 'only these types (comma-separated or repeated)' } },
  responses: { 200: { description: 'text/event-stream', schema: 'sse' }, 400: { description: 'problem details', schema: refTo('Problem') } },
  handler: async (c) => {
    const wanted = c.query['types'] as ReadonlyArray<string> | undefined;
    const types = wanted !== undefined && wanted.length > 0 ? new Set(wanted) : undefined;
    const encoder = new TextEncoder();
    let stop: (() => void) | undefined;
    const limit = options.bufferBytes ?? DEFAULT_EVENT_BUFFER_BYTES;
    const stream = new ReadableStream<Uint8Array>(
      {
        start(controller) {
          const send = (text: string): void => {
            try {
              controller.enqueue(encoder.encode(text));
            } catch {
              stop?.();
            }
          };
          const forward = (e: CatalogEvent | ApprovalEvent): void => {
            if (stop === undefined || (types !== undefined && !types.has(e.type))) return;
            if ((controller.desiredSize ?? 0) <= 0) {
              // the client has not taken the last `limit` bytes: drop it, with a last event saying why
              send(
                `event: dropped\ndata: ${JSON.stringify({ type: 'dropped', reason: `this subscriber fell more than ${limit} bytes behind; subscribe again (events in between are lost)`, limit })}\n\n`,
              );
              stop();
              return;
            }
            send(`event: ${e.type}\nid: ${e.id}\ndata: ${JSON.stringify(e)}\n\n`);
          };
          const unsubscribeCatalog = c.catalog.subscribe(forward);
          const unsubscribeApprovals = c.approvals?.subscribe(forward);
          const unsubscribe = (): void => {
            unsubscribeCatalog();
            unsubscribeApprovals?.();
          };
          const timer = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS);
          timer.unref?.();
          stop = () => {
            stop = undefined;
            unsubscribe();
            clearInterval(timer);
            try {
              controller.close();
            } catch {
              // already closed
            }
          };
          c.signal.addEventListener('abort', () => stop?.(), { once: true });
          send(': connected\n\n');
        },
        cancel() {
          stop?.();
        },
      },
      { highWaterMark: limit, size: (chunk) => chunk.byteLength },
    );
    return {
      kind: 'response',
      response: new Response(stream, {
        status: 200,
        headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' },
      }),
    };
  },
});
