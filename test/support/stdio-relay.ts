/**
 * A relay from MCP Streamable HTTP to a stdio MCP server, for tools that only speak HTTP (the
 * conformance suite): each session (an `initialize`) starts the command as a child process and
 * passes messages both ways unchanged. Messages the child sends during a request (progress, logs,
 * elicitation) go on that request's stream. A spare child is started ahead, so a session does not
 * wait for the command to start. Built on the v1 SDK's transports; listens on 127.0.0.1 and a free
 * port.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface Relay {
  readonly url: string;
  readonly close: () => Promise<void>;
}

type Message = JSONRPCMessage & {
  id?: string | number;
  method?: string;
  params?: { _meta?: { progressToken?: string | number }; progressToken?: string | number };
};

export const stdioRelay = async (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd?: string; readonly env?: Record<string, string> } = {},
): Promise<Relay> => {
  const sessions = new Map<string, { http: StreamableHTTPServerTransport; child: StdioClientTransport }>();

  const spawn = async (): Promise<StdioClientTransport> => {
    const child = new StdioClientTransport({
      command,
      args: [...args],
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
      stderr: 'ignore',
    });
    // a server speaks only when spoken to: nothing arrives before a session takes the child
    await child.start();
    return child;
  };
  let spare = spawn();

  const open = async (): Promise<StreamableHTTPServerTransport> => {
    const child = await spare;
    spare = spawn();
    const inFlight: Array<string | number> = [];
    const byToken = new Map<string | number, string | number>();
    const http = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { http, child }),
    });
    http.onmessage = (m) => {
      const msg = m as Message;
      if (msg.method !== undefined && msg.id !== undefined) {
        inFlight.push(msg.id);
        const token = msg.params?._meta?.progressToken;
        if (token !== undefined) byToken.set(token, msg.id);
      }
      void child.send(m).catch(() => {});
    };
    http.onclose = () => void child.close();
    child.onmessage = (m) => {
      const msg = m as Message;
      if (msg.method === undefined && msg.id !== undefined) {
        const i = inFlight.indexOf(msg.id);
        if (i >= 0) inFlight.splice(i, 1);
        void http.send(m).catch(() => {});
        return;
      }
      const token = msg.params?.progressToken;
      const related = (token !== undefined ? byToken.get(token) : undefined) ?? inFlight[inFlight.length - 1];
      void http.send(m, related !== undefined ? { relatedRequestId: related } : undefined).catch(() => {});
    };
    return http;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const body = text === '' ? undefined : (JSON.parse(text) as unknown);
        const id = req.headers['mcp-session-id'];
        const session = typeof id === 'string' ? sessions.get(id) : undefined;
        if (session !== undefined) return session.http.handleRequest(req, res, body);
        if (req.method === 'POST' && isInitializeRequest(body)) return (await open()).handleRequest(req, res, body);
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'no session: initialize first' } }));
      })().catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await (await spare).close().catch(() => {});
      for (const s of sessions.values()) {
        await s.http.close().catch(() => {});
        await s.child.close().catch(() => {});
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
