/**
 * `web_search`: asks the configured backend (see web-search-backend.ts) and returns
 * `{results: [{title, url, snippet}]}`. Without a backend it fails with `NOT_CONFIGURED`.
 */
import { ToolCodes } from '../../library/codes.js';
import { BuiltinCodes } from './codes.js';
import type { InvocationContext } from '../../library/tool.js';
import { ToolFailure } from '../../library/result.js';
import { argsRecord, numberArg, requireString, type BuiltinFactory } from './builtin.js';
import type { WebSearchResult } from './web-search-backend.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface WebSearchToolResult {
  readonly results: ReadonlyArray<WebSearchResult>;
}

export const MAX_SEARCH_RESULTS = 20;

// -------------------------------------------------------------------------------------------------
// tool
// -------------------------------------------------------------------------------------------------

export const webSearch: BuiltinFactory = (options) => ({
  name: 'web_search',
  annotations: { permissions: ['net:read'], safetyLevel: 'low', approval: 'auto' },
  limits: { timeoutMs: 30_000 },
  implementation: async (args: unknown, ctx: InvocationContext): Promise<WebSearchToolResult> => {
    const a = argsRecord(args);
    const query = requireString(a, 'query').trim();
    if (query === '') throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, 'argument "query" is empty: say what to search for');
    const numResults = Math.max(1, Math.min(Math.floor(numberArg(a, 'numResults') ?? 5), MAX_SEARCH_RESULTS));
    const backend = options.webSearch;
    if (backend === undefined) {
      const how = 'the operator sets GRAMKIT_WEB_SEARCH=brave|tavily|searxng';
      throw new ToolFailure(
        BuiltinCodes.NOT_CONFIGURED,
        `web search is not configured in this run (no search backend: ${how}); use web_fetch on a known URL instead`,
      );
    }
    const results = await backend.search(query, { numResults, signal: ctx.signal });
    if (!Array.isArray(results)) throw new ToolFailure(ToolCodes.EXECUTION_ERROR, `the search backend ${backend.name} returned no result list`);
    return {
      results: results.slice(0, numResults).map((r: unknown, i: number) => {
        const o = (typeof r === 'object' && r !== null ? r : {}) as Record<string, unknown>;
        if (typeof o['title'] !== 'string' || typeof o['url'] !== 'string' || typeof o['snippet'] !== 'string') {
          throw new ToolFailure(
            ToolCodes.EXECUTION_ERROR,
            `the search backend ${backend.name} returned a malformed result ${i} (title, url and snippet must be strings)`,
          );
        }
        return { title: o['title'], url: o['url'], snippet: o['snippet'] };
      }),
    };
  },
});
