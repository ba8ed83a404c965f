/**
 * A small consumer compiled with strict TypeScript against the built package's declarations
 * (dist/*.d.ts, as a user's project sees them): it type-checks, and the files the compiler reads
 * are gramkit's own declarations plus fp-ts's Either, never the types of an implementation
 * dependency (immutable, undici, ajv, chevrotain, OpenTelemetry, io-ts) or of an optional peer.
 *
 * And, for every entry of the package (both the ESM and the CommonJS declarations), the packages
 * its declarations import, following the shared chunks they import: only fp-ts (its `Either` is
 * part of the API), Node's own modules and the entry's optional peers. io-ts belongs to
 * `gramkit/types` alone (it exports the io-ts codecs of the JSON form); the root's decoders keep
 * io-ts out of their types (specification/json-form.ts against specification/json-codecs.ts).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const project = mkdtempSync(join(tmpdir(), 'gramkit-consumer-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

const CONSUMER = `import { bindTool, createTool, invoke, parseTypeSignature, runAgent, toolLibrary, type AgentResult, type ToolResult } from 'gramkit';

const spec = parseTypeSignature('(city::String)==>(::String)');
const weather = createTool('weather', 'Weather in a city', { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, (args: { city: string }) => \`sunny in \${args.city}\`);
const library = toolLibrary([weather]);
export const check = async (): Promise<ToolResult | AgentResult | undefined> => (spec._tag === 'Right' && library !== undefined ? undefined : undefined);
export { bindTool, invoke, runAgent };
`;

const tsc = (args: ReadonlyArray<string>): Promise<{ code: number; stdout: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), ...args],
      { cwd: project, timeout: 120_000, maxBuffer: 16 << 20 },
      (error, stdout) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout }),
    );
  });

describe('the public declarations, as a consumer compiles them', { timeout: 150_000 }, () => {
  it('type-check strictly and read no implementation dependency’s types', async () => {
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(root, join(project, 'node_modules', 'gramkit'), 'dir');
    writeFileSync(join(project, 'consumer.ts'), CONSUMER);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: false, types: [] },
        files: ['consumer.ts'],
      }),
    );
    const r = await tsc(['-p', '.', '--listFiles', '--extendedDiagnostics']);
    expect(r.code, r.stdout).toBe(0);
    const files = r.stdout.split('\n').filter((l) => l.endsWith('.d.ts') || l.endsWith('.d.cts') || l.endsWith('.d.mts'));
    const packages = new Set(
      files.map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f.slice(f.lastIndexOf('node_modules/')))?.[1]).filter((p) => p !== undefined),
    );
    expect([...packages].sort()).toEqual(['fp-ts', 'typescript']);
    const gramkit = files.filter((f) => f.startsWith(`${root}/dist/`));
    expect(gramkit.length).toBeGreaterThan(0);
    // the figures for the record (printed, never asserted)
    const figure = (name: string): string => new RegExp(`^${name}:\\s+(.+)$`, 'm').exec(r.stdout)?.[1] ?? '?';
    console.log(`consumer type-check: ${files.length} declaration files, total time ${figure('Total time')}, memory ${figure('Memory used')}`);
  });
});

// -------------------------------------------------------------------------------------------------
// every entry's declarations, walked through the chunks they import
// -------------------------------------------------------------------------------------------------

interface Manifest {
  readonly exports: Record<string, string | { readonly import: { readonly types: string }; readonly require: { readonly types: string } }>;
  readonly peerDependencies: Record<string, string>;
}
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;

/** Implementation dependencies whose types must not reach a consumer (io-ts: only through `gramkit/types`). */
const IMPLEMENTATION = ['io-ts', 'immutable', 'undici', 'hono', '@hono/node-server', 'chevrotain', 'ajv', '@opentelemetry/api', '@redis/client'];
/** What an entry may import besides fp-ts and Node: an optional peer in its own entry only; io-ts in `gramkit/types`, whose codecs are io-ts values. */
const PEERS_OF: Readonly<Record<string, ReadonlyArray<string>>> = {
  'gramkit/mcp': ['@modelcontextprotocol/client', '@modelcontextprotocol/server'],
  'gramkit/ai-sdk': ['ai'],
  'gramkit/zod': ['zod'],
  'gramkit/testing': ['fast-check'],
  'gramkit/types': ['io-ts'],
};

/** The package a module specifier names (`node:` for Node's own modules), or undefined for a relative one. */
const packageOf = (specifier: string): string | undefined => {
  if (specifier.startsWith('.')) return undefined;
  if (isBuiltin(specifier)) return 'node:';
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
};

/** `./chunk-x.js` imported from a `.d.ts` is `./chunk-x.d.ts` (`.cjs` → `.d.cts`, `.mjs` → `.d.mts`). */
const declarationOf = (from: string, specifier: string): string =>
  resolve(dirname(from), specifier).replace(/\.(c|m)?js$/, (_m, k: string | undefined) => `.d.${k ?? ''}ts`);

/**
 * The declaration files reachable from `file` through relative imports, and the external packages
 * they import, each with a file that imports it.
 */
const reach = (file: string): { readonly files: ReadonlySet<string>; readonly packages: ReadonlyMap<string, string> } => {
  const found = new Map<string, string>();
  const seen = new Set<string>();
  const todo = [file];
  for (let f = todo.pop(); f !== undefined; f = todo.pop()) {
    if (seen.has(f)) continue;
    seen.add(f);
    const info = ts.preProcessFile(readFileSync(f, 'utf8'), true, true);
    for (const { fileName } of [...info.importedFiles, ...info.typeReferenceDirectives]) {
      const p = packageOf(fileName);
      if (p === undefined) todo.push(declarationOf(f, fileName));
      else if (!found.has(p)) found.set(p, f.slice(root.length + 1));
    }
    for (const { fileName } of info.referencedFiles) todo.push(resolve(dirname(f), fileName));
  }
  return { files: seen, packages: found };
};

const DECLARATIONS = Object.entries(manifest.exports).flatMap(([key, target]) =>
  typeof target === 'string'
    ? []
    : [
        { entry: key === '.' ? 'gramkit' : `gramkit/${key.slice(2)}`, file: join(root, target.import.types) },
        { entry: key === '.' ? 'gramkit' : `gramkit/${key.slice(2)}`, file: join(root, target.require.types) },
      ],
);

describe('the packages each entry’s declarations import', () => {
  it('covers every entry, in both formats', () => {
    for (const peers of Object.values(PEERS_OF)) for (const p of peers) expect(p === 'io-ts' || p in manifest.peerDependencies, p).toBe(true);
    expect(DECLARATIONS.length).toBe(2 * (Object.keys(manifest.exports).length - 1));
    expect(DECLARATIONS.some((d) => d.file.endsWith('.d.cts'))).toBe(true);
  });

  for (const { entry, file } of DECLARATIONS) {
    it(`${entry} (${file.slice(root.length + 1)}) imports fp-ts, Node and its own peers only`, () => {
      const { files, packages: found } = reach(file);
      // the walk follows the shared chunks (every entry imports some: Diagnostic, Either)
      expect(files.size).toBeGreaterThan(1);
      const allowed = new Set(['fp-ts', 'node:', ...(PEERS_OF[entry] ?? [])]);
      const report = [...found].map(([p, by]) => `${p} (imported by ${by})`);
      expect(
        [...found.keys()].filter((p) => IMPLEMENTATION.includes(p) && !allowed.has(p)),
        report.join(', '),
      ).toEqual([]);
      expect(
        [...found.keys()].filter((p) => !allowed.has(p)),
        report.join(', '),
      ).toEqual([]);
      if (entry === 'gramkit') expect([...found.keys()].sort()).toEqual(['fp-ts']);
      if (entry === 'gramkit/types') expect(found.has('io-ts')).toBe(true);
    });
  }
});
