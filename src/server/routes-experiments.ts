/**
 * The experiment routes (`gramkit serve --experiments DIR`): the results files `gramkit ab --out
 * NAME.jsonl` wrote in DIR, listed (`GET /api/v1/experiments`), each one's JSON report
 * (`GET /api/v1/experiments/{name}`, what `gramkit ab --json` prints) and its page
 * (`GET /api/v1/experiments/{name}/report.html`, the self-contained page `--report` writes, served
 * with its Content-Security-Policy as a header too). Each needs `read_registry`, with the token, as
 * every other route that reads.
 *
 * Names are confined to DIR: a name is the stem of a regular file of DIR itself (`NAME.jsonl`),
 * looked up among DIR's entries, never joined into a path; a symbolic link is no entry, and the
 * file is opened without following one (a link swapped in after the listing is refused too).
 * A file is read up to its last newline (a run being written is left out), so an experiment still
 * running reads consistently: its runs so far in the list, and a 409 for its report until the last
 * line, the report, is there.
 */
import { constants, type Dirent } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type ResultsContent, readResults } from '../agent/experiment-file.js';
import { decodePageToken, encodePageToken, queryFingerprint } from '../catalog/page-token.js';
import { isLeft } from '../core/either.js';
import { experimentHtml } from '../agent/experiment-html.js';
import type { ExperimentReport } from '../agent/experiment.js';
import type { JsonObject } from '../core/json-schema.js';
import { Scopes, ServiceCodes } from './codes.js';
import { problem } from './problem.js';
import { json, type QueryParameter, type Reply, type RouteSpec } from './route.js';
import { refTo } from './schemas.js';

const problemRef = { description: 'problem details (application/problem+json)', schema: refTo('Problem') };
const NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$';
const NAME = new RegExp(NAME_PATTERN);
const SUFFIX = '.jsonl';
const ExperimentEntrySchema: JsonObject = {
  type: 'object',
  description: 'an experiment of the --experiments directory (a gramkit ab --out results file)',
  properties: {
    name: { type: 'string', description: "the file's name without .jsonl" },
    agent: { type: 'string' },
    variants: { type: 'array', items: { type: 'string' }, description: 'the first is the baseline' },
    runs: { type: 'integer', description: 'runs in the file' },
    total: { type: 'integer', description: 'runs the experiment makes: inputs × runs per input × variants' },
    finished: { type: 'boolean', description: 'whether the file ends with the report (every run is in)' },
    startedAt: { type: 'string', description: 'when the experiment started (a finished one)' },
    modifiedAt: { type: 'string', format: 'date-time' },
  },
  required: ['name', 'agent', 'variants', 'runs', 'total', 'finished', 'modifiedAt'],
};
const ExperimentListSchema: JsonObject = {
  type: 'object',
  properties: {
    experiments: { type: 'array', items: ExperimentEntrySchema, description: 'the most recently written first (then by name)' },
    enabled: { type: 'boolean', description: 'whether this server shows experiments (gramkit serve --experiments DIR)' },
    nextPageToken: { type: 'string', description: 'more experiments: pass it as pageToken (absent on the last page)' },
  },
  required: ['experiments', 'enabled'],
};
const ExperimentReportSchema: JsonObject = {
  type: 'object',
  description: 'the JSON report gramkit ab --json prints (docs/agent.md), with every run in results',
  properties: {
    agent: { type: 'string' },
    model: { type: 'string' },
    variants: { type: 'array', items: { type: 'string' } },
    inputs: { type: 'integer' },
    runsPerInput: { type: 'integer' },
    startedAt: { type: 'string' },
    durationMs: { type: 'number' },
    summaries: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, runs: { type: 'integer' }, successRate: { type: 'number' } },
        required: ['name', 'runs', 'successRate'],
      },
    },
    differences: { type: 'array', items: { type: 'object' } },
    results: {
      type: 'array',
      items: {
        type: 'object',
        properties: { variant: { type: 'string' }, input: { type: 'integer' }, repetition: { type: 'integer' } },
        required: ['variant', 'input', 'repetition'],
      },
    },
  },
  required: ['agent', 'model', 'variants', 'inputs', 'runsPerInput', 'summaries', 'differences', 'results'],
};

const nameParam = {
  name: { description: "the experiment: its results file's name in the directory, without .jsonl", schema: { type: 'string', pattern: NAME_PATTERN } },
};

/** The page's policy, as its own `<meta>` says it: no script, no request, inline style only; and no framing. */
export const REPORT_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

// -------------------------------------------------------------------------------------------------
// the directory
// -------------------------------------------------------------------------------------------------

interface Read {
  readonly content: ResultsContent;
  readonly modifiedAt: string;
  /** The file's inode, size and modification time when it was read (`versionOf`). */
  readonly version: string;
}

/** The experiments' names: the regular files `NAME.jsonl` of `dir` itself (links and folders are none). */
const names = async (dir: string): Promise<ReadonlyArray<string>> => {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const stem = (file: string): string => file.slice(0, -SUFFIX.length);
  return entries.flatMap((e) => (e.isFile() && e.name.endsWith(SUFFIX) && NAME.test(stem(e.name)) ? [stem(e.name)] : []));
};

/** The file of `name`, read (up to its size when opened), when `name` is one of the directory's experiments. */
const readExperiment = async (dir: string, name: string): Promise<Read | undefined> => {
  if (!NAME.test(name) || !(await names(dir)).includes(name)) return undefined;
  let handle;
  try {
    // O_NOFOLLOW: a link put in the file's place since the listing is not followed
    handle = await open(join(dir, `${name}${SUFFIX}`), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return undefined;
    const buffer = Buffer.alloc(stat.size);
    const { bytesRead } = await handle.read(buffer, 0, stat.size, 0);
    return { content: readResults(buffer.toString('utf8', 0, bytesRead)), modifiedAt: stat.mtime.toISOString(), version: versionOf(stat) };
  } finally {
    await handle.close();
  }
};

const notFound = (name: string): Reply => {
  const shown = name.slice(0, 140);
  const message = `no experiment ${JSON.stringify(shown)} in this server's experiments directory: list them with GET /api/v1/experiments`;
  return { kind: 'problem', problem: problem(ServiceCodes.EXPERIMENT_NOT_FOUND, message, { name: shown }) };
};

const totalOf = (c: ResultsContent): number => {
  const h = c.header;
  return h === undefined ? 0 : h.inputs.length * h.runsPerInput * h.variants.length;
};

/** The finished experiment's report with its runs, or the reply that says why there is none. */
const reportOf = async (dir: string | undefined, name: string): Promise<{ readonly report: ExperimentReport } | { readonly reply: Reply }> => {
  const read = dir === undefined ? undefined : await readExperiment(dir, name);
  if (read === undefined || read.content.header === undefined) return { reply: notFound(name) };
  const { report, runs } = read.content;
  if (report === undefined) {
    const total = totalOf(read.content);
    const message = `the experiment ${name} has ${runs.length} of its ${total} runs and no report yet: it is still running, or it stopped (gramkit ab … --out ${name}${SUFFIX} --resume finishes it)`;
    return { reply: { kind: 'problem', problem: problem(ServiceCodes.EXPERIMENT_UNFINISHED, message, { name, runs: runs.length, total }) } };
  }
  return { report: { ...report, results: runs } };
};

// -------------------------------------------------------------------------------------------------
// the routes
// -------------------------------------------------------------------------------------------------

/** An experiment as the list shows it. */
interface ListEntry {
  readonly name: string;
  readonly agent: string;
  readonly variants: ReadonlyArray<string>;
  readonly runs: number;
  readonly total: number;
  readonly finished: boolean;
  readonly startedAt?: string;
  readonly modifiedAt: string;
}

/** The list's entry of a file read (none for a file that is not a results file). */
const entryOf = (name: string, read: Read): ListEntry | undefined => {
  const h = read.content.header;
  if (h === undefined) return undefined;
  const { report, runs } = read.content;
  return {
    name,
    agent: h.agent,
    variants: h.variants,
    runs: runs.length,
    total: totalOf(read.content),
    finished: report !== undefined,
    ...(report !== undefined ? { startedAt: report.startedAt } : {}),
    modifiedAt: read.modifiedAt,
  };
};

/** A file's identity and version: another inode, size or modification time is another content. */
const versionOf = (s: { readonly ino: number; readonly size: number; readonly mtimeMs: number }): string => `${s.ino}/${s.size}/${s.mtimeMs}`;

/**
 * The list's entries of a directory, each file read and parsed only when its stat (inode, size,
 * modification time) changed since the last request: a list request costs a `readdir` and an
 * `lstat` a file, not a read of every run. The cache holds one small entry per file of the
 * directory (entries of files gone are dropped).
 */
const listing = (dir: string): (() => Promise<ReadonlyArray<ListEntry>>) => {
  const cache = new Map<string, { readonly version: string; readonly entry: ListEntry | undefined }>();
  return async () => {
    const all = await names(dir);
    const listed = await Promise.all(
      all.map(async (name): Promise<ListEntry | undefined> => {
        let version: string;
        try {
          // lstat: a link put in the file's place is no regular file (and is read, refused, below)
          const s = await lstat(join(dir, `${name}${SUFFIX}`));
          if (!s.isFile()) return undefined;
          version = versionOf(s);
        } catch {
          return undefined;
        }
        const known = cache.get(name);
        if (known !== undefined && known.version === version) return known.entry;
        const read = await readExperiment(dir, name);
        const entry = read === undefined ? undefined : entryOf(name, read);
        // what was read is cached under the version it was read at (a write since is seen next time)
        if (read !== undefined) cache.set(name, { version: read.version, entry });
        return entry;
      }),
    );
    const present = new Set(all);
    for (const name of cache.keys()) if (!present.has(name)) cache.delete(name);
    return listed.filter((e): e is ListEntry => e !== undefined).sort((a, b) => b.modifiedAt.localeCompare(a.modifiedAt) || a.name.localeCompare(b.name));
  };
};

const PAGE_DEFAULT = 50;
const PAGE_MAX = 1000;
const listQuery: Readonly<Record<string, QueryParameter>> = {
  pageSize: { kind: 'integer', minimum: 1, maximum: PAGE_MAX, description: `experiments per page (default ${PAGE_DEFAULT}, at most ${PAGE_MAX})` },
  pageToken: { kind: 'string', maxLength: 1024, description: "from the previous page's nextPageToken" },
};
/** The list's page tokens belong to it alone (one kind of listing, no filters). */
const LIST_FINGERPRINT = queryFingerprint({ l: 'experiments' });

/** The key a page ends at: the list's order is by modification time (newest first), then name. */
const keyOf = (e: ListEntry): string => JSON.stringify([e.modifiedAt, e.name]);
const isAfter = (e: ListEntry, key: readonly [string, string]): boolean => e.modifiedAt < key[0] || (e.modifiedAt === key[0] && e.name > key[1]);

/**
 * One page of the list, after the token's key. A keyset, not an offset: an experiment written to
 * while a client pages moves to the front (the next listing shows it first) and is never shown twice.
 */
const pageOf = (entries: ReadonlyArray<ListEntry>, pageSize: number | undefined, pageToken: string | undefined): Reply => {
  let rest = entries;
  if (pageToken !== undefined) {
    const p = decodePageToken(pageToken, LIST_FINGERPRINT, 'id');
    const key = isLeft(p) || p.right.kind !== 'id' ? undefined : parsedKey(p.right.after);
    if (key === undefined) {
      const reason = isLeft(p) ? p.left.message : 'the page token is not one this server issued';
      const message = `the query does not fit: pageToken: ${reason}; start again without pageToken (this route's query parameters: pageSize, pageToken)`;
      return { kind: 'problem', problem: problem(ServiceCodes.INVALID_REQUEST, message, { invalidParams: [{ name: 'pageToken', reason }] }) };
    }
    rest = entries.filter((e) => isAfter(e, key));
  }
  const size = pageSize ?? PAGE_DEFAULT;
  const experiments = rest.slice(0, size);
  const last = experiments[experiments.length - 1];
  const more = rest.length > size && last !== undefined;
  return json(200, { experiments, enabled: true, ...(more ? { nextPageToken: encodePageToken({ kind: 'id', after: keyOf(last) }, LIST_FINGERPRINT) } : {}) });
};

const parsedKey = (text: string): readonly [string, string] | undefined => {
  try {
    const k = JSON.parse(text) as unknown;
    return Array.isArray(k) && k.length === 2 && typeof k[0] === 'string' && typeof k[1] === 'string' ? [k[0], k[1]] : undefined;
  } catch {
    return undefined;
  }
};

/** The routes; without a directory, the list is empty (`enabled: false`) and no name is found. */
export const experimentRoutes = (dir: string | undefined): ReadonlyArray<RouteSpec> => {
  const list = dir === undefined ? undefined : listing(dir);
  return [
    {
      method: 'get',
      path: '/api/v1/experiments',
      operationId: 'experimentsList',
      summary: 'The experiments of the --experiments directory, a page at a time: name, agent, variants, runs so far and in all, finished or not, when',
      tag: 'experiments',
      scope: Scopes.READ,
      query: listQuery,
      responses: { 200: { description: '{experiments: [...], enabled, nextPageToken?}', schema: ExperimentListSchema }, 400: problemRef },
      handler: async (c) => {
        if (list === undefined) return json(200, { experiments: [], enabled: false });
        return pageOf(await list(), c.query['pageSize'] as number | undefined, c.query['pageToken'] as string | undefined);
      },
    },
    {
      method: 'get',
      path: '/api/v1/experiments/:name',
      operationId: 'experimentsGet',
      summary: "A finished experiment's JSON report (what gramkit ab --json prints), its runs in results",
      tag: 'experiments',
      scope: Scopes.READ,
      params: nameParam,
      responses: { 200: { description: 'the report', schema: ExperimentReportSchema }, 404: problemRef, 409: problemRef },
      handler: async (c) => {
        const r = await reportOf(dir, c.params['name'] as string);
        return 'reply' in r ? r.reply : json(200, r.report);
      },
    },
    {
      method: 'get',
      path: '/api/v1/experiments/:name/report.html',
      operationId: 'experimentsPage',
      summary: "A finished experiment's report as the self-contained page gramkit ab --report writes (no script, no request to any host)",
      tag: 'experiments',
      scope: Scopes.READ,
      params: nameParam,
      responses: { 200: { description: 'the page', schema: 'html' }, 404: problemRef, 409: problemRef },
      handler: async (c) => {
        const r = await reportOf(dir, c.params['name'] as string);
        if ('reply' in r) return r.reply;
        return { kind: 'response', response: new Response(experimentHtml(r.report, r.report.results), { status: 200, headers: REPORT_PAGE_HEADERS }) };
      },
    },
  ];
};
