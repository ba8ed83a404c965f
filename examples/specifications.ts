/**
 * The specification API in a few steps: a tool from a signature string, its JSON Schema, argument
 * validation, errors with a caret, a whole file of tools and agents, and the TypeScript types.
 *
 * Run: npx tsx examples/specifications.ts
 */
import { readFileSync } from 'node:fs';
import {
  createToolSpecification,
  formatDiagnostics,
  formatIssues,
  parseSpecifications,
  toolSpecSchema,
  typeSignatureToJSONSchema,
  validateToolArgs,
} from 'gramkit';

export const main = (log: (line: string) => void = console.log): void => {
  // 1. a specification from the original signature form
  const spec = createToolSpecification('sayHello', 'Returns a friendly greeting', '(::Text {paramName:"name"})==>(::String)');
  if (spec._tag === 'Left') throw new Error('unexpected');
  log(JSON.stringify(toolSpecSchema(spec.right)));

  // 2. arguments checked against it: defaults are filled in on a copy, errors are words a model can act on
  const weather = typeSignatureToJSONSchema('(city::String)==>(days::Int {range: 1..7, default: 1})==>(::String)');
  if (weather._tag === 'Left') throw new Error('unexpected');
  const ok = validateToolArgs(weather.right, { city: 'Paris' });
  log(ok._tag === 'Right' ? JSON.stringify(ok.right) : formatIssues(ok.left));
  const bad = validateToolArgs(weather.right, { city: 'Paris', days: 'ten' });
  log(bad._tag === 'Left' ? formatIssues(bad.left) : 'valid');

  // 3. a signature with mistakes: every error, with its code, place and hint
  const sig = '(city::Strng)==>(days::Int {minLength: 1})==>(::String)';
  const errors = typeSignatureToJSONSchema(sig);
  if (errors._tag === 'Left') log(formatDiagnostics(errors.left, sig, { filename: 'inline' }));

  // 4. a file: every tool and agent, or every diagnostic at once
  const text = readFileSync(new URL('./tools.gram', import.meta.url), 'utf8');
  const file = parseSpecifications(text, { filename: 'examples/tools.gram' });
  if (file._tag === 'Left') throw new Error(formatDiagnostics(file.left, text));
  const agent = file.right.agents[0];
  log(`${file.right.tools.length} tools; agent ${agent?.name} uses ${agent?.tools.map((t) => t.name).join(', ')}`);
};

if (process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href) main();
