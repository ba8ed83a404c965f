/**
 * A third implementation of `capital_of` for the A/B example: an atlas printed in 1950. It binds
 * (same specification) and answers quickly, but some answers are out of date, which `gramkit ab`
 * reports as answers that differ between libraries.
 */
import { ToolFailure, toolLibrary } from 'gramkit';
import { capitalOf } from './ab/capital-tool.js';
import { CAPITALS } from './ab/countries.js';

/** Capitals that moved since 1950. */
export const CHANGED_SINCE_1950: Readonly<Record<string, string>> = {
  brazil: 'Rio de Janeiro',
  nigeria: 'Lagos',
  germany: 'Bonn',
};

const atlas = new Map(CAPITALS.map(([country, capital]) => [country.toLowerCase(), CHANGED_SINCE_1950[country.toLowerCase()] ?? capital]));

export default toolLibrary([
  capitalOf(({ country }) => {
    const capital = atlas.get(country.trim().toLowerCase());
    if (capital === undefined) throw new ToolFailure('NOT_FOUND', `no country named "${country}" in the atlas`);
    return capital;
  }),
]);
