/**
 * The fast implementation of `capital_of`: an index built once, a lookup per call.
 *
 *   gramkit invoke examples/ab/capitals.gram --library examples/ab/fast-library.ts --args '{"country":"France"}'
 */
import { ToolFailure, toolLibrary } from 'gramkit';
import { capitalOf } from './capital-tool.js';
import { CAPITALS } from './countries.js';

const index = new Map(CAPITALS.map(([country, capital]) => [country.toLowerCase(), capital]));

export default toolLibrary([
  capitalOf(({ country }) => {
    const capital = index.get(country.trim().toLowerCase());
    if (capital === undefined) throw new ToolFailure('NOT_FOUND', `no country named "${country}" in the atlas`);
    return capital;
  }),
]);
