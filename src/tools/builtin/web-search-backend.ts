/**
 * Web search backends for `web_search`: a small interface; backends for SearXNG's JSON API (the
 * self-hostable metasearch engine; any server answering the same JSON works), Brave's Web Search
 * API and Tavily's search API, each reached through `safeFetch` with a host allowlist (the API's
 * host only); and an in-memory backend over a fixed set of documents (for offline runs, examples
 * and tests). web-search-env.ts picks one from the environment.
 */
import { ToolCodes } from '../../library/codes.js';
import { ToolFailure } from '../../library/result.js';
import { safeFetch } from '../../net/safe-fetch.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface WebSearchResult {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

export interface WebSearchRequest {
  readonly numResults: number;
  readonly signal: AbortSignal;
}

/**
 * A search engine. `search` returns at most `numResults` results, best first; it may throw a
 * `ToolFailure` with a specific code (anything else it throws becomes `EXECUTION_ERROR`).
 */
export interface WebSearchBackend {
  readonly name: string;
  readonly search: (query: string, request: WebSearchRequest) => Promise<ReadonlyArray<WebSearchResult>>;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

export interface SearxngOptions {
  /** The instance's base URL, e.g. `https://search.example.org` or `http://127.0.0.1:8888`. */
  readonly baseUrl: string;
  /** Hosts the request may reach (default: the base URL's host, with its port). */
  readonly allowedHosts?: ReadonlyArray<string>;
  /** Default 15 seconds. */
  readonly timeoutMs?: number;
  /** Largest response accepted (default 2 MiB). */
  readonly maxBytes?: number;
  /** Extra query parameters (`language`, `categories`, `safesearch`, ...). */
  readonly params?: Readonly<Record<string, string>>;
}

/** A backend over SearXNG's `GET /search?q=…&format=json` (results: `{title, url, content}`). */
export const searxngBackend = (options: SearxngOptions): WebSearchBackend => {
  const base = new URL(options.baseUrl);
  return {
    name: `searxng ${base.origin}`,
    search: async (query, request) => {
      const url = endpoint(base, 'search');
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      for (const [k, v] of Object.entries(options.params ?? {})) url.searchParams.set(k, v);
      const body = await fetchJson(url, options, request, {});
      return resultsOf((body as { results?: unknown } | null)?.results, '"results"', 'content', request.numResults);
    },
  };
};

export interface KeyedSearchOptions {
  /** The provider's API key (sent in a header, never in the URL). */
  readonly apiKey: string;
  /** The API's base URL (default the provider's; a proxy, or a local server in tests). */
  readonly baseUrl?: string;
  /** Hosts the request may reach (default: the base URL's host, with its port). */
  readonly allowedHosts?: ReadonlyArray<string>;
  /** Default 15 seconds. */
  readonly timeoutMs?: number;
  /** Largest response accepted (default 2 MiB). */
  readonly maxBytes?: number;
}

export const BRAVE_SEARCH_URL = 'https://api.search.brave.com/res/v1/';
export const TAVILY_SEARCH_URL = 'https://api.tavily.com/';

/** A backend over Brave's Web Search API: `GET web/search?q=…&count=n` with `X-Subscription-Token` (results: `web.results[]{title, url, description}`). */
export const braveBackend = (options: KeyedSearchOptions): WebSearchBackend => {
  const base = new URL(options.baseUrl ?? BRAVE_SEARCH_URL);
  return {
    name: `brave ${base.origin}`,
    search: async (query, request) => {
      const url = endpoint(base, 'web/search');
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(Math.min(request.numResults, 20)));
      const body = await fetchJson(url, options, request, { headers: { 'x-subscription-token': options.apiKey }, sensitiveHeaders: ['x-subscription-token'] });
      const web = (body as { web?: { results?: unknown } } | null)?.web;
      // a query with no web result has no "web" at all
      return web === undefined ? [] : resultsOf(web?.results, '"web.results"', 'description', request.numResults);
    },
  };
};

/** A backend over Tavily's `POST search` (`{query, max_results}`, a bearer key; results: `results[]{title, url, content}`). */
export const tavilyBackend = (options: KeyedSearchOptions): WebSearchBackend => {
  const base = new URL(options.baseUrl ?? TAVILY_SEARCH_URL);
  return {
    name: `tavily ${base.origin}`,
    search: async (query, request) => {
      const init = {
        method: 'POST',
        headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query, max_results: request.numResults }),
      };
      const body = await fetchJson(endpoint(base, 'search'), options, request, init);
      return resultsOf((body as { results?: unknown } | null)?.results, '"results"', 'content', request.numResults);
    },
  };
};

export interface SearchDocument {
  readonly title: string;
  readonly url: string;
  readonly text: string;
}

/**
 * A backend over a fixed set of documents, in memory: documents are ranked by how many of the
 * query's words they contain (title words count twice), ties in the given order; the snippet is the
 * text around the first word found.
 */
export const inMemorySearchBackend = (documents: ReadonlyArray<SearchDocument>, name = 'in-memory'): WebSearchBackend => {
  const indexed = documents.map((d, order) => ({ d, order, title: words(d.title), text: words(d.text) }));
  return {
    name,
    search: async (query, request) => {
      const q = [...new Set(words(query))];
      if (q.length === 0) return [];
      return indexed
        .map((x) => ({ x, score: q.reduce((s, w) => s + (x.title.includes(w) ? 2 : 0) + (x.text.includes(w) ? 1 : 0), 0) }))
        .filter((r) => r.score > 0)
        .sort((a, b) => b.score - a.score || a.x.order - b.x.order)
        .slice(0, request.numResults)
        .map(({ x }) => ({ title: x.d.title, url: x.d.url, snippet: snippetOf(x.d.text, q) }));
    },
  };
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** `path` under the base URL (its own path kept: `https://host/api/` + `search`). */
const endpoint = (base: URL, path: string): URL => new URL(path, base.href.endsWith('/') ? base.href : `${base.href}/`);

interface Reach {
  readonly allowedHosts?: ReadonlyArray<string>;
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
}

type RequestInit = {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly sensitiveHeaders?: ReadonlyArray<string>;
};

/** A provider's JSON answer, through `safeFetch` (only the provider's host); its failures as `ToolFailure`s. */
const fetchJson = async (url: URL, reach: Reach, request: WebSearchRequest, init: RequestInit): Promise<unknown> => {
  const r = await safeFetch(url.href, {
    ...init,
    headers: { accept: 'application/json', ...init.headers },
    allowedHosts: reach.allowedHosts ?? [url.host],
    maxBytes: reach.maxBytes ?? 2 * 1024 * 1024,
    timeoutMs: reach.timeoutMs ?? 15_000,
    signal: request.signal,
    ...(init.body !== undefined ? { sensitiveBody: true } : {}),
  });
  if (!r.ok) throw new ToolFailure(r.error.reason, `the search backend failed: ${r.error.message}`, { retryable: r.error.retryable });
  if (r.value.status < 200 || r.value.status > 299) {
    const hint = r.value.status === 401 || r.value.status === 403 ? ' (is its API key right?)' : '';
    throw new ToolFailure(ToolCodes.EXECUTION_ERROR, `the search backend answered HTTP ${r.value.status}${hint}`, {
      retryable: r.value.status >= 500 || r.value.status === 429,
    });
  }
  try {
    return JSON.parse(r.value.text);
  } catch {
    throw new ToolFailure(ToolCodes.EXECUTION_ERROR, 'the search backend did not answer JSON');
  }
};

/** A provider's result list as `{title, url, snippet}` (the snippet read from `snippetKey`), at most `n`. */
const resultsOf = (results: unknown, where: string, snippetKey: string, n: number): ReadonlyArray<WebSearchResult> => {
  if (!Array.isArray(results)) throw new ToolFailure(ToolCodes.EXECUTION_ERROR, `the search backend answered JSON without a ${where} array`);
  return results.slice(0, n).map((x: unknown, i: number) => {
    const o = (typeof x === 'object' && x !== null ? x : {}) as Record<string, unknown>;
    if (typeof o['url'] !== 'string') throw new ToolFailure(ToolCodes.EXECUTION_ERROR, `the search backend's result ${i} has no "url"`);
    return {
      title: typeof o['title'] === 'string' ? o['title'] : '',
      url: o['url'],
      snippet: typeof o[snippetKey] === 'string' ? (o[snippetKey] as string) : '',
    };
  });
};

const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

const snippetOf = (text: string, q: ReadonlyArray<string>, width = 160): string => {
  const lower = text.toLowerCase();
  const at = Math.min(...q.map((w) => lower.indexOf(w)).filter((i) => i >= 0), text.length);
  const start = Math.max(0, at - Math.floor(width / 3));
  const s = text
    .slice(start, start + width)
    .replace(/\s+/g, ' ')
    .trim();
  return `${start > 0 ? '…' : ''}${s}${start + width < text.length ? '…' : ''}`;
};
