/**
 * The ecosystem examples print what docs/ecosystem.md shows: an MCP session through the SDK's
 * client against `gramkit mcp builtin`, gramkit tools in an AI SDK `generateText` run, and a Zod
 * schema as a gram specification.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { aiSdkTools } from '../../examples/ecosystem/ai-sdk-tools.js';
import { mcpOverHttp } from '../../examples/ecosystem/mcp-http.js';
import { mcpSession } from '../../examples/ecosystem/mcp-session.js';
import { zodTool } from '../../examples/ecosystem/zod-tool.js';
import { ToolCodes } from '../../src/index.js';
import { PolicyCodes } from '../../src/entries/policy.js';
import { BuiltinCodes } from '../../src/entries/builtins.js';

const { INVALID_ARGUMENTS } = ToolCodes;
const { INVALID_PATH } = BuiltinCodes;
const { DENIED } = PolicyCodes;

const doc = readFileSync(new URL('../../docs/ecosystem.md', import.meta.url), 'utf8');
const sources = ['mcp-session.ts', 'mcp-http.ts', 'ai-sdk-tools.ts', 'zod-tool.ts'].map((f) =>
  readFileSync(new URL(`../../examples/ecosystem/${f}`, import.meta.url), 'utf8'),
);
const blocks = (lang: string): string[] => [...doc.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, 'gm'))].map((m) => m[1] ?? '');

describe('ecosystem examples', { timeout: 60_000 }, () => {
  it('mcp-session: an inspector-style session against gramkit mcp builtin', async () => {
    expect(await mcpSession()).toEqual([
      'server: gramkit',
      'read_file: {"readOnlyHint":true,"openWorldHint":false}',
      'delete_file: {"readOnlyHint":false,"destructiveHint":true,"openWorldHint":false}',
      'web_fetch: {"readOnlyHint":false,"destructiveHint":false,"openWorldHint":true}',
      '{"content":"gram is a notation for graphs\\n","size":30,"modified":"…"}',
      `error ${INVALID_ARGUMENTS}: invalid arguments for "read_file": argument "path" must be a string, got 42`,
      `error ${INVALID_PATH}: path "../secrets.txt" is outside the workspace (it climbs above the root with ".."); give a path relative to the workspace root`,
      `error ${DENIED}: delete_file was not approved: delete_file always asks for approval (it deletes files); this MCP server cannot ask anyone (start it with --yes to approve such calls)`,
    ]);
  });

  it('mcp-http: a handler on node:http, and the client binding its tools', async () => {
    expect(await mcpOverHttp()).toEqual([
      'capitals 1.0.0: capital_of',
      'ok "Tokyo"',
      'NOT_FOUND: no country named "Atlantis" in the atlas',
      `${INVALID_ARGUMENTS}: invalid arguments for "capital_of": argument "country" is required; argument "city" is not allowed here (unknown property; the arguments are country)`,
    ]);
  });

  it('ai-sdk-tools: generateText runs gramkit tools; a failure is a tool error the model reads', async () => {
    expect(await aiSdkTools()).toEqual([
      'capital_of {"country":"France"} → "Paris"',
      'capital_of {"country":"Atlantis"} → tool error: NOT_FOUND: no country named "Atlantis" in the atlas',
      'answer: The tools said: "Paris"; "NOT_FOUND: no country named \\"Atlantis\\" in the atlas"',
    ]);
  });

  it('zod-tool: a Zod schema as gram, bound and invoked', async () => {
    const lines = await zodTool();
    expect(lines[0]).toContain('(units::String {enum: ["metric", "imperial"], default: "metric"})');
    expect(lines.slice(1)).toEqual([
      'ok {"temperature":21}',
      `${INVALID_ARGUMENTS}: invalid arguments for "get_weather": argument "units" must be one of "metric", "imperial", got "kelvin"`,
    ]);
  });

  it('every ts block of docs/ecosystem.md is taken from one of these examples', () => {
    const ts = blocks('ts');
    expect(ts.length).toBeGreaterThan(2);
    for (const b of ts)
      expect(
        sources.some((s) => s.includes(b.trimEnd())),
        b,
      ).toBe(true);
  });
});
