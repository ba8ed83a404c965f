/**
 * Opening a catalog from the command line: `--data DIR` (flat files, the default
 * `.gramkit/catalog` of the working directory), `--store redis://host:port`, or for `run` and
 * `ab` one `--catalog DIR|redis://…`. The CLI supplies what only it may read: the working
 * directory, the environment (secrets named with `--secret`, `PATH` and the locale for command
 * tools).
 */
import { isAbsolute, resolve } from 'node:path';
import { type Catalog, type CatalogOptions, openCatalog } from '../../catalog/catalog.js';
import type { CatalogBackend } from '../../catalog/stores/backend.js';
import { openFileStore } from '../../catalog/stores/file-store.js';
import { type CodedError, err, failWith, ok, type Result } from '../../core/result.js';
import type { Reportable } from '../../core/format-error.js';
import { CatalogCodes } from '../../catalog/codes.js';
import type { CliIO } from '../io.js';
import { type CliCode, CliCodes } from '../codes.js';
import { webSearchOf } from './spec-source.js';

export const DEFAULT_DATA_DIR = '.gramkit/catalog';

/** Environment variables command tools may be given (each tool lists the ones it passes). */
const COMMAND_ENV = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'HOME', 'TMPDIR'];

export const isRedisUrl = (s: string): boolean => /^rediss?:\/\//i.test(s);

export interface StoreChoice {
  readonly data?: string;
  readonly store?: string;
}

/** `--data` and `--store` as one location; `CLI_USAGE` when both are given or `--store` is not a Redis URL. */
export const storeLocation = (choice: StoreChoice, io: CliIO): Result<string, CodedError<CliCode>> => {
  if (choice.data !== undefined && choice.store !== undefined) return failWith(CliCodes.USAGE, '--data and --store cannot be used together');
  if (choice.store !== undefined)
    return isRedisUrl(choice.store)
      ? ok(choice.store)
      : failWith(CliCodes.USAGE, `--store takes a Redis URL (redis://host:port), got ${JSON.stringify(choice.store)}; a directory is --data DIR`);
  const dir = choice.data ?? DEFAULT_DATA_DIR;
  return ok(isAbsolute(dir) ? dir : resolve(io.cwd, dir));
};

/** The Redis client (about 500 files) is loaded only when a Redis URL is given: a command on files never pays for it. */
const openBackend = async (location: string, io: CliIO): Promise<CatalogBackend> => {
  if (!isRedisUrl(location)) return openFileStore(isAbsolute(location) ? location : resolve(io.cwd, location));
  const { openRedisStore } = await import('../../catalog/stores/redis-store.js');
  return openRedisStore(location);
};

/** `--secret` values: `NAME` (the operator's own tools only) or `NAME@host[,host]` (sent to those hosts only). */
export type CliCatalogOptions = Omit<CatalogOptions, 'store' | 'env' | 'secrets' | 'secretHosts'> & { readonly secrets?: ReadonlyArray<string> };

/** `NAME@host,host` as the name and its hosts; a bare `NAME` as bound to none. */
const secretBinding = (text: string): { readonly name: string; readonly hosts?: ReadonlyArray<string> } => {
  const at = text.indexOf('@');
  if (at < 0) return { name: text };
  return {
    name: text.slice(0, at),
    hosts: text
      .slice(at + 1)
      .split(',')
      .map((h) => h.trim())
      .filter((h) => h !== ''),
  };
};

/** Opens the catalog at `location` (a directory or a Redis URL), or says why it cannot (an error the CLI's renderer prints). */
export const openCliCatalog = async (location: string, io: CliIO, options: CliCatalogOptions): Promise<Result<Catalog, Reportable>> => {
  let store: CatalogBackend;
  try {
    store = await openBackend(location, io);
  } catch (e) {
    return err({ reason: CatalogCodes.STORE_UNAVAILABLE, message: e instanceof Error ? e.message : String(e) });
  }
  const webSearch = webSearchOf(io.env);
  if (!webSearch.ok) {
    await store.close().catch(() => undefined);
    return err({ reason: webSearch.error.reason, message: `web_search: ${webSearch.error.message}` });
  }
  const bindings = (options.secrets ?? []).map(secretBinding);
  const secretNames = new Set(bindings.map((b) => b.name));
  const secretHosts = new Map(bindings.filter((b) => b.hosts !== undefined).map((b) => [b.name, b.hosts as ReadonlyArray<string>]));
  const { secrets: _names, ...rest } = options;
  const opened = await openCatalog({
    ...rest,
    store,
    env: Object.fromEntries(COMMAND_ENV.filter((k) => io.env[k] !== undefined).map((k) => [k, io.env[k]])),
    secrets: (name) => (secretNames.has(name) ? io.env[name] : undefined),
    secretHosts: (name) => secretHosts.get(name),
    ...(webSearch.value !== undefined ? { webSearch: webSearch.value } : {}),
  });
  if (!opened.ok) {
    await store.close().catch(() => undefined);
    return err(opened.error);
  }
  return ok(opened.value);
};
