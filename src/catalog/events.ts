/**
 * The catalog's events: `invoked`, `result` and `failed` for each invocation, `discovered` and
 * `created` for each tool registered, and `changed`, sent for every record that is
 * created, changed, enabled, disabled or deleted (here or, seen when syncing, by another process),
 * which an MCP server turns into `notifications/tools/list_changed`.
 *
 * Events are plain JSON data. Listeners are called synchronously and cannot break the catalog:
 * what one throws is dropped.
 */
import type { ToolError } from '../library/result.js';

interface Base {
  /** A UUIDv7. */
  readonly id: string;
  /** ISO 8601. */
  readonly at: string;
}

interface CallBase extends Base {
  readonly callId: string;
  readonly toolID: string;
  /** The tool's registry id, else its toolID (the `tool` of a usage entry). */
  readonly tool: string;
  readonly agentId?: string;
  readonly projectId?: string;
}

export interface InvokedCatalogEvent extends CallBase {
  readonly type: 'invoked';
  readonly args: unknown;
}

export interface ResultCatalogEvent extends CallBase {
  readonly type: 'result';
  readonly value: unknown;
  readonly durationMs: number;
}

export interface FailedCatalogEvent extends CallBase {
  readonly type: 'failed';
  readonly error: ToolError;
  readonly durationMs: number;
}

/** A tool registered through discovery or the bootstrap. */
export interface DiscoveredCatalogEvent extends Base {
  readonly type: 'discovered';
  readonly toolID: string;
  readonly tool: string;
}

/** A tool created by a write. */
export interface CreatedCatalogEvent extends Base {
  readonly type: 'created';
  readonly toolID: string;
  readonly tool: string;
  readonly createdBy: 'system' | 'agent';
}

export type ChangeAction = 'created' | 'updated' | 'enabled' | 'disabled' | 'deleted';

/** A record changed (in this process or another). */
export interface ChangedCatalogEvent extends Base {
  readonly type: 'changed';
  readonly kind: 'bundle' | 'tool';
  readonly action: ChangeAction;
  /** The bundle's or the tool's id. */
  readonly recordID: string;
  /** For tools: the bundle they belong to. */
  readonly bundleID?: string;
  /** Whether the change came from another process (seen when syncing). */
  readonly remote: boolean;
}

export type CatalogEvent = InvokedCatalogEvent | ResultCatalogEvent | FailedCatalogEvent | DiscoveredCatalogEvent | CreatedCatalogEvent | ChangedCatalogEvent;

export type CatalogEventType = CatalogEvent['type'];

export const CATALOG_EVENT_TYPES: ReadonlyArray<CatalogEventType> = ['invoked', 'result', 'failed', 'discovered', 'created', 'changed'];

export type CatalogListener = (event: CatalogEvent) => void;

/** A set of listeners. */
export interface EventBus {
  readonly emit: (event: CatalogEvent) => void;
  /** Adds a listener; the function returned removes it. */
  readonly subscribe: (listener: CatalogListener) => () => void;
  readonly listenerCount: () => number;
}

export const eventBus = (): EventBus => {
  const listeners = new Set<CatalogListener>();
  return {
    emit: (event) => {
      for (const l of [...listeners]) {
        try {
          l(event);
        } catch {
          // a listener cannot break the catalog
        }
      }
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    listenerCount: () => listeners.size,
  };
};
