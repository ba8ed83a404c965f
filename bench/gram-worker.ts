/**
 * One size of the gram benchmark, in a process of its own (bench/gram.bench.ts starts one per
 * size, as JMH forks a JVM per benchmark): V8 learns from every allocation in a process (whether
 * objects of an allocation site live long enough to be allocated in the old generation at once),
 * so parsing many small documents first changes what a large one costs. A fresh process measures
 * each size from the same start; `afterSmall` measures that history on purpose.
 *
 * Usage: node --import tsx bench/gram-worker.ts '{"lines":100000,"batch":1,"rounds":7,"afterSmall":0}'
 * Prints `{gram: Timing[], json: Timing[]}`: interleaved rounds of `batch` parses of the gram text
 * (`parseGram`, to the AST) and of `JSON.parse` of the compact JSON of the same records.
 */
import { parseGram } from '../src/index.js';
import { compactJsonOf, gramOf } from './gram-inputs.js';
import { interleaved } from './harness.js';

interface Config {
  readonly lines: number;
  readonly batch: number;
  readonly rounds: number;
  /** Documents of 1,000 lines to parse before anything else (0: none). */
  readonly afterSmall: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;
const gram = gramOf(config.lines);
const json = compactJsonOf(config.lines);

const parse = (text: string): void => {
  if (parseGram(text)._tag !== 'Right') throw new Error('benchmark input does not parse');
};
const times = (n: number, fn: () => unknown) => (): void => {
  for (let i = 0; i < n; i++) fn();
};

if (config.afterSmall > 0) {
  const small = gramOf(1_000);
  for (let i = 0; i < config.afterSmall; i++) parse(small);
}
for (let i = 0; i < 3; i++) {
  parse(gram);
  JSON.parse(json);
}
const t = await interleaved(config.rounds, {
  json: times(config.batch, () => JSON.parse(json)),
  gram: times(config.batch, () => parse(gram)),
});
process.stdout.write(`${JSON.stringify(t)}\n`);
