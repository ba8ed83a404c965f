/**
 * The parameter names of a tool specification (the properties of its argument schema), which
 * template placeholders must name.
 */
import type { JsonSchema } from '../core/json-schema.js';

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

export const parameterNames = (schema: JsonSchema): ReadonlyArray<string> => {
  if (typeof schema !== 'object') return [];
  const props = schema['properties'];
  return typeof props === 'object' && props !== null && !Array.isArray(props) ? Object.keys(props) : [];
};
