// The baselines of bench/server.bench.ts, each in its own process as `gramkit serve` is: a server
// that reads a JSON body `{text}`, parses the text and answers `{ok: true, value: {value, pretty}}`
// (the work of the built-in json_parse), and nothing else. `bare` is node:http alone; `hono` is the
// same as a Hono route on @hono/node-server (what gramkit serve is built on). Prints the URL once
// it listens. Usage: node echo-server.mjs <bare|hono>
import { createServer } from 'node:http';

const answer = (args) => {
  const value = JSON.parse(args.text);
  return { ok: true, value: { value, pretty: JSON.stringify(value, null, 2) } };
};

const bare = () =>
  createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.stringify(answer(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
  });

const hono = async () => {
  const { Hono } = await import('hono');
  const { createAdaptorServer } = await import('@hono/node-server');
  const app = new Hono();
  app.post('/api/v1/tools/:id/invoke', async (c) => c.json(answer(await c.req.json())));
  return createAdaptorServer({ fetch: app.fetch });
};

const which = process.argv[2];
const server = which === 'bare' ? bare() : which === 'hono' ? await hono() : undefined;
if (server === undefined) {
  process.stderr.write('usage: node echo-server.mjs <bare|hono>\n');
  process.exit(2);
}
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
