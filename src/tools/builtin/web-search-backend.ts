/**
 * Web search backends for `web_search`: a small interface, a backend for SearXNG's JSON API (the
 * self-hostable metasearch engine; any server answering the same JSON works) reached through
 * `safeFetch` with a host allowlist, and an in-memory backend over a fixed set of documents (for
 * offline runs, examples and tests).
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
  const hosts = options.allowedHosts ?? [base.host];
  return {
    name: `searxng ${base.origin}`,
    search: async (query, request) => {
      const url = new URL('search', base.href.endsWith('/') ? base.href : `${base.href}/`);
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      for (const [k, v] of Object.entries(options.params ?? {})) url.searchParams.set(k, v);
      const r = await safeFetch(url.href, {
        allowedHosts: hosts,
        maxBytes: options.maxBytes ?? 2 * 1024 * 1024,
        timeoutMs: options.timeoutMs ?? 15_000,
        signal: request.signal,
        headers: { accept: 'application/json' },
      });
      if (!r.ok) throw new ToolFailure(r.error.reason, `the search backend failed: ${r.error.message}`, { retryable: r.error.retryable });
      if (r.value.status < 200 || r.value.status > 299) {
        throw new ToolFailure(ToolCodes.EXECUTION_ERROR, `the search backend answered HTTP ${r.value.status}`, { retryable: r.value.status >= 500 || r.value.status === 429 });
      }
      let body: unknown;
      try {
        body = JSON.parse(r.value.text);
      } catch {
        throw new ToolFailure(ToolCodes.EXECUTION_ERROR, 'the search backend did not answer JSON');
      }
      const results = (body as { results?: unknown } | null)?.results;
      if (!Array.isArray(results)) throw new ToolFailure(ToolCodes.EXECUTION_ERROR, 'the search backend answered JSON without a "results" array');
      return results.slice(0, request.numResults).map((x: unknown, i: number) => {
        const o = (typeof x === 'object' && x !== null ? x : {}) as Record<string, unknown>;
        if (typeof o['url'] !== 'string') throw new ToolFailure(ToolCodes.EXECUTION_ERROR, `the search backend's result ${i} has no "url"`);
        return { title: typeof o['title'] === 'string' ? o['title'] : '', url: o['url'], snippet: typeof o['content'] === 'string' ? o['content'] : '' };
      });
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

const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

const snippetOf = (text: string, q: ReadonlyArray<string>, width = 160): string => {
  const lower = text.toLowerCase();
  const at = Math.min(...q.map((w) => lower.indexOf(w)).filter((i) => i >= 0), text.length);
  const start = Math.max(0, at - Math.floor(width / 3));
  const s = text.slice(start, start + width).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${s}${start + width < text.length ? '…' : ''}`;
};
