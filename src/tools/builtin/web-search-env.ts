/**
 * The `web_search` backend an operator chooses in the environment (read by the CLI: `gramkit
 * serve`, `gramkit mcp`, `run`, `ab`, `invoke`; this module only reads the record it is given):
 *
 * - `GRAMKIT_WEB_SEARCH`: `brave`, `tavily` or `searxng` (unset or empty: no backend, and
 *   `web_search` answers `BUILTIN_NOT_CONFIGURED`);
 * - the key, for Brave and Tavily: `GRAMKIT_WEB_SEARCH_KEY`, else the provider's own variable
 *   (`BRAVE_API_KEY`, `TAVILY_API_KEY`);
 * - `GRAMKIT_WEB_SEARCH_URL`: the base URL (required for SearXNG, an instance; for Brave and Tavily
 *   it replaces the public API's, e.g. a proxy).
 *
 * Requests reach the base URL's host only (not the server's `--allow-host`, which is for tools).
 */
import { type Either, left, right } from '../../core/either.js';
import { type Diagnostic, error } from '../../core/diagnostic.js';
import { BuiltinCodes } from './codes.js';
import { braveBackend, searxngBackend, tavilyBackend, type WebSearchBackend } from './web-search-backend.js';

export const WEB_SEARCH_ENV = { provider: 'GRAMKIT_WEB_SEARCH', key: 'GRAMKIT_WEB_SEARCH_KEY', url: 'GRAMKIT_WEB_SEARCH_URL' } as const;

export const WEB_SEARCH_PROVIDERS = ['brave', 'tavily', 'searxng'] as const;

const PROVIDER_KEYS = { brave: 'BRAVE_API_KEY', tavily: 'TAVILY_API_KEY' } as const;

const problem = (message: string): Either<Diagnostic, never> =>
  left(
    error(BuiltinCodes.NOT_CONFIGURED, message, {
      hint: `${WEB_SEARCH_ENV.provider}=${WEB_SEARCH_PROVIDERS.join('|')}; docs/builtins.md says what each needs`,
    }),
  );

/** The backend the environment configures, none when `GRAMKIT_WEB_SEARCH` is unset, or what is wrong with it. */
export const webSearchFromEnv = (env: Readonly<Record<string, string | undefined>>): Either<Diagnostic, WebSearchBackend | undefined> => {
  const provider = (env[WEB_SEARCH_ENV.provider] ?? '').trim().toLowerCase();
  if (provider === '') return right(undefined);
  const base = env[WEB_SEARCH_ENV.url]?.trim() || undefined;
  if (base !== undefined && !/^https?:\/\/[^/\s]/i.test(base))
    return problem(`${WEB_SEARCH_ENV.url} must be an http:// or https:// URL, got ${JSON.stringify(base)}`);
  switch (provider) {
    case 'searxng':
      if (base === undefined)
        return problem(`${WEB_SEARCH_ENV.provider}=searxng needs ${WEB_SEARCH_ENV.url}, the instance's address (e.g. http://127.0.0.1:8888)`);
      return right(searxngBackend({ baseUrl: base }));
    case 'brave':
    case 'tavily': {
      const own = PROVIDER_KEYS[provider];
      const apiKey = env[WEB_SEARCH_ENV.key]?.trim() || env[own]?.trim();
      if (apiKey === undefined || apiKey === '') return problem(`${WEB_SEARCH_ENV.provider}=${provider} needs its API key in ${WEB_SEARCH_ENV.key} or ${own}`);
      const options = { apiKey, ...(base !== undefined ? { baseUrl: base } : {}) };
      return right(provider === 'brave' ? braveBackend(options) : tavilyBackend(options));
    }
    default:
      return problem(`${WEB_SEARCH_ENV.provider} must be one of ${WEB_SEARCH_PROVIDERS.join(', ')}, got ${JSON.stringify(env[WEB_SEARCH_ENV.provider])}`);
  }
};
