/**
 * The inputs of the gram benchmark (bench/gram.bench.ts and its worker): `lines` lines like
 * `(n1:Person {name: "x1", age: 1})-[:KNOWS {since: 2001}]->(n2)`, and the same records as
 * COMPACT JSON, one array serialized by `JSON.stringify` without indentation, holding for each line
 * a node and a relationship: `{"id":"n1","labels":["Person"],"properties":{"name":"x1","age":1}}`
 * and `{"start":"n1","type":"KNOWS","properties":{"since":2001},"end":"n2"}`. Not the verbose
 * canonical form `toCanonicalJson` writes (about twice as large), which would flatter the ratio.
 */

/** The records of line `i`: a node with a label and two properties, a relationship to the next node. */
const recordsOf = (i: number) =>
  [
    { id: `n${i}`, labels: ['Person'], properties: { name: `x${i}`, age: i % 90 } },
    { start: `n${i}`, type: 'KNOWS', properties: { since: 2000 + (i % 25) }, end: `n${i + 1}` },
  ] as const;

/** The records as gram, one path per line. */
export const gramOf = (n: number): string => {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const [a, r] = recordsOf(i);
    out.push(`(${a.id}:${a.labels[0]} {name: "${a.properties.name}", age: ${a.properties.age}})-[:${r.type} {since: ${r.properties.since}}]->(${r.end})`);
  }
  return `${out.join('\n')}\n`;
};

/** The same records as compact JSON: one array, no indentation. */
export const compactJsonOf = (n: number): string => {
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) out.push(...recordsOf(i));
  return JSON.stringify(out);
};
