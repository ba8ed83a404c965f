/**
 * The built-in tools, end to end: bind the built-in specifications to the built-in library for a
 * workspace, then call the tools as a model would (arguments validated, results checked against
 * the output schemas). Run it: `npx tsx examples/builtin-tools.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bindAll, invokeByName, type ToolResult } from 'gramkit';
import { builtinLibrary, builtinSpecifications } from 'gramkit/builtins';

export const builtinToolsTour = async (): Promise<string[]> => {
  const workspace = mkdtempSync(join(tmpdir(), 'gramkit-example-'));
  const out: string[] = [];
  const show = (r: ToolResult): string => (r.ok ? `ok ${JSON.stringify(r.value)}` : `${r.error.reason}: ${r.error.message}`);
  try {
    // 1. every built-in specification binds to the built-in library of this workspace
    const bound = bindAll(builtinSpecifications(), builtinLibrary({ workspace }));
    if (bound._tag === 'Left') return [bound.left.map((e) => e.message).join('\n')];
    const call = (tool: string, args: Record<string, unknown>) => invokeByName(bound.right, tool, args);

    // 2. files, confined to the workspace
    out.push(show(await call('write_file', { path: 'notes/todo.md', content: '- [ ] TODO write docs\n', createDirs: true })));
    out.push(show(await call('read_file', { path: 'notes/todo.md' })).replace(/"modified":"[^"]+"/, '"modified":"…"'));
    out.push(show(await call('read_file', { path: '../../etc/passwd' })));

    // 3. search and JSON
    out.push(show(await call('text_search', { pattern: 'TODO \\w+' })));
    out.push(show(await call('json_parse', { text: '{"tools": [{"name": "read_file"}, {"name": "shell"}]}', query: '$.tools[*].name' })));

    // 4. code in the sandbox (or SANDBOX_UNAVAILABLE on a machine without bubblewrap)
    const r = await call('run_code', { language: 'python', code: 'print(sum(range(10)))' });
    out.push(r.ok ? `run_code stdout: ${JSON.stringify((r.value as { stdout: string }).stdout)}` : `run_code: ${r.error.reason}`);

    // 5. the shell refuses dangerous commands before running anything
    out.push(show(await call('shell', { command: 'rm -rf /' })));
    return out;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await builtinToolsTour()) process.stdout.write(`${line}\n`);
}
