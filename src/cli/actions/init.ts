/**
 * `gramkit init [dir]`: writes a project a new user can run at once: `greeter.gram` (a tool and an
 * agent, its header naming the library), `greeter-tools.d.ts` (the handler types `gramkit types`
 * writes), `greetings.mjs` (the library: `implement` with one handler per tool, type-checked
 * through JSDoc, so it runs without a TypeScript loader), `greetings.test.mjs` (a test of the tool:
 * vitest when the project's package.json has it, else node's test runner) and, when the folder has
 * none, a `package.json` with the scripts. Then it prints the commands to check, invoke, run and
 * test it. It writes nothing when any of these files exists.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { isLeft } from '../../core/either.js';
import { parseSpecifications } from '../../specification/load.js';
import { toolsToTypeScript } from '../../specification/to-typescript.js';
import { VERSION } from '../version.js';
import { EXIT_FAILURE, EXIT_OK, type CommandContext } from '../context.js';
import { reportError, usageError } from '../report.js';
import { CliCodes } from '../codes.js';

// -------------------------------------------------------------------------------------------------
// the files
// -------------------------------------------------------------------------------------------------

const GRAM = `{library: "./greetings.mjs"}

[greet:Tool {description: "Greets a person by name"} |
  (name::String {description: "Who to greet", minLength: 1}) ==>
  (excited::Boolean {description: "End with !", default: true}) ==>
  (::String)
]

[greeter:Agent {
  description: "Greets people",
  instruction: "When someone tells you their name, call greet with it."
} | greet]
`;

const TYPES_COMMAND = 'gramkit types greeter.gram -o greeter-tools.d.ts';

const LIBRARY = `// @ts-check
/**
 * The tools of greeter.gram: one handler per tool, by name. The names, descriptions and schemas come
 * from the file; the handler types from greeter-tools.d.ts (regenerate it when the file changes:
 * npx ${TYPES_COMMAND}).
 */
import { implement } from "gramkit";

/** @type {import("gramkit").Handlers<import("./greeter-tools.js").Tools>} */
export const handlers = {
  greet: ({ name, excited }) => \`Hello, \${name}\${excited ? "!" : "."}\`,
};

export default await implement(new URL("./greeter.gram", import.meta.url), handlers);
`;

const NODE_TEST = `import assert from "node:assert/strict";
import { test } from "node:test";
import { toolNames } from "gramkit";
import library, { handlers } from "./greetings.mjs";

test("the library implements every tool of greeter.gram", () => {
  assert.deepEqual([...toolNames(library)], ["greet"]);
});

test("greet greets by name", async () => {
  assert.equal(await handlers.greet({ name: "Ada", excited: true }, { signal: AbortSignal.timeout(1000), toolName: "greet" }), "Hello, Ada!");
  assert.equal(await handlers.greet({ name: "Ada", excited: false }, { signal: AbortSignal.timeout(1000), toolName: "greet" }), "Hello, Ada.");
});
`;

const VITEST_TEST = `import { expect, it } from "vitest";
import { toolNames } from "gramkit";
import library, { handlers } from "./greetings.mjs";

it("the library implements every tool of greeter.gram", () => {
  expect([...toolNames(library)]).toEqual(["greet"]);
});

it("greet greets by name", async () => {
  expect(await handlers.greet({ name: "Ada", excited: true }, { signal: AbortSignal.timeout(1000), toolName: "greet" })).toBe("Hello, Ada!");
  expect(await handlers.greet({ name: "Ada", excited: false }, { signal: AbortSignal.timeout(1000), toolName: "greet" })).toBe("Hello, Ada.");
});
`;

/** The commands the project is tried with, in order: check, invoke, run, test. */
export const initCommands = (runner: 'vitest' | 'node'): ReadonlyArray<string> => [
  'npx gramkit check greeter.gram --library greetings.mjs',
  `npx gramkit invoke greeter.gram --tool greet --args '{"name": "Ada"}'`,
  `npx gramkit run greeter.gram "Hello, I'm Ada"`,
  runner === 'vitest' ? 'npx vitest run greetings.test.mjs' : 'node --test greetings.test.mjs',
];

// -------------------------------------------------------------------------------------------------
// the command
// -------------------------------------------------------------------------------------------------

const exists = async (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/** The package.json of the folder, if it has one that parses. */
const readManifest = async (dir: string): Promise<Record<string, unknown> | undefined> => {
  try {
    const value: unknown = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

const hasDependency = (manifest: Record<string, unknown> | undefined, name: string): boolean =>
  ['dependencies', 'devDependencies'].some((k) => {
    const deps = manifest?.[k];
    return typeof deps === 'object' && deps !== null && Object.hasOwn(deps, name);
  });

export const action = async (ctx: CommandContext, dir: string): Promise<number> => {
  const target = isAbsolute(dir) ? dir : resolve(ctx.io.cwd, dir);
  const manifest = await readManifest(target);
  const hasManifest = await exists(join(target, 'package.json'));
  const runner = hasDependency(manifest, 'vitest') ? 'vitest' : 'node';
  const commands = initCommands(runner);
  const specs = parseSpecifications(GRAM, { filename: 'greeter.gram' });
  if (isLeft(specs)) throw new Error('gramkit init: its own greeter.gram does not load');
  const files: Array<readonly [string, string]> = [
    ['greeter.gram', GRAM],
    [
      'greeter-tools.d.ts',
      toolsToTypeScript(specs.right.tools, { header: `Generated by \`${TYPES_COMMAND}\`: do not edit; regenerate when the specification changes.` }),
    ],
    ['greetings.mjs', LIBRARY],
    ['greetings.test.mjs', runner === 'vitest' ? VITEST_TEST : NODE_TEST],
  ];
  if (!hasManifest) {
    const scripts = { check: commands[0]?.replace(/^npx /, ''), test: (commands[3] as string).replace(/^npx /, ''), types: TYPES_COMMAND };
    const name =
      basename(target)
        .toLowerCase()
        .replace(/[^a-z0-9-._]+/g, '-')
        .replace(/^[-._]+/, '') || 'greeter';
    files.push(['package.json', `${JSON.stringify({ name, private: true, type: 'module', scripts, dependencies: { gramkit: `^${VERSION}` } }, null, 2)}\n`]);
  }
  const taken = [];
  for (const [name] of files) if (await exists(join(target, name))) taken.push(name);
  if (taken.length > 0) {
    usageError(ctx.io, `${dir} already has ${taken.join(', ')}: init writes nothing rather than overwrite (choose an empty folder: gramkit init <dir>)`);
    return EXIT_FAILURE;
  }
  try {
    await mkdir(target, { recursive: true });
    for (const [name, text] of files) await writeFile(join(target, name), text, { encoding: 'utf8', flag: 'wx' });
  } catch (e) {
    reportError(ctx.io, { reason: CliCodes.UNWRITABLE, message: `cannot write into ${dir}: ${(e as Error).message}` });
    return EXIT_FAILURE;
  }
  const cd = dir === '.' ? [] : [`cd ${/^[\w./-]+$/.test(dir) ? dir : `'${dir.replace(/'/g, `'\\''`)}'`}`];
  const install = hasDependency(manifest, 'gramkit') ? [] : ['npm install gramkit'];
  ctx.io.stdout(
    [
      `wrote ${files.map(([n]) => n).join(', ')}${dir === '.' ? '' : ` into ${dir}`}`,
      '',
      'check the file and its library, call the tool, run the agent (on the offline demo model), test the tool:',
      '',
      ...[...cd, ...install, ...commands].map((c) => `  ${c}`),
      '',
      `after changing greeter.gram: npx ${TYPES_COMMAND}`,
      '',
    ].join('\n'),
  );
  return EXIT_OK;
};
