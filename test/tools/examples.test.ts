import { describe, expect, it } from 'vitest';
import { main } from '../../examples/declarative-tools.js';

describe('examples/declarative-tools.ts (http-tools.gram, command-tools.gram)', () => {
  it('runs every declared tool', async () => {
    const lines: string[] = [];
    expect(await main((l) => lines.push(l))).toBe(0);
    expect(lines).toEqual([
      'tools: create_note, find_lines, weather, word_count',
      'weather {"city":"Paris"} -> {"ok":true,"value":"Partly cloudy"}',
      'create_note {"title":"Groceries","text":"milk, \\"good\\" bread"} -> {"ok":true,"value":"note-9"}',
      'word_count {"text":"one two three\\nfour five\\n"} -> {"ok":true,"value":{"output":"      2       5      24\\n"}}',
      'find_lines {"pattern":"Tool \\\\{","file":"command-tools.gram","limit":1} -> {"ok":true,"value":{"output":"5:[word_count:Tool {\\n"}}',
      'find_lines {"pattern":"x","file":"../package.json"} -> {"ok":false,"error":{"code":"INVALID_PATH",' +
        '"reason":"COMMAND_INVALID_PATH","message":"argument \\"file\\": \\"../package.json\\" is outside the workspace","details":{"argument":"file"},"retryable":false}}',
    ]);
  });
});
