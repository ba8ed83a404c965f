/**
 * One registry per layer, and no code anywhere else: outside the registries (`<layer>/codes.ts`),
 * the sources name codes through the registries' constants (`ToolCodes.TIMEOUT`), never as string
 * literals, so a code is defined, documented and renamed in one place. Comments may name codes,
 * but only codes that exist. Codes are unique and carry their layer's prefix.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REGISTRY_FILES, SRC, loadRegistries, sourceFiles } from '../support/registries.js';

const registries = await loadRegistries();
const codes = new Set(registries.flatMap((r) => r.codes.map((c) => c.code)));
/** The key of each code in its registry (`TIMEOUT` of `TOOL_TIMEOUT`): as a bare literal, it is an old code. */
const keys = new Set(registries.flatMap((r) => r.codes.map((c) => c.code.slice(r.prefix.length + 1))));

/**
 * SCREAMING_SNAKE literals that are not gramkit codes: environment variables, and the codes of
 * Node, undici and the system that gramkit reads (it maps them to its own).
 */
const NOT_CODES = new Set([
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GEMINI_API_KEY',
  'ALLOWED_TOOL_PERMS',
  'GRAMKIT_TOKEN',
  'GRAMKIT_MAX_CONCURRENT_RUNS',
  'GRAMKIT_TRACE',
  'GRAMKIT_WEB_SEARCH',
  'GRAMKIT_WEB_SEARCH_KEY',
  'GRAMKIT_WEB_SEARCH_URL',
  'XDG_CACHE_HOME',
  'BRAVE_API_KEY',
  'TAVILY_API_KEY',
  'LC_ALL',
  'LC_CTYPE',
  // Gemini's finish reasons
  'PROHIBITED_CONTENT',
  'IMAGE_SAFETY',
  'FINISH_REASON_UNSPECIFIED',
  'MAX_TOKENS',
  // Google's ErrorInfo reasons for a key it refuses
  'API_KEY_INVALID',
  'API_KEY_EXPIRED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_INVALID_ARG',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ERR_INVALID_URL',
  'ERR_INVALID_ARG_TYPE',
  'ERR_INVALID_ARG_VALUE',
  'ERR_MODULE_NOT_FOUND',
  'ERR_UNKNOWN_FILE_EXTENSION',
  'EAI_AGAIN',
]);

/** Literals that equal a registry key but are not codes where they appear. */
const NOT_CODE_WORDS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'ERROR', 'UNKNOWN', 'TYPE']);

const SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const CODE_TOKEN = /\b(?:GRAM|SPEC|TOOL|NET|POLICY|IMPL|HTTP|COMMAND|BUILTIN|AGENT|MCP|ADAPTER|CATALOG|SERVICE|CLI)_[A-Z0-9_]*[A-Z0-9]\b/g;

interface Found {
  readonly literals: Array<{ readonly text: string; readonly line: number }>;
  readonly comments: string;
}

/** The string and template literals of a source file, and its comments. */
const scan = (file: string): Found => {
  const text = readFileSync(join(SRC, file), 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const literals: Array<{ text: string; line: number }> = [];
  const blanks: Array<[number, number]> = [];
  const visit = (n: ts.Node): void => {
    if (
      ts.isStringLiteral(n) ||
      ts.isNoSubstitutionTemplateLiteral(n) ||
      ts.isTemplateHead(n) ||
      ts.isTemplateMiddle(n) ||
      ts.isTemplateTail(n) ||
      ts.isRegularExpressionLiteral(n)
    ) {
      if (!ts.isRegularExpressionLiteral(n)) literals.push({ text: n.text, line: sf.getLineAndCharacterOfPosition(n.getStart()).line + 1 });
      blanks.push([n.getStart(), n.getEnd()]);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  let code = text;
  for (const [a, b] of blanks) code = code.slice(0, a) + ' '.repeat(b - a) + code.slice(b);
  const comments = [...code.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)].map((m) => m[0]).join('\n');
  return { literals, comments };
};

describe('codes', () => {
  it('are unique, prefixed by their layer, and defined in the registry modules', () => {
    const all = registries.flatMap((r) => r.codes.map((c) => c.code));
    expect(new Set(all).size).toBe(all.length);
    expect(REGISTRY_FILES.length).toBeGreaterThanOrEqual(13);
    const PREFIX: Readonly<Record<string, string>> = {
      gram: 'GRAM_',
      spec: 'SPEC_',
      library: 'TOOL_',
      net: 'NET_',
      policy: 'POLICY_',
      tools: 'IMPL_',
      'tools/http': 'HTTP_',
      'tools/command': 'COMMAND_',
      'tools/builtin': 'BUILTIN_',
      agent: 'AGENT_',
      mcp: 'MCP_',
      adapters: 'ADAPTER_',
      catalog: 'CATALOG_',
      server: 'SERVICE_',
      project: 'PROJECT_',
      cli: 'CLI_',
    };
    for (const r of registries) for (const c of r.codes) expect(c.code.startsWith(PREFIX[c.layer] ?? '?'), `${c.code} (${c.layer})`).toBe(true);
  });

  // core/codes.ts is the registry of the canonical codes (`EXECUTION_ERROR`, the code of an unregistered reason)
  const files = sourceFiles().filter((f) => !REGISTRY_FILES.includes(f) && f !== 'core/codes.ts');
  it('are never written as literals outside the registries', () => {
    const bare: string[] = [];
    for (const f of files) {
      for (const l of scan(f).literals) {
        // a whole literal that is a code, an old code (a registry key alone), or any other SCREAMING_SNAKE word
        const t = l.text.trim();
        const codeLike = codes.has(t) || (keys.has(t) && !NOT_CODE_WORDS.has(t)) || (SNAKE.test(t) && !NOT_CODES.has(t));
        // a code inside a longer text (a message, a hint)
        const inside = (l.text.match(CODE_TOKEN) ?? []).filter((x) => codes.has(x));
        if (codeLike) bare.push(`${f}:${l.line}: ${JSON.stringify(t)}`);
        for (const x of inside) if (x !== t) bare.push(`${f}:${l.line}: ${x} inside ${JSON.stringify(l.text.slice(0, 60))}`);
      }
    }
    expect(bare).toEqual([]);
  });

  it('named in comments exist', () => {
    const unknown: string[] = [];
    for (const f of files) for (const t of scan(f).comments.match(CODE_TOKEN) ?? []) if (!codes.has(t)) unknown.push(`${f}: ${t}`);
    expect(unknown).toEqual([]);
  });
});
