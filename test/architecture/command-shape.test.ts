/**
 * Commands of one shape: each command module (src/cli/commands/) loads its action and sets the exit
 * code from what the action returns, `ctx.exit(await action(ctx, …))`; each action
 * (src/cli/actions/<command>.ts) is `action(ctx, …, options): Promise<number>` and never sets the
 * exit code itself; and nothing under src/cli/actions/ writes a failure's prefix by hand: failures
 * go through the one renderer (src/cli/report.ts: `error[REASON]: message` + `  hint: …`, and
 * `warning[REASON]: message`), diagnostics through theirs (core/format-diagnostic.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../src/cli/', import.meta.url));

const read = (path: string): string => readFileSync(join(CLI, path), 'utf8');
const tsFiles = (dir: string): string[] => readdirSync(join(CLI, dir)).filter((f) => f.endsWith('.ts'));

/** The command modules (index.ts lists them; it is not one). */
const commands = tsFiles('commands').filter((f) => f !== 'index.ts');

/** Lines of `text` matching `re`, as `file:line: text`, for a message that says where. */
const where = (file: string, text: string, re: RegExp): string[] =>
  text
    .split('\n')
    .map((line, i) => [line, i + 1] as const)
    .filter(([line]) => re.test(line))
    .map(([line, n]) => `${file}:${n}: ${line.trim()}`);

/**
 * A prefix written by hand in a string: `error:`, `warning:`, `error[X]:`, `warning[${code}]:`, and
 * `gramkit: ` (a command's status lines, `gramkit serve: listening …`, name the command; the one
 * `gramkit: trace:` line is GRAMKIT_TRACE's documented format).
 */
const HAND_MADE = /['"`](?:gramkit(?: \w+)?: )?(?:error|warning)(?:\[[^\]]*\])?: |['"`]gramkit: (?!trace: )/;

describe('commands of one shape', () => {
  it('finds the commands and the actions it checks', () => {
    expect(commands.length).toBeGreaterThanOrEqual(16);
    for (const c of commands) expect(tsFiles('actions')).toContain(c);
  });

  it.each(commands)('commands/%s sets the exit code from what its action returns, and only there', (file) => {
    const text = read(join('commands', file));
    const calls = where(file, text, /(?<![.\w])action\(/);
    expect(calls.length, `${file} calls no action`).toBeGreaterThan(0);
    expect(calls.filter((l) => !/ctx\.exit\(await action\(ctx\b/.test(l))).toEqual([]);
    expect(where(file, text, /\bexit\(/).filter((l) => !/ctx\.exit\(await action\(ctx\b/.test(l))).toEqual([]);
  });

  it.each(commands)('actions/%s exports action(ctx, …): Promise<number>', (file) => {
    const text = read(join('actions', file));
    expect(text).toMatch(/export const action = async \(\s*ctx: CommandContext\b[\s\S]*?\): Promise<number> =>/);
  });

  it('no action sets the exit code (it returns it) or writes a failure prefix by hand', () => {
    const found = tsFiles('actions').flatMap((file) => {
      const text = read(join('actions', file));
      return [...where(file, text, /\.exit\(/), ...where(file, text, HAND_MADE)];
    });
    expect(found).toEqual([]);
  });

  it('the pattern sees the prefixes it forbids, and lets the documented lines through', () => {
    const bad = [
      '`gramkit: warning: --catalog ${x}`',
      "'error: no file'",
      '`warning[${d.code}]: x`',
      '`gramkit: ${opened.error}`',
      "'gramkit serve: warning: x'",
    ];
    const good = ['`gramkit: trace: parse ${f}`', '`gramkit serve: listening on ${url}`', "'an error: in words'", "{ valid: false, error: 'x' }"];
    expect(bad.filter((s) => !HAND_MADE.test(s))).toEqual([]);
    expect(good.filter((s) => HAND_MADE.test(s))).toEqual([]);
  });
});
