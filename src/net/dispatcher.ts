/**
 * The HTTP dispatcher an option may name, typed without undici's types: gramkit's public
 * declarations stay free of its HTTP client's types (a consumer's type check does not load them),
 * while any undici `Dispatcher` (an `Agent`, a `ProxyAgent`, a `MockAgent`) still fits.
 */
import type { Dispatcher } from 'undici';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** An undici `Dispatcher` (`Agent`, `ProxyAgent`, `MockAgent`, …), seen from the outside. */
export interface HttpDispatcher {
  dispatch(options: never, handler: never): boolean;
  close(): Promise<void>;
}

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** The dispatcher as undici sees it. */
export const undiciDispatcher = (d: HttpDispatcher): Dispatcher => d as unknown as Dispatcher;
