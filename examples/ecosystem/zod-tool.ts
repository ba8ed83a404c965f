/**
 * Adopting gram one tool at a time: a tool whose arguments are a Zod schema becomes a gramkit
 * specification (`fromZod`, through zod's own JSON Schema), prints as gram (save it in a .gram
 * file to make gram the source), and binds and runs like any tool.
 * Run it: `npx tsx examples/ecosystem/zod-tool.ts`.
 */
import { pathToFileURL } from 'node:url';
import * as z from 'zod';
import { bindTool, defineTool, invoke, printToolSpecification, toolLibrary } from 'gramkit';
import { fromZod } from 'gramkit/zod';

const WeatherArgs = z.object({
  city: z.string().min(1).describe('City name, e.g. Paris'),
  units: z.enum(['metric', 'imperial']).default('metric'),
});

export const zodTool = async (): Promise<string[]> => {
  const spec = fromZod(WeatherArgs, { name: 'get_weather', description: 'Current weather for a city', output: z.object({ temperature: z.number() }) });
  if (spec._tag === 'Left') return spec.left.map((d) => d.message);
  const out = [printToolSpecification(spec.right)];

  const tool = defineTool<z.output<typeof WeatherArgs>, { temperature: number }>(spec.right, ({ units }) => ({ temperature: units === 'metric' ? 21 : 70 }));
  const bound = bindTool(spec.right, toolLibrary([tool]));
  if (bound._tag === 'Left') return bound.left.map((e) => e.message);
  const show = (r: Awaited<ReturnType<typeof invoke>>) => (r.ok ? `ok ${JSON.stringify(r.value)}` : `${r.error.reason}: ${r.error.message}`);
  out.push(show(await invoke(bound.right, { city: 'Paris' })));
  out.push(show(await invoke(bound.right, { city: 'Paris', units: 'kelvin' })));
  return out;
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await zodTool()) console.log(line);
}
