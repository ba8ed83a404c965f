/**
 * A small consumer compiled with strict TypeScript against the built package's declarations
 * (dist/*.d.ts, as a user's project sees them): it type-checks, and the files the compiler reads
 * are gramkit's own declarations plus fp-ts's Either, never the types of an implementation
 * dependency (immutable, undici, ajv, chevrotain, OpenTelemetry) or of an optional peer.
 *
 * io-ts is read too: the root's codec functions share a declaration chunk with the io-ts codecs
 * that `gramkit/types` exports (spec/codecs.ts holds both); splitting that module would drop it.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    execFile(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), ...args], { cwd: project, timeout: 120_000, maxBuffer: 16 << 20 }, (error, stdout) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout }),
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
    const packages = new Set(files.map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f.slice(f.lastIndexOf('node_modules/')))?.[1]).filter((p) => p !== undefined));
    expect([...packages].sort()).toEqual(['fp-ts', 'io-ts', 'typescript']);
    const gramkit = files.filter((f) => f.startsWith(`${root}/dist/`));
    expect(gramkit.length).toBeGreaterThan(0);
    // the figures for the record (printed, never asserted)
    const figure = (name: string): string => new RegExp(`^${name}:\\s+(.+)$`, 'm').exec(r.stdout)?.[1] ?? '?';
    console.log(`consumer type-check: ${files.length} declaration files, total time ${figure('Total time')}, memory ${figure('Memory used')}`);
  });
});
