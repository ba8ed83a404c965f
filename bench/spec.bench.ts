/**
 * Specifications: compiling signatures (gram text → parsed signature → JSON Schema), and validating
 * tool arguments through gramkit against raw compiled ajv on the same schema.
 *
 *   npm run bench -- spec
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createToolSpecification, parseTypeSignature, typeSignatureToJSONSchema, validateToolArgs } from '../src/index.js';
import { parseGram } from '../src/gram/parse.js';
import { bestOf, formatNs, measure, ratio, report } from './harness.js';

const TYPES = ['Text', 'Int', 'Double', 'Bool', '[Text]', '{a: Int, b: Maybe Text}', '(Double, Double)', 'Text | Null'];

/** 1,000 distinct signatures of 1 to 6 parameters, with labels, type expressions and keywords. */
const signatures = (): string[] =>
  Array.from({ length: 1000 }, (_, i) => {
    const params: string[] = [];
    for (let p = 0; p <= i % 6; p++) {
      const t = TYPES[(i + p) % TYPES.length] as string;
      const name = `p${i}_${p}`;
      if (t === 'Int') params.push(`(${name}::Int {range: 0..${i + p + 1}, description: "parameter ${p} of ${i}"})`);
      else if (t === 'Text') params.push(`(::Text {paramName: "${name}", default: "v${i}", minLength: 1})`);
      else if (t === 'Double' || t === 'Bool') params.push(`(${name}::${t}${p % 2 === 0 ? ' {optional: true}' : ''})`);
      else params.push(`(${name}::Any {type: "${t}"})`);
    }
    return `${params.join('==>')}==>(::Object {type: "{ok: Bool, n${i}: Int}"})`;
  });

const interop = <A>(m: unknown): A => ((m as { default?: unknown }).default ?? m) as A;

export default async (): Promise<void> => {
  // ---------------------------------------------------------------------------------------------
  // 1. compiling 1,000 distinct signatures
  const sigs = signatures();
  for (const s of sigs) if (typeSignatureToJSONSchema(s)._tag === 'Left') throw new Error(`bench signature does not compile: ${s}`);
  const jsonTexts = sigs.map((s) => {
    const r = typeSignatureToJSONSchema(s);
    return JSON.stringify(r._tag === 'Right' ? r.right : {});
  });
  const compileAll = (): void => {
    for (const s of sigs) typeSignatureToJSONSchema(s);
  };
  const parseOnly = (): void => {
    for (const s of sigs) parseGram(s);
  };
  const signatureOnly = (): void => {
    for (const s of sigs) parseTypeSignature(s);
  };
  const specAll = (): void => {
    sigs.forEach((s, i) => createToolSpecification(`tool${i}`, 'a tool', s));
  };
  const jsonParseAll = (): void => {
    for (const t of jsonTexts) JSON.parse(t);
  };
  for (let i = 0; i < 3; i++) compileAll();
  const tCompile = await bestOf(7, compileAll);
  const tParse = await bestOf(7, parseOnly);
  const tSig = await bestOf(7, signatureOnly);
  const tSpec = await bestOf(7, specAll);
  const tJson = await bestOf(7, jsonParseAll);
  const rate = 1000 / (tCompile / 1000);
  report('compile 1,000 distinct signatures (parse + schema), best of 7', [
    ['gram parse only (parseGram)', `${tParse.toFixed(1)} ms`],
    ['signature (parse + checks + ADT)', `${tSig.toFixed(1)} ms`],
    ['signature → JSON Schema (typeSignatureToJSONSchema)', `${tCompile.toFixed(1)} ms`],
    ['createToolSpecification (both schemas, frozen)', `${tSpec.toFixed(1)} ms`],
    ['signatures per second', `${Math.round(rate)} /s ${ratio(rate / 1000, { min: 1 })} of the 1,000/s target`],
    ['baseline: JSON.parse of the same 1,000 schemas', `${tJson.toFixed(2)} ms`],
    ['compile time vs JSON.parse of the result', ratio(tCompile / tJson)],
  ]);

  // ---------------------------------------------------------------------------------------------
  // 2. validateToolArgs vs raw compiled ajv, same schema, same options
  const weather = createToolSpecification(
    'get_weather',
    'Weather',
    '(city::String {minLength: 1})==>(units::String {enum: ["metric", "imperial"]})==>(days::Int {range: 1..7})==>(when::Object {type: "{start: Text, end: Maybe Text}"})==>(::String)',
  );
  const withDefaults = createToolSpecification(
    'get_weather2',
    'Weather',
    '(city::String)==>(units::String {enum: ["metric", "imperial"], default: "metric"})==>(days::Int {range: 1..7, default: 1})==>(::String)',
  );
  if (weather._tag === 'Left' || withDefaults._tag === 'Left') throw new Error('bench specs');
  const schema = weather.right.schema;
  const ajv = new (interop<new (o: object) => { compile: (s: object) => (v: unknown) => boolean }>(Ajv2020))({ allErrors: true, strict: false, logger: false });
  interop<(a: unknown) => void>(addFormatsModule)(ajv);
  const raw = ajv.compile(schema);
  const rawDefaults = ajv.compile(withDefaults.right.schema);
  const valid = { city: 'Paris', units: 'metric', days: 3, when: { start: 'today' } };
  const invalid = { city: '', units: 'kelvin', days: 'ten', when: {} };
  const validSparse = { city: 'Paris' };
  let sink = 0;
  const rows: Array<readonly [string, string]> = [];
  const pair = async (label: string, gram: () => unknown, base: () => unknown, target?: { readonly min: number }): Promise<void> => {
    // alternate the two, three times each, and keep the best of each (JIT and machine noise)
    let g = await measure(`gramkit ${label}`, gram, { ms: 500, batch: 1000 });
    let a = await measure(`ajv ${label}`, base, { ms: 500, batch: 1000 });
    for (let i = 0; i < 2; i++) {
      const g2 = await measure(`gramkit ${label}`, gram, { ms: 500, batch: 1000 });
      const a2 = await measure(`ajv ${label}`, base, { ms: 500, batch: 1000 });
      if (g2.nsPerOp < g.nsPerOp) g = g2;
      if (a2.nsPerOp < a.nsPerOp) a = a2;
    }
    rows.push([`${label}: ajv`, `${formatNs(a.nsPerOp)}/call`]);
    rows.push([`${label}: gramkit validateToolArgs`, `${formatNs(g.nsPerOp)}/call`]);
    rows.push([`${label}: gramkit rate / ajv rate`, ratio(a.nsPerOp / g.nsPerOp, target)]);
  };
  await pair(
    'valid arguments',
    () => (sink += validateToolArgs(schema, valid)._tag === 'Right' ? 1 : 0),
    () => (sink += raw(valid) ? 1 : 0),
    { min: 0.9 },
  );
  await pair(
    'invalid arguments (gramkit words the issues)',
    () => (sink += validateToolArgs(schema, invalid)._tag === 'Left' ? 1 : 0),
    () => (sink += raw(invalid) ? 0 : 1),
  );
  await pair(
    'valid, defaults filled in on a copy',
    () => (sink += validateToolArgs(withDefaults.right.schema, validSparse)._tag === 'Right' ? 1 : 0),
    () => (sink += rawDefaults(validSparse) ? 1 : 0),
  );
  report('validateToolArgs vs raw compiled ajv (same schema, same options)', rows);
  if (sink < 0) process.stdout.write(String(sink));
};
