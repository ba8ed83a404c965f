/**
 * The stdio wire of `serveMcpStdio`: newline-delimited JSON-RPC on two streams, as the SDK's
 * `StdioServerTransport`, with the same behaviour (a line that is not JSON is skipped, a message
 * that is not JSON-RPC is reported through `onerror`, a buffer over 10 MB without a newline is an
 * error that closes the connection, `start` listens, `close` stops listening and tells `onclose`),
 * at a lower cost a message:
 *
 * - a plain request or notification (`jsonrpc`, `id`, `method`, `params` without `_meta`) is
 *   checked by hand; what the SDK's schema would give for it is the parsed object itself, so
 *   anything else (a `_meta`, a response, a malformed message) goes through the SDK's own
 *   `deserializeMessage`, schema and errors included;
 * - a write the stream takes at once settles at once (no listener added and removed a message);
 *   a write that fills the stream settles when it drains, or fails with the stream's error.
 */
import type { Readable, Writable } from 'node:stream';
import { deserializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { isRecord } from '../core/json.js';

/** The SDK's limit of a message without its newline. */
const MAX_BUFFER = 10 * 1024 * 1024;

const RESOLVED: Promise<void> = Promise.resolve();

/** The keys a plain request or notification may have. */
const isEnvelopeKey = (k: string): boolean => k === 'jsonrpc' || k === 'id' || k === 'method' || k === 'params';

/**
 * The message a line holds, when it is a request or notification the SDK's schema passes as it
 * is (its parse would copy it key for key); `undefined` for anything else, which the SDK reads.
 */
const plainMessage = (v: unknown): JSONRPCMessage | undefined => {
  if (!isRecord(v) || v['jsonrpc'] !== '2.0' || typeof v['method'] !== 'string') return undefined;
  const id = v['id'];
  if (id !== undefined && typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return undefined;
  const params = v['params'];
  if (params !== undefined && (!isRecord(params) || '_meta' in params)) return undefined;
  for (const k in v) if (!isEnvelopeKey(k)) return undefined;
  return v as unknown as JSONRPCMessage;
};

/** The message of one line; `undefined` when the line is not JSON (skipped, as the SDK does). */
const readLine = (line: string): JSONRPCMessage | undefined => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  // the SDK's own reading (its schema; a ZodError when the message is not JSON-RPC)
  return plainMessage(parsed) ?? deserializeMessage(line);
};

export class NdjsonStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Sees each message first; `true`: it answered the message itself (the direct path), which `onmessage` then never gets. */
  intercept?: (message: JSONRPCMessage) => boolean;
  private buffer: Buffer | undefined;
  private started = false;
  private closed = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
  ) {}

  private readonly ondata = (chunk: Buffer): void => {
    if ((this.buffer?.length ?? 0) + chunk.length > MAX_BUFFER) {
      this.buffer = undefined;
      this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${MAX_BUFFER} bytes`));
      void this.close();
      return;
    }
    let buffer = this.buffer === undefined ? chunk : Buffer.concat([this.buffer, chunk]);
    for (let i = buffer.indexOf(10); i !== -1 && !this.closed; i = buffer.indexOf(10)) {
      const end = i > 0 && buffer[i - 1] === 13 ? i - 1 : i;
      const line = buffer.toString('utf8', 0, end);
      buffer = buffer.subarray(i + 1);
      try {
        const message = readLine(line);
        if (message !== undefined && this.intercept?.(message) !== true) this.onmessage?.(message);
      } catch (e) {
        this.onerror?.(e instanceof Error ? e : new Error(String(e)));
      }
    }
    this.buffer = buffer.length > 0 && !this.closed ? buffer : undefined;
  };

  private readonly onstdinerror = (error: Error): void => this.onerror?.(error);

  private readonly onstdouterror = (error: Error): void => {
    if (this.closed) return;
    this.onerror?.(error);
    void this.close();
  };

  private readonly onstdinclose = (): void => void this.close();

  async start(): Promise<void> {
    if (this.started) throw new Error('the stdio transport is already started');
    this.started = true;
    if (this.stdin.readableEnded || this.stdin.destroyed) setImmediate(this.onstdinclose);
    this.stdin.on('data', this.ondata);
    this.stdin.on('error', this.onstdinerror);
    this.stdin.on('end', this.onstdinclose);
    this.stdin.on('close', this.onstdinclose);
    // stays after close, so a late EPIPE is swallowed rather than thrown
    this.stdout.on('error', this.onstdouterror);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.ondata);
    this.stdin.off('error', this.onstdinerror);
    this.stdin.off('end', this.onstdinclose);
    this.stdin.off('close', this.onstdinclose);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.buffer = undefined;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the stdio transport is closed'));
    const json = `${JSON.stringify(message)}\n`;
    if (this.stdout.write(json)) return RESOLVED;
    return new Promise<void>((resolve, reject) => {
      const settle = (error?: Error): void => {
        this.stdout.off('drain', settle);
        this.stdout.off('error', settle);
        if (error !== undefined) reject(error);
        else resolve();
      };
      this.stdout.once('drain', settle);
      this.stdout.once('error', settle);
    });
  }
}
