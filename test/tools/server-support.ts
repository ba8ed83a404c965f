/**
 * A local HTTP server for tests, on 127.0.0.1 and a port the system picks. It records every
 * request (method, url, headers, body) so tests can check what was really sent.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  readonly close: () => Promise<void>;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void;

export const startServer = async (handler: Handler): Promise<TestServer> => {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      handler(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
};

/** Writes `total` bytes in 64 KiB chunks without a content-length, honouring back-pressure; stops when the client goes away. */
export const stream = (res: ServerResponse, total: number): void => {
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  const chunk = Buffer.alloc(64 * 1024, 97);
  let sent = 0;
  const write = (): void => {
    while (sent < total) {
      if (res.destroyed) return;
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      if (!res.write(chunk.subarray(0, n))) {
        res.once('drain', write);
        return;
      }
    }
    res.end();
  };
  res.on('close', () => (sent = total));
  write();
};
