/**
 * The service on a socket (`@hono/node-server` turns Node's requests into web-standard ones).
 * Listens on 127.0.0.1 unless told otherwise; any other host needs a token (the CLI refuses to
 * start without one). `close()` stops accepting, ends open event streams, and resolves when the
 * server is down.
 */
import { createAdaptorServer } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import { directPathOf, type Service } from './service.js';

export interface ListenOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 8081; 0 picks a free port. */
  readonly port?: number;
}

export interface RunningServer {
  /** `http://127.0.0.1:8081` */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly close: () => Promise<void>;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8081;

/** Whether a host is a loopback address (listening there needs no token). */
export const isLoopbackHost = (host: string): boolean => host === '127.0.0.1' || host === '::1' || host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host);

/** Starts listening; rejects when the port is taken or the host cannot be bound. */
export const startServer = (service: Service, options: ListenOptions = {}): Promise<RunningServer> => listen(service, options, true);

/**
 * `startServer`, with the direct path of the invoke routes (serve-direct.ts) on or off. Internal:
 * off only to compare both paths (test/server/direct-path.test.ts); both apply the same checks.
 */
export const listen = (service: Service, options: ListenOptions, direct: boolean): Promise<RunningServer> => {
  const host = options.host ?? DEFAULT_HOST;
  const path = direct ? directPathOf(service) : undefined;
  // the invoke routes straight from node:http when they can be; everything else through Hono's adapter
  const withDirectPath = (serverOptions: ServerOptions, hono: RequestListener): Server =>
    createServer(
      serverOptions,
      path === undefined
        ? hono
        : (req, res) => {
            // nothing returned: a listener's value makes Node's emitter look for a promise to catch
            if (!path(req, res)) void hono(req, res);
          },
    );
  const server = createAdaptorServer({
    fetch: (request: Request) => service.fetch(request),
    hostname: host,
    createServer: withDirectPath as typeof createServer,
  }) as Server;
  return new Promise((resolve, reject) => {
    const onError = (e: Error): void => reject(e);
    server.once('error', onError);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off('error', onError);
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${shown}:${address.port}`,
        host: address.address,
        port: address.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // event streams and keep-alive connections would keep it open
            server.closeAllConnections?.();
          }),
      });
    });
  });
};
