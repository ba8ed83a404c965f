/**
 * Standard input for an interactive chat, shared by the chat prompt and the approval prompts: one
 * reader of the stream; while the agent runs, lines go to the approver's input (a stream the
 * terminal approver reads); between turns, they are the user's messages.
 */
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface ChatInput {
  /** The user's next line, or undefined at the end of the input. */
  readonly nextMessage: () => Promise<string | undefined>;
  /** While `f` runs, lines go to `approvals` instead. */
  readonly whileRunning: <T>(f: () => Promise<T>) => Promise<T>;
  /** What the approver reads. */
  readonly approvals: NodeJS.ReadableStream;
  readonly close: () => void;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

export const chatInput = (input: NodeJS.ReadableStream): ChatInput => {
  const approvals = new PassThrough();
  const rl = createInterface({ input, crlfDelay: Infinity, terminal: false });
  const queued: string[] = [];
  const waiting: Array<(line: string | undefined) => void> = [];
  let running = false;
  let ended = false;
  rl.on('line', (line) => {
    if (running) {
      approvals.write(`${line}\n`);
      return;
    }
    const w = waiting.shift();
    if (w !== undefined) w(line);
    else queued.push(line);
  });
  rl.on('close', () => {
    ended = true;
    approvals.end();
    for (const w of waiting.splice(0)) w(undefined);
  });
  return {
    nextMessage: () => {
      const q = queued.shift();
      if (q !== undefined) return Promise.resolve(q);
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve) => waiting.push(resolve));
    },
    whileRunning: async (f) => {
      running = true;
      try {
        return await f();
      } finally {
        running = false;
      }
    },
    approvals,
    close: () => {
      rl.close();
    },
  };
};
