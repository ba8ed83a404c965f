/**
 * Command-line options read as GNU `getopt_long` reads them, so that rules see what a program
 * will do: short options cluster (`-rf`) and take their value attached or as the next word
 * (`-C/`, `-C /`); a long option may be abbreviated to any unambiguous prefix (`--rec` is
 * `--recursive`) and takes its value after `=` or as the next word; `--` ends the options; options
 * and operands mix unless the program stops at its first operand (`+` in getopt's terms: wrappers
 * such as `env` and `sudo`, whose first operand is the program they run).
 *
 * Written without regular expressions: linear in the number and length of the words.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** `none`: a flag; `required`: takes a value; `optional`: takes a value only when attached (`-t5`, `--timing=f`). */
export type ArgumentKind = 'none' | 'required' | 'optional';

export interface OptionSpec {
  /** Short options by letter, each with the long name it stands for (or the letter itself). */
  readonly short: Readonly<Record<string, { readonly name: string; readonly arg: ArgumentKind }>>;
  /** Long options by full name. */
  readonly long: Readonly<Record<string, ArgumentKind>>;
  /** Options end at the first operand (the operand and all after it are operands). */
  readonly stopAtOperand?: boolean;
}

export interface ParsedOption {
  /** The long name (short options are reported by their long name when they have one). */
  readonly name: string;
  readonly value?: string;
}

export interface ParsedOptions {
  readonly options: ReadonlyArray<ParsedOption>;
  readonly operands: ReadonlyArray<string>;
  /** Index of the first word after the options when `stopAtOperand` (else `args.length`). */
  readonly rest: number;
  /** Words the program would reject (unknown or ambiguous options): it would stop without acting. */
  readonly rejected: ReadonlyArray<string>;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** A spec from a getopt-like description: `short` as `{r: 'recursive', C: ['chdir', 'required']}`. */
export const optionSpec = (
  short: Readonly<Record<string, string | readonly [string, ArgumentKind]>>,
  long: Readonly<Record<string, ArgumentKind>>,
  stopAtOperand = false,
): OptionSpec => {
  const s: Record<string, { name: string; arg: ArgumentKind }> = {};
  for (const [letter, d] of Object.entries(short)) {
    const [name, arg] = typeof d === 'string' ? [d, long[d] ?? 'none'] : d;
    s[letter] = { name, arg };
  }
  return { short: s, long, stopAtOperand };
};

// -------------------------------------------------------------------------------------------------
// parsing
// -------------------------------------------------------------------------------------------------

/** The long option `word` (without `--` and `=value`) names: exact, else the one it is a prefix of. */
export const matchLong = (spec: OptionSpec, name: string): string | undefined => {
  if (Object.prototype.hasOwnProperty.call(spec.long, name)) return name;
  if (name === '') return undefined;
  let found: string | undefined;
  for (const full of Object.keys(spec.long)) {
    if (!full.startsWith(name)) continue;
    if (found !== undefined) return undefined; // ambiguous: the program refuses it
    found = full;
  }
  return found;
};

export const getopt = (spec: OptionSpec, args: ReadonlyArray<string>): ParsedOptions => {
  const options: ParsedOption[] = [];
  const operands: string[] = [];
  const rejected: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') {
      i += 1;
      break;
    }
    if (a.length < 2 || a[0] !== '-') {
      if (spec.stopAtOperand === true) break;
      operands.push(a);
      continue;
    }
    if (a[1] === '-') {
      const eq = a.indexOf('=');
      const written = a.slice(2, eq < 0 ? undefined : eq);
      const name = matchLong(spec, written);
      if (name === undefined) {
        rejected.push(a);
        continue;
      }
      const kind = spec.long[name] as ArgumentKind;
      if (eq >= 0) options.push({ name, value: a.slice(eq + 1) });
      else if (kind === 'required' && i + 1 < args.length) options.push({ name, value: args[++i] as string });
      else options.push({ name });
      continue;
    }
    // a cluster of short options
    for (let k = 1; k < a.length; k++) {
      const o = spec.short[a[k] as string];
      if (o === undefined) {
        rejected.push(`-${a[k] as string}`);
        continue;
      }
      if (o.arg === 'none') {
        options.push({ name: o.name });
        continue;
      }
      if (k + 1 < a.length) options.push({ name: o.name, value: a.slice(k + 1) });
      else if (o.arg === 'required' && i + 1 < args.length) options.push({ name: o.name, value: args[++i] as string });
      else options.push({ name: o.name });
      break;
    }
  }
  const rest = i;
  for (; i < args.length; i++) operands.push(args[i] as string);
  return { options, operands, rest: spec.stopAtOperand === true ? rest : args.length, rejected };
};

/** Whether the parsed options include `name`. */
export const hasOption = (p: ParsedOptions, name: string): boolean => p.options.some((o) => o.name === name);

/** The last value given to `name`. */
export const optionValue = (p: ParsedOptions, name: string): string | undefined => {
  for (let k = p.options.length - 1; k >= 0; k--) if (p.options[k]!.name === name && p.options[k]!.value !== undefined) return p.options[k]!.value;
  return undefined;
};
