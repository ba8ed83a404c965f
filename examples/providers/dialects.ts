/**
 * One tool, the shapes each provider takes: what changed is reported, names providers reject are
 * rewritten (and mapped back), and `normalizeArguments` undoes the strict-mode lowering.
 *
 *   npx tsx examples/providers/dialects.ts
 */
import { pathToFileURL } from 'node:url';
import { exportTools, normalizeArguments, type ExportableTool } from 'gramkit/providers';

export const greetTool: ExportableTool = {
  name: 'greetings.sayHello',
  description: 'Returns a friendly greeting for the given name',
  schema: {
    type: 'object',
    properties: {
      personName: { type: 'string', description: 'Who to greet', default: 'world' },
      style: { type: 'string', enum: ['formal', 'casual'] },
    },
  },
};

export const dialects = (): ReadonlyArray<string> => {
  const out: string[] = [];
  const strict = exportTools([greetTool], 'openai-strict');
  out.push(JSON.stringify(strict.tools[0]));
  out.push(`names: ${JSON.stringify(Object.fromEntries(strict.names))}`);
  for (const d of strict.diagnostics) out.push(`${d.severity}[${d.code}]: ${d.message}`);
  // what a strict model sends for "say hello": every property, null for "not given"
  const sent = { personName: null, style: 'casual' };
  out.push(`normalized: ${JSON.stringify(normalizeArguments('openai-strict', greetTool.schema, sent))}`);
  const gemini = exportTools([greetTool], 'gemini');
  out.push(JSON.stringify(gemini.tools[0]));
  return out;
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of dialects()) console.log(line);
}
