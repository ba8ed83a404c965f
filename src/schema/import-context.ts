/**
 * What the JSON Schema importer carries while it reads one schema: the root (for `$ref`), the
 * draft and the dialect, where the schema sits in the input, and the diagnostics found. Every
 * diagnostic is made here: it has no span (the input is JSON), and its message starts with the
 * JSON pointer of the place.
 */
import { type Diagnostic, error, info, warning } from '../core/diagnostic.js';
import { isJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/json-schema.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** `jsonschema` reads 2020-12 (draft-07 when `$schema` says so); `bfcl` adds BFCL's type names and `optional`. */
export type SchemaDialect = 'jsonschema' | 'bfcl';

export interface SchemaImportOptions {
  readonly dialect?: SchemaDialect;
  /** Where the schema sits in the input, prefixed to every message (e.g. `parameters`). */
  readonly at?: string;
  readonly file?: string;
  /**
   * Repair schemas whose intent is clear but whose letter accepts nothing (`import-repair.ts`);
   * each repair is an `SPEC_IMPORT_REPAIRED` warning with the JSON Pointer of the place.
   */
  readonly repair?: boolean;
}

/** The importer's state for one schema. */
export interface ImportContext {
  readonly root: JsonObject;
  readonly draft07: boolean;
  readonly bfcl: boolean;
  readonly repair: boolean;
  readonly at: string;
  readonly file?: string;
  readonly stack: string[];
  readonly diagnostics: Diagnostic[];
  depth: number;
  /** Inside an `allOf` whose other parts give the type: inferring a type from keywords is then exact. */
  quietInference: number;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

export const importContext = (schema: unknown, options: SchemaImportOptions): ImportContext => {
  const root = isJsonObject(schema) ? schema : {};
  const dialectUri = typeof root['$schema'] === 'string' ? root['$schema'] : '';
  return {
    root,
    draft07: /draft-0[3-7]/.test(dialectUri),
    bfcl: options.dialect === 'bfcl',
    repair: options.repair === true,
    at: options.at ?? '',
    ...(options.file !== undefined ? { file: options.file } : {}),
    stack: [],
    diagnostics: [],
    depth: 0,
    quietInference: 0,
  };
};

// -------------------------------------------------------------------------------------------------
// diagnostics
// -------------------------------------------------------------------------------------------------

/** Where a pointer is, for a message: `` `parameters/properties/a` ``, or `the schema`. */
export const where = (ctx: ImportContext, ptr: string): string => {
  const p = `${ctx.at}${ptr}`;
  return p === '' ? 'the schema' : `\`${p}\``;
};

const opts = (ctx: ImportContext, hint?: string) => ({
  ...(ctx.file !== undefined ? { file: ctx.file } : {}),
  ...(hint !== undefined ? { hint } : {}),
});

/** Reports an error; returns undefined (the type that could not be built). */
export const err = (ctx: ImportContext, code: string, ptr: string, message: string, hint?: string): undefined => {
  ctx.diagnostics.push(error(code, `${where(ctx, ptr)}: ${message}`, opts(ctx, hint)));
  return undefined;
};
export const warn = (ctx: ImportContext, code: string, ptr: string, message: string, hint?: string): void =>
  void ctx.diagnostics.push(warning(code, `${where(ctx, ptr)}: ${message}`, opts(ctx, hint)));
export const note = (ctx: ImportContext, code: string, ptr: string, message: string): void =>
  void ctx.diagnostics.push(info(code, `${where(ctx, ptr)}: ${message}`, opts(ctx)));
