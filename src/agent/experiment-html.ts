/**
 * An experiment's report as one self-contained HTML page (`gramkit ab --report report.html`): no
 * script, no request to any host (a Content-Security-Policy of `default-src 'none'` says so to the
 * browser), plots drawn as inline SVG.
 *
 * - success rate and mean score per variant, each bar with its 95% interval;
 * - run latency per variant: every run as a dot (when the runs are given), min–max, p50 and p95;
 * - tool errors by code, per variant;
 * - the inputs where variants disagree: a row per input and run, opening (`<details>`, no script)
 *   the baseline's run and each differing variant's side by side: the message, the calls the
 *   model asked for, the tools' results, the answer.
 *
 * Every plotted mark carries its number (`data-value`, and `data-lo`/`data-hi` for intervals), the
 * one in the JSON report, so a test reads the plot against the report. Pure: a string from data.
 */
import type { ExperimentReport, ExperimentRun } from './experiment.js';

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
const n2 = (v: number): string => String(Math.round(v * 100) / 100);
const pct = (v: number): string => `${Math.round(v * 1000) / 10}%`;
const PALETTE = ['#4c78a8', '#f58518', '#54a24b', '#e45756', '#72b7b2', '#b279a2', '#eeca3b', '#9d755d'];
const color = (i: number): string => PALETTE[i % PALETTE.length] as string;

// -------------------------------------------------------------------------------------------------
// plots
// -------------------------------------------------------------------------------------------------

const PLOT_H = 200;
const TOP = 20;
const LEFT = 50;
/** Room for a name in 11px text. */
const textWidth = (names: ReadonlyArray<string>): number => Math.ceil(Math.max(0, ...names.map((x) => x.length)) * 6.6);

/** Bars from 0 to 1 with interval whiskers: one per variant. */
const barPlot = (id: string, bars: ReadonlyArray<{ name: string; value: number; lo: number; hi: number; label: string }>): string => {
  const BAR_W = Math.max(90, textWidth(bars.map((b) => b.name)) + 12);
  const width = LEFT + bars.length * BAR_W + 20;
  const y = (v: number): number => TOP + PLOT_H * (1 - Math.max(0, Math.min(1, v)));
  const ticks = [0, 0.25, 0.5, 0.75, 1].map(
    (t) => `<line x1="${LEFT}" x2="${width - 10}" y1="${y(t)}" y2="${y(t)}" class="grid"/><text x="${LEFT - 6}" y="${y(t) + 4}" class="tick">${t}</text>`,
  );
  const marks = bars.map((b, i) => {
    const x = LEFT + i * BAR_W + 15;
    const cx = x + (BAR_W - 30) / 2;
    return [
      `<g class="mark" data-variant="${esc(b.name)}">`,
      `<rect class="bar" x="${x}" y="${y(b.value)}" width="${BAR_W - 30}" height="${PLOT_H * Math.max(0, Math.min(1, b.value))}" fill="${color(i)}"`,
      ` data-value="${b.value}"><title>${esc(b.name)}: ${esc(b.label)}</title></rect>`,
      `<line class="ci" x1="${cx}" x2="${cx}" y1="${y(b.hi)}" y2="${y(b.lo)}" data-lo="${b.lo}" data-hi="${b.hi}"/>`,
      `<line class="ci" x1="${cx - 8}" x2="${cx + 8}" y1="${y(b.hi)}" y2="${y(b.hi)}"/><line class="ci" x1="${cx - 8}" x2="${cx + 8}" y1="${y(b.lo)}" y2="${y(b.lo)}"/>`,
      `<text class="label" x="${cx}" y="${y(b.hi) - 5}">${esc(b.label)}</text>`,
      `<text class="name" x="${cx}" y="${TOP + PLOT_H + 16}">${esc(b.name)}</text>`,
      '</g>',
    ].join('');
  });
  return `<svg id="${id}" width="${width}" height="${TOP + PLOT_H + 30}" role="img">${ticks.join('')}${marks.join('')}</svg>`;
};

/** Per variant a row: every run's latency as a dot, min–max, p50 and p95. */
const latencyPlot = (report: ExperimentReport, runs: ReadonlyArray<ExperimentRun>): string => {
  const max = Math.max(1, ...report.summaries.map((s) => s.latencyMs.max));
  const left = Math.max(170, textWidth(report.variants) + 20);
  const W = left + 350;
  const x = (v: number): number => left + (W - left - 20) * (v / max);
  const rows = report.summaries.map((s, i) => {
    const yy = 20 + i * 34;
    const dots = runs
      .filter((r) => r.variant === s.name)
      .map((r) => `<circle class="run" cx="${x(r.durationMs)}" cy="${yy}" r="3" fill="${color(i)}" data-value="${r.durationMs}"/>`);
    return [
      `<g class="latency" data-variant="${esc(s.name)}">`,
      `<text class="rowname" x="${left - 10}" y="${yy + 4}">${esc(s.name)}</text>`,
      `<line class="range" x1="${x(s.latencyMs.min)}" x2="${x(s.latencyMs.max)}" y1="${yy}" y2="${yy}" data-lo="${s.latencyMs.min}" data-hi="${s.latencyMs.max}"/>`,
      ...dots,
      `<line class="p50" x1="${x(s.latencyMs.p50)}" x2="${x(s.latencyMs.p50)}" y1="${yy - 10}" y2="${yy + 10}" data-value="${s.latencyMs.p50}"><title>p50 ${n2(s.latencyMs.p50)} ms</title></line>`,
      `<line class="p95" x1="${x(s.latencyMs.p95)}" x2="${x(s.latencyMs.p95)}" y1="${yy - 10}" y2="${yy + 10}" data-value="${s.latencyMs.p95}"><title>p95 ${n2(s.latencyMs.p95)} ms</title></line>`,
      '</g>',
    ].join('');
  });
  const axis = `<text class="tick" x="${left}" y="${20 + report.summaries.length * 34}">0 ms</text><text class="tick" x="${W - 20}" y="${20 + report.summaries.length * 34}">${n2(max)} ms</text>`;
  return `<svg id="latency" width="${W}" height="${30 + report.summaries.length * 34}" role="img">${rows.join('')}${axis}</svg>`;
};

/** Tool errors by code: a group of bars per code, one per variant. */
const errorPlot = (report: ExperimentReport): string => {
  const codes = [...new Set(report.summaries.flatMap((s) => Object.keys(s.toolErrorsByCode)))].sort();
  if (codes.length === 0) return '<p id="errors">No tool errors.</p>';
  const max = Math.max(1, ...report.summaries.flatMap((s) => Object.values(s.toolErrorsByCode)));
  const rowH = 16;
  const groupH = report.summaries.length * rowH + 12;
  const W = 560;
  const bars = codes.flatMap((code, c) => [
    `<text class="rowname" x="230" y="${20 + c * groupH + 12}">${esc(code)}</text>`,
    ...report.summaries.map((s, i) => {
      const v = s.toolErrorsByCode[code] ?? 0;
      const yy = 10 + c * groupH + i * rowH;
      const w = ((W - 300) * v) / max;
      return [
        `<g class="errbar" data-code="${esc(code)}" data-variant="${esc(s.name)}">`,
        `<rect x="240" y="${yy}" width="${w}" height="${rowH - 3}" fill="${color(i)}" data-value="${v}"><title>${esc(s.name)}: ${v}</title></rect>`,
        `<text class="count" x="${244 + w}" y="${yy + 11}">${v}</text></g>`,
      ].join('');
    }),
  ]);
  return `<svg id="errors" width="${W}" height="${codes.length * groupH + 10}" role="img">${bars.join('')}</svg>`;
};

// -------------------------------------------------------------------------------------------------
// disagreements
// -------------------------------------------------------------------------------------------------

/** One run as a conversation: the message, each call asked for with its result, the answer. */
const conversation = (name: string, message: string, run: ExperimentRun | undefined): string => {
  if (run === undefined) return `<div class="conv"><h4>${esc(name)}</h4><p class="missing">(the run is not in the report)</p></div>`;
  const calls = run.askedToolCalls.map((c, i) => {
    const made = run.toolCalls[i];
    const result = made === undefined ? 'not run' : made.ok ? 'ok' : `error ${made.reason ?? made.code ?? ''}`;
    return `<li class="call"><code>${esc(c.name)}(${esc(JSON.stringify(c.arguments))})</code> → <span class="${made?.ok === true ? 'ok' : 'err'}">${esc(result)}</span></li>`;
  });
  const answer = run.completed
    ? esc(run.content ?? '')
    : `<span class="err">run ended: ${esc(run.error?.reason ?? run.error?.code ?? '')} ${esc(run.error?.message ?? '')}</span>`;
  return [
    `<div class="conv" data-variant="${esc(name)}"><h4>${esc(name)}</h4>`,
    `<p class="user"><b>user</b> ${esc(message)}</p>`,
    calls.length > 0 ? `<ol class="calls">${calls.join('')}</ol>` : '<p class="none">(no tool call)</p>',
    `<p class="answer"><b>answer</b> ${answer}</p>`,
    run.toolCallsMatch === false ? `<p class="err">tool calls do not match: ${esc(run.reason ?? '')}</p>` : '',
    '</div>',
  ].join('');
};

const disagreements = (report: ExperimentReport, runs: ReadonlyArray<ExperimentRun>): string => {
  if (report.differences.length === 0) return '<p id="disagreements">Every variant gave the same answers.</p>';
  const byKey = new Map(runs.map((r) => [`${r.variant}\u0000${r.input}\u0000${r.repetition}`, r]));
  const base = report.variants[0] ?? '';
  const rows = report.differences.map((d) => {
    const run = (v: string) => byKey.get(`${v}\u0000${d.input}\u0000${d.repetition}`);
    const others = report.variants.slice(1).filter((v) => d.answers[v] !== d.answers[base]);
    const cells = report.variants
      .map((v) => `<td class="${v !== base && d.answers[v] !== d.answers[base] ? 'differs' : ''}">${esc(d.answers[v] ?? '')}</td>`)
      .join('');
    const pairs = others.map((v) => `<div class="pair">${conversation(base, d.message, run(base))}${conversation(v, d.message, run(v))}</div>`).join('');
    return [
      `<tr class="diff" data-input="${esc(d.inputId)}" data-repetition="${d.repetition}"><td colspan="${report.variants.length + 2}"><details><summary>`,
      `<table class="inner"><tr><td class="id">${esc(d.inputId)} #${d.repetition + 1}</td><td class="msg">${esc(d.message)}</td>${cells}</tr></table>`,
      `</summary>${pairs}</details></td></tr>`,
    ].join('');
  });
  const head = `<tr><th>input</th><th>message</th>${report.variants.map((v) => `<th>${esc(v)}</th>`).join('')}</tr>`;
  return `<table id="disagreements"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>`;
};

// -------------------------------------------------------------------------------------------------
// page
// -------------------------------------------------------------------------------------------------

const STYLE = `body{font:14px system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse}th,td{padding:4px 8px;text-align:left;border-bottom:1px solid #ddd;vertical-align:top}
.grid{stroke:#eee}.tick{font-size:10px;text-anchor:end;fill:#666}.ci{stroke:#222;stroke-width:1.5}.label{font-size:11px;text-anchor:middle}
.name{font-size:11px;text-anchor:middle}.rowname{font-size:11px;text-anchor:end}.range{stroke:#999;stroke-width:2}.p50{stroke:#000;stroke-width:2}
.p95{stroke:#c00;stroke-width:2}.count{font-size:10px}.run{opacity:.6}td.differs{background:#fde8e8}summary{cursor:pointer;list-style:none}
table.inner td{border:0}.pair{display:grid;grid-template-columns:1fr 1fr;gap:12px;margin:8px 0}.conv{border:1px solid #ccc;border-radius:4px;padding:8px}
.conv h4{margin:0 0 6px}.err{color:#b00}.ok{color:#070}code{font-size:12px}.real{color:#b00;font-weight:600}.noise{color:#666}`;

const HEADS = ['variant', 'succeeded', 'success (95% CI)', 'mean score (95% CI)', 'p50 / p95 ms', 'tool errors', 'against the baseline'];

/**
 * The page of an experiment's report. `runs`: its runs (the report's `results`, or a results file
 * read back), for the latency dots and the conversations; the page says so when there are none.
 */
export const experimentHtml = (report: ExperimentReport, runs: ReadonlyArray<ExperimentRun> = report.results): string => {
  const rows = report.summaries.map((s) => {
    const vs = s.vsBaseline;
    const verdict =
      vs === undefined
        ? 'baseline'
        : `${vs.difference >= 0 ? '+' : ''}${n2(vs.difference * 100)} points, p = ${vs.pValue}: ` +
          `<span class="${vs.significant ? 'real' : 'noise'}">${vs.significant ? 'a real difference' : 'could be noise'}</span>`;
    const cells = [
      esc(s.name),
      `${s.succeeded}/${s.runs}`,
      `${pct(s.successRate)} (${pct(s.successCI[0])}–${pct(s.successCI[1])})`,
      `${n2(s.meanScore)} (${n2(s.scoreCI[0])}–${n2(s.scoreCI[1])})`,
      `${n2(s.latencyMs.p50)} / ${n2(s.latencyMs.p95)}`,
      String(s.toolErrors),
      verdict,
    ];
    return `<tr data-variant="${esc(s.name)}">${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
  });
  const success = barPlot(
    'success',
    report.summaries.map((s) => ({ name: s.name, value: s.successRate, lo: s.successCI[0], hi: s.successCI[1], label: pct(s.successRate) })),
  );
  const score = barPlot(
    'score',
    report.summaries.map((s) => ({ name: s.name, value: s.meanScore, lo: s.scoreCI[0], hi: s.scoreCI[1], label: n2(s.meanScore) })),
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Experiment: ${esc(report.agent)}</title><style>${STYLE}</style></head><body>
<h1>Experiment: agent ${esc(report.agent)}, model ${esc(report.model)}</h1>
<p>${report.inputs} inputs × ${report.runsPerInput} runs on ${report.variants.length} variants, started ${esc(report.startedAt)}, ${n2(report.durationMs / 1000)} s.
The first variant is the baseline; differences are paired by input and run.</p>
<table id="summary"><thead><tr>${HEADS.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>
<h2>Success rate, with 95% intervals (Wilson)</h2>${success}
<h2>Mean score, with 95% intervals (bootstrap)</h2>${score}
<h2>Run latency (dots: runs; black: p50; red: p95)</h2>${runs.length === 0 ? '<p>(runs not in the report: min–max, p50 and p95 only)</p>' : ''}${latencyPlot(report, runs)}
<h2>Tool errors by code</h2>${errorPlot(report)}
<h2>Where the variants disagree (${report.differences.length} of ${report.inputs * report.runsPerInput})</h2>
<p>Open a row to see the baseline's run and the differing variant's side by side.</p>
${disagreements(report, runs)}
</body></html>
`;
};
