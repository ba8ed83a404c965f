/**
 * Values and JSON pointers as a person reads them in a validation message (`user.tags[2]`, "an
 * array of 3"), shared by the ajv validator (validate.ts) and the checks that run without it
 * (value-check.ts, the JSON form's decoder), so that checking a specification loads no ajv.
 */
import { pointerSegments } from '../core/json-pointer.js';

/** `/user/tags/2` → `user.tags[2]`. */
export const displayPath = (instancePath: string): string => {
  if (instancePath === '') return '';
  let out = '';
  for (const seg of pointerSegments(instancePath) ?? []) {
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
};

const MAX_SHOWN = 60;

/** A short rendering of a value for a message: `"ten"`, `42`, `an object`, `an array of 3`. */
export const describeValue = (v: unknown): string => {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length === 0 ? 'an empty array' : `an array of ${v.length}`;
  if (typeof v === 'object') return 'an object';
  const s = JSON.stringify(v) ?? String(v);
  return s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN)}…` : s;
};
