/**
 * The project layer from a program of your own (`gramkit/project`): load a specification file
 * once, resolve the library that implements its tools by the CLI's rule (here the header's
 * `{library: "./hello-library.ts"}`), choose who approves calls, and invoke a tool.
 *
 *   npx tsx examples/project-basics.ts
 *
 * Run under tsx, the TypeScript library is imported as node does; under plain node, pass
 * `defaultLoaders({ cwd, importTs })` or give a compiled .js module (else PROJECT_LIBRARY_NEEDS_TSX).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bindTool, formatBindError, invoke } from 'gramkit';
import { chooseApprover, defaultLoaders, loadProjectFile, resolveLibrary } from 'gramkit/project';

export const projectBasics = async (): Promise<ReadonlyArray<string>> => {
  const path = fileURLToPath(new URL('./helloAgent.gram', import.meta.url));
  const folder = fileURLToPath(new URL('.', import.meta.url));

  // 1. the file, parsed once: its specifications and its header's library
  const source = { name: 'helloAgent.gram', path, text: await readFile(path, 'utf8'), builtin: false, format: 'gram' as const };
  const file = await loadProjectFile(source, { cwd: folder });
  if (file._tag === 'Left') return file.left.diagnostics.map((d) => d.message);
  const tools = file.right.specs.tools;
  const out = [`tools: ${tools.map((t) => t.name).join(', ')}`, `header library: ${file.right.header.library?.replace(folder, '') ?? 'none'}`];

  // 2. the library, by the one rule: --library (none here), else the header's, then declared and
  //    built-in tools, each made as the CLI makes it (modules relative to cwd, tools confined to it)
  const resolved = await resolveLibrary(
    { tools, given: [], ...(file.right.header.library !== undefined ? { header: file.right.header.library } : {}) },
    defaultLoaders({ cwd: folder }),
  );
  if (!resolved.ok) return [...out, `no library: ${resolved.error.kind}`];

  // 3. who approves: --deny's choice (nothing here needs approval)
  const { approver, close } = chooseApprover({ deny: true });
  close();
  out.push(`approver: ${approver !== undefined ? 'refuses every call that needs approval' : 'the default'}`);

  // 4. the specification bound to the library's tool, and a call
  const [spec] = tools;
  if (spec === undefined) return [...out, 'no tool'];
  const sayHello = bindTool(spec, resolved.value.library);
  if (sayHello._tag === 'Left') return [...out, ...sayHello.left.map(formatBindError)];
  const result = await invoke(sayHello.right, { personName: 'Alice' });
  out.push(result.ok ? `sayHello: ${String(result.value)}` : `sayHello failed: ${result.error.code}`);
  return out;
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) for (const line of await projectBasics()) console.log(line);
