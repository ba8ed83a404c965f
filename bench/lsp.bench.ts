/**
 * `gramkit lsp`: how long after a change of a 2,000-line `.gram` file its diagnostics arrive,
 * through a real client over stdio (the server is the built CLI, `dist/cli.js lsp`). Each round
 * changes one line (alternately breaking and fixing a type name) and times the change notification
 * until the `publishDiagnostics` of that version. The baseline, in the same run: loading the same
 * text with `loadSpecifications` in this process (what the server cannot do with less). Target:
 * within 100 ms.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node.js';
import { loadSpecifications } from '../src/index.js';
import { median, timeOnce } from './harness.js';

const LINES = 2000;

/** 2,000 lines: tools of three lines each, an agent every 20 tools. */
const documentText = (): string => {
  const out: string[] = [];
  for (let i = 0; out.length < LINES - 2; i++) {
    out.push(
      `[tool_${i}:Tool {description: "Tool number ${i}"} |`,
      `  (city::String {minLength: 1})==>(days::Integer {range: 1..7, default: 1})==>(::String)`,
      ']',
    );
    if (i % 20 === 19) out.push(`[agent_${i}:Agent {description: "Agent ${i}", instruction: "Use the tools."} | tool_${i}, tool_${i - 1}]`);
  }
  return `${out.slice(0, LINES).join('\n')}\n`;
};

export default async function lspBench(): Promise<void> {
  const root = new URL('../', import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), 'gramkit-lsp-bench-'));
  const child = spawn(process.execPath, [join(root, 'dist/cli.js'), 'lsp'], { cwd: dir, stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiting = new Map<number, () => void>();
  connection.onNotification('textDocument/publishDiagnostics', (p: { version?: number }) => waiting.get(p.version ?? -1)?.());
  connection.listen();
  try {
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(dir).href, capabilities: {} });
    await connection.sendNotification('initialized', {});
    const uri = pathToFileURL(join(dir, 'big.gram')).href;
    const text = documentText();
    const published = (version: number): Promise<void> => new Promise((r) => waiting.set(version, r));
    let version = 1;
    const first = published(version);
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'gram', version, text } });
    await first;
    const rounds: number[] = [];
    for (let i = 0; i < 30; i++) {
      version++;
      const done = published(version);
      const broken = i % 2 === 0;
      rounds.push(
        await timeOnce(async () => {
          await connection.sendNotification('textDocument/didChange', {
            textDocument: { uri, version },
            contentChanges: [{ range: { start: { line: 1, character: 9 }, end: { line: 1, character: broken ? 15 : 14 } }, text: broken ? 'Strin' : 'String' }],
          });
          await done;
        }),
      );
    }
    const load = median(await Promise.all(Array.from({ length: 10 }, () => timeOnce(() => loadSpecifications([{ text }])))));
    const p50 = median(rounds);
    const p95 = [...rounds].sort((a, b) => a - b)[Math.floor(rounds.length * 0.95)] as number;
    process.stdout.write(
      `lsp diagnostics after a change, ${LINES} lines: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (target ≤ 100 ms); loadSpecifications of the same text in-process: ${load.toFixed(1)} ms (server/load ${(p50 / load).toFixed(2)}×)\n`,
    );
  } finally {
    await connection.sendRequest('shutdown').catch(() => undefined);
    await connection.sendNotification('exit').catch(() => undefined);
    connection.dispose();
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
