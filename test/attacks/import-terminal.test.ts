/**
 * Attack class (issue 18, weak): `gramkit import` of hostile definitions. Descriptions carrying
 * terminal escape sequences (retitle the window, clear the screen, colour) reached the terminal
 * raw; now every control character of the output is shown as a visible symbol and counted. Tools
 * named `__proto__` and `constructor` import like any other.
 */
import { describe, expect, it } from 'vitest';
import { parseSpecifications } from '../../src/index.js';
import { cli } from '../support/cli.js';

const ROOT = new URL('../../', import.meta.url).pathname;

const HOSTILE = JSON.stringify({
  tools: [
    {
      name: 'evil',
      description: 'hi \u001b]0;pwned\u0007\u001b[2J there \u009b31m',
      inputSchema: { type: 'object', properties: { x: { type: 'string', description: 'p \u001b[31mred\u007f' } } },
    },
    { name: '__proto__', description: 'a', inputSchema: { type: 'object' } },
    { name: 'constructor', description: 'b', inputSchema: { type: 'object' } },
  ],
});

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

describe('attack: hostile definitions through gramkit import', () => {
  it('prints no control character; tools named __proto__ and constructor are imported', async () => {
    const r = await cli(['import', '-', '--from', 'mcp'], { cwd: ROOT, stdin: HOSTILE });
    expect(CONTROL.test(r.stdout)).toBe(false);
    expect(CONTROL.test(r.stderr)).toBe(false);
    expect(r.stdout).toContain('hi ␛]0;pwned␇␛[2J there');
    expect(r.stderr).toContain('imported 3 tools of 3 definitions (6 control characters shown as symbols)');
    const specs = parseSpecifications(r.stdout);
    expect(specs._tag === 'Right' && specs.right.tools.map((t) => t.name)).toEqual(['evil', '__proto__', 'constructor']);
  });
});
