// A load generator for bench/server.bench.ts, run as its own process (so the server's CPU time is
// measured apart from the client's, and the same client measures every server): POSTs a body to
// a URL from `connections` concurrent connections for `ms` milliseconds and prints the completed
// requests per second as JSON. Usage: node load-worker.mjs '<json config>'
import { Pool } from 'undici';

const { url, path, body, connections, ms, headers = {} } = JSON.parse(process.argv[2]);
const pool = new Pool(url, { connections, pipelining: 1 });
let done = 0;
let failed = 0;
const end = Date.now() + ms;
const lane = async () => {
  while (Date.now() < end) {
    const r = await pool.request({ path, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const text = await r.body.text();
    if (r.statusCode === 200 && text.startsWith('{"ok":true')) done++;
    else failed++;
  }
};
const t0 = performance.now();
await Promise.all(Array.from({ length: connections }, lane));
const seconds = (performance.now() - t0) / 1000;
await pool.close();
process.stdout.write(`${JSON.stringify({ perSecond: done / seconds, done, failed })}\n`);
