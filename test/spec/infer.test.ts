/**
 * Type-level inference from signature strings, checked by the TypeScript compiler: the expected
 * types are exact (a mutual-assignability check), and a wrong implementation does not compile.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const INFER = fileURLToPath(new URL('../../src/types/infer.js', import.meta.url));

const typecheck = (body: string): string[] => {
  const dir = mkdtempSync(join(tmpdir(), 'gramkit-infer-'));
  const file = join(dir, 'check.ts');
  writeFileSync(
    file,
    `import type { InferArgs, InferInput, InferResult, InferToolArgs, InferToolResult, ExprType } from ${JSON.stringify(INFER)};
type Eq<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
export const same = <T extends true>(): T => true as T;
${body}
`,
  );
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
};

describe('type-level inference', { timeout: 60_000 }, () => {
  it('infers argument, input and result types from signature strings', () => {
    const errors = typecheck(`
type S1 = '(::Text {paramName:"name"})==>(::String)';
same<Eq<InferArgs<S1>, { name: string }>>();
same<Eq<InferResult<S1>, string>>();
type S2 = '(city::String {description: "City"}) ==>\\n  (days::Int {range: 1..7, default: 1}) ==>\\n  (units::String {enum: ["c", "f"], optional: true})==>(tags::Array {elementType: "Text"})==>(u::Object {type: "{name: Text, age: Maybe Int}"})==>(::Object {type: "{ok: Bool}"})';
same<Eq<InferArgs<S2>, { city: string; days: number; tags: string[]; u: { name: string; age?: number }; units?: 'c' | 'f' }>>();
same<Eq<InferInput<S2>, { city: string; tags: string[]; u: { name: string; age?: number }; days?: number; units?: 'c' | 'f' }>>();
same<Eq<InferResult<S2>, { ok: boolean }>>();
same<Eq<InferArgs<'()==>(::String)'>, {}>>();
same<Eq<InferArgs<'(::Arguments {additionalProperties: false})==>(a::Bool)-->(b::Any {type: "Maybe [Int]"})~~>(::Null)'>, { a: boolean; b?: number[] }>>();
same<Eq<ExprType<'Text | Null'>, string | null>>();
same<Eq<ExprType<'(Double, Double)'>, unknown>>();
same<Eq<InferToolArgs<'[sayHello:Tool {description: "x"} | (personName::String {default: "world"})==>(::String)]'>, { personName: string }>>();
same<Eq<InferToolResult<'[t:Tool {description: "x"} | (a::Int)==>(::Array {type: "[Int]"})]'>, number[]>>();
`);
    expect(errors).toEqual([]);
  });

  it('rejects an implementation that does not fit its signature', () => {
    const errors = typecheck(`
type S = '(city::String)==>(days::Int {default: 1})==>(::String)';
const impl = (args: InferArgs<S>): InferResult<S> => args.city.repeat(args.days);
const wrong = (args: InferArgs<S>): InferResult<S> => args.days;
const call: InferInput<S> = { city: 'Paris', dayz: 3 };
void impl; void wrong; void call;
`);
    expect(errors.length).toBe(2);
    expect(errors[0]).toContain("Type 'number' is not assignable to type 'string'");
    expect(errors[1]).toContain("'dayz' does not exist");
  });
});
