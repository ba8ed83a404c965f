/**
 * Approvers: who answers approval requests. `approveAll` and `denyAll` answer without asking
 * (the CLI's `--yes` and `--deny`, and tests); `terminalApprover` asks a person on a text stream
 * pair (a terminal, or streams in tests), one request at a time.
 */
import { isRecord } from '../core/json.js';
import { err, ok, type Result } from '../core/result.js';
import { createInterface, type Interface } from 'node:readline';
import type { ApprovalRequest, ApprovalResponse, Approver } from './approvals.js';

// -------------------------------------------------------------------------------------------------
// scripted
// -------------------------------------------------------------------------------------------------

/** Approves everything (`--yes`). */
export const approveAll: Approver = async () => ({ approved: true });

/** Refuses everything (`--deny`). */
export const denyAll: Approver = async () => ({ approved: false, message: 'approval was refused (the run denies every call that needs approval)' });

/** Answers with `fn` (sync or async); a throw is a refusal. For tests and programmatic policies. */
export const approverFrom =
  (fn: (request: ApprovalRequest) => ApprovalResponse | Promise<ApprovalResponse>): Approver =>
  async (request) => {
    try {
      return await fn(request);
    } catch (e) {
      return { approved: false, message: `the approver failed: ${e instanceof Error ? e.message : String(e)}` };
    }
  };

// -------------------------------------------------------------------------------------------------
// terminal
// -------------------------------------------------------------------------------------------------

export interface TerminalApproverOptions {
  /** Where answers are read, line by line (the CLI passes its stdin). */
  readonly input: NodeJS.ReadableStream;
  /** Where prompts are written (the CLI passes its stderr, keeping stdout for results). */
  readonly output: (text: string) => void;
  /** Longest string argument shown in full (longer ones are cut, saying how much is hidden). Default 2,000. */
  readonly maxShownChars?: number;
}

export type TerminalApprover = Approver & {
  /** Stops reading the input. */
  readonly close: () => void;
};

/**
 * Asks on a terminal: shows the tool, the reason and the arguments, then reads `y` (approve),
 * `n` or an empty line (refuse) or `e` (approve with new arguments typed as JSON on one line).
 * The end of the input refuses. Requests made at the same time are asked one after the other.
 */
export const terminalApprover = (options: TerminalApproverOptions): TerminalApprover => {
  const maxShown = options.maxShownChars ?? 2000;
  const lines = lineReader(options.input);
  let queue: Promise<unknown> = Promise.resolve();

  const askOne = async (request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalResponse> => {
    const out = options.output;
    out(`\n${request.tool} needs your approval: ${request.reason}\n`);
    out(`  step: ${request.stepId}\n  arguments:\n${indent(JSON.stringify(shorten(request.args, maxShown), null, 2) ?? '{}', '    ')}\n`);
    for (let attempt = 0; attempt < 5; attempt++) {
      out('Approve? [y]es, [n]o, [e]dit arguments: ');
      const answer = await lines.next(signal);
      if (answer === undefined) {
        out('\n');
        return { approved: false, message: 'approval was not given (no answer)' };
      }
      const a = answer.trim().toLowerCase();
      if (a === 'y' || a === 'yes') return { approved: true };
      if (a === 'n' || a === 'no' || a === '') return { approved: false, message: 'the user refused this call' };
      if (a === 'e' || a === 'edit') {
        for (let tries = 0; tries < 3; tries++) {
          out('New arguments, as a JSON object on one line: ');
          const text = await lines.next(signal);
          if (text === undefined) {
            out('\n');
            return { approved: false, message: 'approval was not given (no answer)' };
          }
          const parsed = parseObject(text);
          if (parsed.ok) return { approved: true, modifiedArgs: parsed.value };
          out(`  ${parsed.error}\n`);
        }
        return { approved: false, message: 'the user did not give valid arguments' };
      }
      out(`  please answer y, n or e\n`);
    }
    return { approved: false, message: 'approval was not given (no valid answer)' };
  };

  const approver = (request: ApprovalRequest, opts?: { readonly signal?: AbortSignal }): Promise<ApprovalResponse> => {
    const next = queue
      .then(() => askOne(request, opts?.signal))
      .catch((e: unknown) => ({ approved: false, message: `asking failed: ${e instanceof Error ? e.message : String(e)}` }));
    queue = next;
    return next;
  };
  return Object.assign(approver, { close: () => lines.close() });
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

interface LineReader {
  /** The next line, or undefined at the end of the input (or when `signal` aborts). */
  readonly next: (signal?: AbortSignal) => Promise<string | undefined>;
  readonly close: () => void;
}

/** Lines of a stream, read on demand; created lazily so an unused approver never touches the input. */
const lineReader = (input: NodeJS.ReadableStream): LineReader => {
  let rl: Interface | undefined;
  let ended = false;
  const buffered: string[] = [];
  const waiting: Array<(line: string | undefined) => void> = [];
  const start = (): void => {
    if (rl !== undefined || ended) return;
    rl = createInterface({ input, crlfDelay: Infinity, terminal: false });
    rl.on('line', (line) => {
      const w = waiting.shift();
      if (w !== undefined) w(line);
      else buffered.push(line);
    });
    rl.on('close', () => {
      ended = true;
      for (const w of waiting.splice(0)) w(undefined);
    });
  };
  return {
    next: (signal) => {
      if (buffered.length > 0) return Promise.resolve(buffered.shift());
      if (ended || signal?.aborted === true) return Promise.resolve(undefined);
      start();
      return new Promise((resolve) => {
        const done = (line: string | undefined): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve(line);
        };
        const onAbort = (): void => {
          const k = waiting.indexOf(done);
          if (k >= 0) waiting.splice(k, 1);
          resolve(undefined);
        };
        waiting.push(done);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    close: () => {
      ended = true;
      rl?.close();
      for (const w of waiting.splice(0)) w(undefined);
    },
  };
};

const parseObject = (text: string): Result<Record<string, unknown>, string> => {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return err(`not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!isRecord(v)) return err('the arguments must be a JSON object ({...})');
  return ok(v as Record<string, unknown>);
};

const indent = (text: string, pad: string): string =>
  text
    .split('\n')
    .map((l) => pad + l)
    .join('\n');

/** A copy with long strings cut, for display only. */
const shorten = (v: unknown, max: number, depth = 0): unknown => {
  if (typeof v === 'string') return v.length > max ? `${v.slice(0, max)}… (${v.length - max} more characters)` : v;
  if (depth > 20 || typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map((x) => shorten(x, max, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shorten(x, max, depth + 1)]));
};
