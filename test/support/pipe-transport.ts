/**
 * An MCP client transport over two in-process streams (newline-delimited JSON, as stdio): a client
 * of the SDK talks to `serveMcpStdio` (or the SDK's `serveStdio`) without a child process.
 */
import { PassThrough } from 'node:stream';

export interface PipePair {
  /** What the server reads (its stdin). */
  readonly toServer: PassThrough;
  /** What the server writes (its stdout). */
  readonly toClient: PassThrough;
  /** The client's transport (give it to `client.connect`). */
  readonly transport: {
    onmessage?: (m: unknown) => void;
    onclose?: () => void;
    onerror?: (e: Error) => void;
    start: () => Promise<void>;
    send: (m: unknown) => Promise<void>;
    close: () => Promise<void>;
  };
}

export const pipePair = (): PipePair => {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  let buffer = '';
  const transport: PipePair['transport'] = {
    start: async () => {
      toClient.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        let i: number;
        while ((i = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, i);
          buffer = buffer.slice(i + 1);
          if (line.trim() !== '') transport.onmessage?.(JSON.parse(line));
        }
      });
    },
    send: async (m) => void toServer.write(`${JSON.stringify(m)}\n`),
    close: async () => {
      toServer.end();
      transport.onclose?.();
    },
  };
  return { toServer, toClient, transport };
};
