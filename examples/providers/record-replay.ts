/**
 * Record a conversation with a model, then replay it deterministically (no network, no key). The
 * recording here comes from the offline model; with a real model it is the same call:
 * `recordModel(createModel('openai/gpt-4o-mini', {apiKey}), 'hello.replay.json')`.
 *
 *   npx tsx examples/providers/record-replay.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createModel, offlineModel, recordModel } from 'gramkit/providers';
import { type ModelRequest } from 'gramkit';
import { sayHelloTool } from './offline-hello.js';

export const recordReplay = async (): Promise<ReadonlyArray<string>> => {
  const dir = mkdtempSync(join(tmpdir(), 'gramkit-example-'));
  try {
    const file = join(dir, 'hello.replay.json');
    const request: ModelRequest = { messages: [{ role: 'user', content: "Hello, I'm Alice" }], tools: [sayHelloTool] };

    const recorder = recordModel(offlineModel(), file);
    const live = await recorder.generate(request);

    // `replay:<file>` is a model id like any other (the CLI's --model takes it)
    const replay = createModel(`replay:${file}`);
    if (replay._tag === 'Left') return [replay.left.message];
    const again = await replay.right.generate(request);
    const same = JSON.stringify(live) === JSON.stringify(again);

    const other = await replay.right.generate({ ...request, messages: [{ role: 'user', content: "Hello, I'm Bob" }] });
    return [`replayed the same answer: ${same}`, other.ok ? 'unexpected answer' : `${other.error.reason}: ${other.error.message}`];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await recordReplay()) console.log(line);
}
