/**
 * Canonical JSON of patterns, as gram-hs writes it (`gramref parse --value-only --canonical`):
 * a JSON array of patterns; in a pattern `subject` comes before `elements`, every other object's
 * keys are sorted by code point (so `labels` and value objects such as
 * `{"content":..,"tag":..,"type":"tagged"}` have a fixed order), numbers are JSON numbers
 * (`2.0` prints as `2`). The same patterns always give the same bytes.
 */
import { compareCodePoints, type GramJson, type GramPattern, headerPattern, type LoweredDocument } from './lower.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface CanonicalJsonOptions {
  /** Spaces per level for a readable layout; 0 or absent for one line. */
  readonly indent?: number;
}

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const isLowered = (x: LoweredDocument | ReadonlyArray<GramPattern>): x is LoweredDocument => !Array.isArray(x);

class Writer {
  private readonly parts: string[] = [];
  constructor(private readonly indent: string) {}

  private nl(depth: number): void {
    if (this.indent !== '') this.parts.push(`\n${this.indent.repeat(depth)}`);
  }

  private sep(): string {
    return this.indent === '' ? ':' : ': ';
  }

  /** `[a, b]` with each item written by `each`. */
  private list<T>(items: ReadonlyArray<T>, depth: number, each: (t: T, depth: number) => void): void {
    if (items.length === 0) {
      this.parts.push('[]');
      return;
    }
    this.parts.push('[');
    items.forEach((it, i) => {
      if (i > 0) this.parts.push(',');
      this.nl(depth + 1);
      each(it, depth + 1);
    });
    this.nl(depth);
    this.parts.push(']');
  }

  private object(entries: ReadonlyArray<readonly [string, () => void]>, depth: number): void {
    if (entries.length === 0) {
      this.parts.push('{}');
      return;
    }
    this.parts.push('{');
    entries.forEach(([k, write], i) => {
      if (i > 0) this.parts.push(',');
      this.nl(depth + 1);
      this.parts.push(JSON.stringify(k), this.sep());
      write();
    });
    this.nl(depth);
    this.parts.push('}');
  }

  value(v: GramJson, depth: number): void {
    if (v === null || typeof v !== 'object') {
      this.parts.push(typeof v === 'number' && !Number.isFinite(v) ? 'null' : JSON.stringify(v));
      return;
    }
    if (Array.isArray(v)) {
      this.list(v as ReadonlyArray<GramJson>, depth, (x, d) => this.value(x, d));
      return;
    }
    const o = v as { readonly [key: string]: GramJson };
    const keys = Object.keys(o).sort(compareCodePoints);
    this.object(
      keys.map((k) => [k, () => this.value(o[k] as GramJson, depth + 1)] as const),
      depth,
    );
  }

  pattern(p: GramPattern, depth: number): void {
    const s = p.subject;
    this.object(
      [
        [
          'subject',
          () =>
            this.object(
              [
                ['identity', () => this.parts.push(JSON.stringify(s.identity))],
                ['labels', () => this.list([...s.labels].sort(compareCodePoints), depth + 2, (l) => this.parts.push(JSON.stringify(l)))],
                ['properties', () => this.value(s.properties, depth + 2)],
              ],
              depth + 1,
            ),
        ],
        ['elements', () => this.list(p.elements, depth + 1, (e, d) => this.pattern(e, d))],
      ],
      depth,
    );
  }

  patterns(ps: ReadonlyArray<GramPattern>): string {
    this.list(ps, 0, (p, d) => this.pattern(p, d));
    return this.parts.join('');
  }
}

// -------------------------------------------------------------------------------------------------
// serialization
// -------------------------------------------------------------------------------------------------

/**
 * The canonical JSON array of `patterns`. Given a lowered document, its header (if any) comes
 * first as an anonymous atom, as gram-hs's `fromGram` lists it.
 */
export const toCanonicalJson = (patterns: LoweredDocument | ReadonlyArray<GramPattern>, options: CanonicalJsonOptions = {}): string => {
  const list = isLowered(patterns) ? (patterns.header === undefined ? patterns.patterns : [headerPattern(patterns.header), ...patterns.patterns]) : patterns;
  return new Writer(' '.repeat(Math.max(0, Math.min(10, options.indent ?? 0)))).patterns(list);
};
