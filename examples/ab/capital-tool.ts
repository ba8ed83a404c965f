/**
 * The `capital_of` tool of capitals.gram with a given implementation: both libraries use it, so
 * both implement exactly the specification (`defineTool` takes name, description and schemas
 * from the gram text).
 */
import { readFileSync } from 'node:fs';
import { defineTool, formatDiagnostics, type Tool, type ToolImplementation } from 'gramkit';

const gram = readFileSync(new URL('./capitals.gram', import.meta.url), 'utf8');

export const capitalOf = (impl: ToolImplementation<{ country: string }, string>): Tool => {
  const tool = defineTool(gram, impl, { filename: 'capitals.gram' });
  if (tool._tag === 'Left') throw new Error(formatDiagnostics(tool.left, gram));
  return tool.right;
};
