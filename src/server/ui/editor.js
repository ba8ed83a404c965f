// gramkit's admin page, the part that writes: the gram editor (highlighting from the TextMate grammar
// of editors/vscode, served as /ui/gram.tmLanguage.json; the server's diagnostics as you type, from
// POST /tools/tools/check), the tool, bundle, confirmation and versions dialogs. Every write is a
// call of the service's REST routes with the page's token, as any client makes it. Loaded before
// app.js, whose helpers ($, el, api, query, say, state, toolPath, loadTools, loadBundles,
// showTool) it calls only from events.
'use strict';

// ------------------------------------------------------------------------------------------------
// highlighting: the TextMate grammar's rules, run with the browser's regular expressions
// ------------------------------------------------------------------------------------------------

const grammar = { rules: undefined, loading: undefined };

/** The grammar's rules in order, includes resolved: `match` rules (with captures) and `begin`/`end` blocks. */
const grammarRules = (g) => {
  const rx = (source) => new RegExp(source, 'ymd'); // sticky (tried at one offset), `$` at line ends, group offsets
  const expand = (p) => {
    if (p.include !== undefined) return expand(g.repository[p.include.slice(1)]);
    if (p.match !== undefined) return [{ kind: 'match', re: rx(p.match), name: p.name, captures: p.captures }];
    if (p.begin !== undefined) return [{ kind: 'block', begin: rx(p.begin), end: rx(p.end), name: p.name, inner: (p.patterns ?? []).flatMap(expand) }];
    return (p.patterns ?? []).flatMap(expand);
  };
  return g.patterns.flatMap(expand);
};

const loadGrammar = () => {
  grammar.loading ??= fetch('/ui/gram.tmLanguage.json')
    .then((r) => r.json())
    .then((g) => {
      grammar.rules = grammarRules(g);
    })
    .catch(() => {
      grammar.loading = undefined; // plain text meanwhile; tried again at the next open
    });
  return grammar.loading;
};

/** The scope of each character (later rules paint over earlier ones: captures over their match, escapes over their string). */
const scopesOf = (text, rules) => {
  const scopes = new Array(text.length).fill(undefined);
  const paint = (from, to, name) => {
    if (name !== undefined) for (let k = from; k < to; k++) scopes[k] = name;
  };
  const at = (re, pos) => {
    re.lastIndex = pos;
    const m = re.exec(text);
    return m !== null && m[0] !== '' ? m : null;
  };
  const matchAt = (r, pos) => {
    const m = at(r.re, pos);
    if (m === null) return 0;
    paint(pos, pos + m[0].length, r.name);
    for (const [k, c] of Object.entries(r.captures ?? {})) {
      const ix = m.indices[Number(k)];
      if (ix !== undefined) paint(ix[0], ix[1], c.name);
    }
    return m[0].length;
  };
  let i = 0;
  scan: while (i < text.length) {
    for (const r of rules) {
      if (r.kind === 'match') {
        const n = matchAt(r, i);
        if (n > 0) {
          i += n;
          continue scan;
        }
        continue;
      }
      const b = at(r.begin, i);
      if (b === null) continue;
      let j = i + b[0].length;
      const inner = [];
      block: while (j < text.length) {
        for (const q of r.inner) {
          q.re.lastIndex = j;
          const m = q.kind === 'match' ? q.re.exec(text) : null;
          if (m !== null && m[0] !== '') {
            inner.push([j, j + m[0].length, q.name]);
            j += m[0].length;
            continue block;
          }
        }
        const e = at(r.end, j);
        if (e !== null) {
          j += e[0].length;
          break;
        }
        j++;
      }
      paint(i, j, r.name);
      for (const [from, to, name] of inner) paint(from, to, name);
      i = j;
      continue scan;
    }
    i++;
  }
  return scopes;
};

/** `entity.name.type.gram` → `tm-entity tm-entity-name tm-entity-name-type`. */
const scopeClass = (scope) => {
  if (scope === undefined) return '';
  const parts = scope.split('.').filter((p) => p !== 'gram');
  return parts.map((_, k) => `tm-${parts.slice(0, k + 1).join('-')}`).join(' ');
};

/**
 * Fills `pre` with `text`, highlighted when `rules` are given, and the ranges of `diagnostics`
 * ({start, end, severity}) underlined. Text only: no markup comes from the text.
 */
const highlightInto = (pre, text, rules, diagnostics = []) => {
  const scopes = rules !== undefined ? scopesOf(text, rules) : [];
  const marks = new Array(text.length).fill('');
  for (const d of diagnostics) {
    if (d.start === undefined) continue;
    const from = Math.min(d.start, text.length);
    const to = Math.max(from + 1, Math.min(d.end ?? from + 1, text.length));
    for (let k = from; k < to; k++) if (marks[k] !== 'error') marks[k] = d.severity;
  }
  const parts = [];
  let from = 0;
  for (let k = 1; k <= text.length; k++) {
    if (k < text.length && scopes[k] === scopes[from] && marks[k] === marks[from]) continue;
    const cls = [scopeClass(scopes[from]), marks[from] !== '' ? `diag diag-${marks[from]}` : ''].join(' ').trim();
    const piece = text.slice(from, k);
    parts.push(cls === '' ? document.createTextNode(piece) : el('span', { class: cls }, piece));
    from = k;
  }
  // a last empty line keeps its height (the text area shows it)
  parts.push(document.createTextNode('\n'));
  pre.replaceChildren(...parts);
};

// ------------------------------------------------------------------------------------------------
// dialogs: opened modal (Tab stays inside, Escape closes), focus given back to the opener
// ------------------------------------------------------------------------------------------------

const openDialog = (dialog, focus) => {
  const opener = document.activeElement;
  dialog.addEventListener('close', () => opener?.focus?.(), { once: true });
  dialog.showModal();
  focus?.focus();
};

/** `1 tool`, `2 tools`. */
const count = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;

const problemText = (e) => (e.problem?.diagnostics?.length > 0 ? `${e.message}\n${e.problem.diagnostics.map((d) => `• ${d.message}`).join('\n')}` : e.message);

// ------------------------------------------------------------------------------------------------
// the tool editor: a new tool, or a new version of one (a version is immutable once written)
// ------------------------------------------------------------------------------------------------

const TEMPLATE = '[my-tool:Tool {description: "What it does and when to use it", http: {url: "https://example.com/api?q={query}"}} |\n  (query::String {description: "What to look for"})==>(::Any)]\n';

const editor = { generation: 0, timer: undefined, diagnostics: [], slug: '' };

const repaint = () => {
  const source = $('tool-source');
  highlightInto($('tool-highlight'), source.value, $('tool-mode').value === 'gram' ? grammar.rules : undefined, editor.diagnostics);
  $('tool-highlight').scrollTop = source.scrollTop;
};

const renderDiagnostics = (checking) => {
  const list = $('tool-diagnostics');
  list.dataset.state = checking ? 'checking' : editor.diagnostics.some((d) => d.severity === 'error') ? 'errors' : 'ok';
  if (checking) return;
  list.replaceChildren(
    ...(editor.diagnostics.length === 0
      ? [el('li', { class: 'ok' }, 'No problems found.')]
      : editor.diagnostics.map((d) =>
          el(
            'li',
            { class: d.severity, dataset: { code: d.code } },
            el(
              'button',
              {
                type: 'button',
                class: 'link',
                disabled: d.start === undefined,
                onclick: () => {
                  const source = $('tool-source');
                  source.focus();
                  source.setSelectionRange(d.start, d.end ?? d.start);
                },
              },
              d.line !== undefined ? `${d.line}:${d.column}` : '—',
            ),
            ` ${d.severity} ${d.code}: ${d.message}`,
            d.hint !== undefined ? el('small', {}, ` (${d.hint})`) : undefined,
          ),
        )),
  );
};

/** The body the form holds: `{gram}`, or the tool.json object; an Error when the JSON does not parse. */
const editorBody = () => {
  const text = $('tool-source').value;
  if ($('tool-mode').value === 'gram') return { gram: text };
  try {
    const v = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : new Error('tool.json must be a JSON object');
  } catch (e) {
    return new Error(`not JSON: ${e.message}`);
  }
};

/** Asks the server what a PUT of the text would say (answers to older texts are dropped). */
const checkEditor = async () => {
  const generation = ++editor.generation;
  renderDiagnostics(true);
  const body = editorBody();
  let diagnostics;
  if (body instanceof Error) {
    diagnostics = [{ severity: 'error', code: 'INVALID_JSON', message: body.message }];
  } else {
    try {
      const answer = await api('POST', `/tools/tools/check${query({ slug: $('tool-slug').value.trim(), version: $('tool-version').value.trim() })}`, body);
      diagnostics = answer.diagnostics;
    } catch (e) {
      diagnostics = [...(e.problem?.diagnostics ?? []), { severity: 'error', code: e.problem?.reason ?? e.problem?.code ?? 'CHECK_FAILED', message: e.problem?.detail ?? e.message }];
    }
  }
  if (generation !== editor.generation) return;
  editor.diagnostics = diagnostics;
  renderDiagnostics(false);
  repaint();
};

const checkSoon = () => {
  clearTimeout(editor.timer);
  renderDiagnostics(true);
  editor.timer = setTimeout(() => void checkEditor(), 150);
};

/** `1` → `2`, `1.4` → `1.5`, `v2-beta` → `v2-beta.1`. */
const nextVersion = (v) => {
  const m = /^(.*?)(\d+)$/.exec(v);
  return m === null ? `${v}.1` : `${m[1]}${Number(m[2]) + 1}`;
};

const bundleOptions = (selected) => {
  const live = [...state.bundles.values()].filter((b) => !b.isBuiltIn && (b.softDeletedAt === null || b.softDeletedAt === undefined));
  $('tool-bundle').replaceChildren(
    el('option', { value: '' }, live.length === 0 ? 'create a bundle first' : 'choose a bundle'),
    ...live.map((b) => el('option', { value: b.bundleID, selected: b.bundleID === selected }, b.displayName || b.slug)),
  );
};

/** Opens the editor: for a new tool, or (given a tool) for its next version, from its gram. */
const openToolEditor = async (tool) => {
  await loadGrammar();
  $('tool-error').textContent = '';
  bundleOptions(tool?.bundleID ?? state.bundle);
  $('tool-mode').value = 'gram';
  if (tool !== undefined) {
    const gram = await api('GET', `${toolPath(tool)}/gram`);
    const version = nextVersion(tool.version);
    $('tool-dialog-title').textContent = `New version of ${tool.slug}`;
    $('tool-slug').value = tool.slug;
    $('tool-version').value = version;
    // the gram names its version: the new one
    $('tool-source').value = gram.replace(/(\bversion\s*:\s*)("[^"]*"|'[^']*')/, `$1${JSON.stringify(version)}`);
  } else {
    $('tool-dialog-title').textContent = 'New tool';
    $('tool-slug').value = 'my-tool';
    $('tool-version').value = '1';
    $('tool-source').value = TEMPLATE;
  }
  editor.slug = $('tool-slug').value;
  editor.diagnostics = [];
  repaint();
  openDialog($('tool-dialog'), tool !== undefined ? $('tool-source') : $('tool-bundle'));
  void checkEditor();
};

const saveTool = async () => {
  const error = $('tool-error');
  error.textContent = '';
  for (const [id, what] of [['tool-bundle', 'a bundle'], ['tool-slug', 'a slug'], ['tool-version', 'a version']]) {
    if ($(id).value.trim() === '') {
      error.textContent = `Choose ${what}.`;
      $(id).focus();
      return;
    }
  }
  const body = editorBody();
  if (body instanceof Error) {
    error.textContent = body.message;
    $('tool-source').focus();
    return;
  }
  const key = { bundleID: $('tool-bundle').value, slug: $('tool-slug').value.trim(), version: $('tool-version').value.trim() };
  $('tool-save').disabled = true;
  try {
    const written = await api('PUT', toolPath(key), body);
    $('tool-dialog').close();
    const warnings = written.warnings?.length > 0 ? ` (${written.warnings.map((w) => w.message).join('; ')})` : '';
    say(`created ${key.slug} ${key.version}${warnings}`);
    await loadBundles();
    await loadTools();
    await showTool(written.tool);
  } catch (e) {
    error.textContent = problemText(e);
  } finally {
    $('tool-save').disabled = false;
  }
};

// ------------------------------------------------------------------------------------------------
// bundles: create (POST) and edit (PUT with its id)
// ------------------------------------------------------------------------------------------------

const bundleDialog = { editing: undefined };

const openBundleEditor = (bundle) => {
  bundleDialog.editing = bundle;
  $('bundle-dialog-title').textContent = bundle === undefined ? 'New bundle' : `Edit bundle ${bundle.slug}`;
  $('bundle-slug').value = bundle?.slug ?? '';
  $('bundle-name').value = bundle?.displayName ?? '';
  $('bundle-description').value = bundle?.description ?? '';
  $('bundle-error').textContent = '';
  openDialog($('bundle-dialog'), $('bundle-slug'));
};

const saveBundle = async () => {
  const slug = $('bundle-slug').value.trim();
  if (slug === '') {
    $('bundle-error').textContent = 'A bundle needs a slug.';
    $('bundle-slug').focus();
    return;
  }
  const b = bundleDialog.editing;
  const body = { slug, displayName: $('bundle-name').value.trim() || slug, description: $('bundle-description').value, ...(b !== undefined ? { isEnabled: b.isEnabled } : {}) };
  try {
    const saved = b === undefined ? await api('POST', '/tools/bundles', body) : await api('PUT', `/tools/bundles/${encodeURIComponent(b.bundleID)}`, body);
    $('bundle-dialog').close();
    say(`bundle ${saved.slug} ${b === undefined ? 'created' : 'saved'}`);
    await loadBundles();
  } catch (e) {
    $('bundle-error').textContent = problemText(e);
  }
};

// ------------------------------------------------------------------------------------------------
// deleting, after a confirmation (Cancel has the focus: Enter alone deletes nothing)
// ------------------------------------------------------------------------------------------------

const confirmState = { action: undefined };

const confirmThen = (title, text, label, action) => {
  confirmState.action = action;
  $('confirm-title').textContent = title;
  $('confirm-text').textContent = text;
  $('confirm-ok').textContent = label;
  $('confirm-error').textContent = '';
  openDialog($('confirm-dialog'), $('confirm-cancel'));
};

const deleteTool = (tool) =>
  confirmThen(`Delete ${tool.slug} ${tool.version}?`, `The version ${tool.version} of ${tool.slug} is deleted for good; clients that call it get NOT_FOUND.`, 'Delete tool', async () => {
    await api('DELETE', toolPath(tool));
    say(`deleted ${tool.slug} ${tool.version}`);
    state.selected = undefined;
    $('detail-pane').hidden = true;
    await loadBundles();
    await loadTools();
  });

const deleteBundle = (b) =>
  confirmThen(`Delete the bundle ${b.slug}?`, `${b.displayName || b.slug} and its ${count(b.toolCount ?? 0, 'tool')} are no longer served (the bundle is soft-deleted; an empty one is removed two days later).`, 'Delete bundle', async () => {
    await api('DELETE', `/tools/bundles/${encodeURIComponent(b.bundleID)}`);
    say(`deleted bundle ${b.slug}`);
    if (state.bundle === b.bundleID) state.bundle = undefined;
    await loadBundles();
    await loadTools();
  });

// ------------------------------------------------------------------------------------------------
// a tool's versions, side by side (lines that differ from the version before are marked)
// ------------------------------------------------------------------------------------------------

const compareVersions = (a, b) => a.localeCompare(b, undefined, { numeric: true });

/** The gram with one property of the tool's record per line (commas in strings stay), so that versions compare line by line. */
const spreadRecord = (gram) => {
  if (grammar.rules === undefined) return gram;
  const scopes = scopesOf(gram, grammar.rules);
  let depth = 0;
  let out = '';
  for (let k = 0; k < gram.length; k++) {
    const c = gram[k];
    const punctuation = scopes[k]?.startsWith('punctuation') === true;
    if (punctuation && c === '{') depth++;
    if (punctuation && c === '}') depth--;
    if (punctuation && c === ',' && depth === 1 && gram[k + 1] === ' ') {
      out += ',\n   ';
      k++;
      continue;
    }
    out += c;
  }
  return out;
};

const showVersions = async (tool) => {
  await loadGrammar();
  $('versions-title').textContent = `Versions of ${tool.slug}`;
  $('versions-state').textContent = 'Loading versions…';
  $('versions').replaceChildren();
  openDialog($('versions-dialog'), $('versions-close'));
  try {
    const all = [];
    let token;
    do {
      const page = await api('GET', `/tools/tools${query({ bundleIDs: tool.bundleID, includeDisabled: true, recommendedPageSize: 1000, pageToken: token })}`);
      all.push(...page.tools.filter((t) => t.slug === tool.slug));
      token = page.nextPageToken;
    } while (token !== undefined);
    all.sort((a, b) => compareVersions(a.version, b.version));
    const grams = (await Promise.all(all.map((t) => api('GET', `${toolPath(t)}/gram`)))).map(spreadRecord);
    $('versions-state').textContent = all.length === 1 ? 'Only one version.' : `${all.length} versions, oldest first; lines that differ from the version before are marked.`;
    $('versions').replaceChildren(
      ...all.map((t, k) => {
        const before = new Set(k > 0 ? grams[k - 1].split('\n') : []);
        const lines = el('div', { class: 'lines' }, ...grams[k].replace(/\n$/, '').split('\n').map((line) => {
          const pre = el('pre', { class: `gram${k > 0 && !before.has(line) ? ' changed' : ''}` });
          highlightInto(pre, line, grammar.rules);
          return pre;
        }));
        return el(
          'section',
          { class: 'version', dataset: { version: t.version }, 'aria-label': `version ${t.version}` },
          el('h3', {}, `${t.version}${t.isEnabled ? '' : ' (disabled)'}`),
          el('p', { class: 'meta' }, `${t.type}, created ${t.createdAt ?? '—'}, ${count(t.callCount ?? 0, 'call')}`),
          el('p', {}, t.description ?? ''),
          lines,
        );
      }),
    );
  } catch (e) {
    $('versions-state').textContent = `Could not load the versions: ${e.message}`;
  }
};

// ------------------------------------------------------------------------------------------------
// wiring
// ------------------------------------------------------------------------------------------------

const wireEditor = () => {
  const source = $('tool-source');
  source.addEventListener('input', () => {
    editor.diagnostics = []; // their places moved: the next check places them again
    repaint();
    checkSoon();
  });
  source.addEventListener('scroll', () => void ($('tool-highlight').scrollTop = source.scrollTop));
  source.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      $('tool-form').requestSubmit();
    }
  });
  $('tool-slug').addEventListener('input', () => {
    // the gram's name follows the slug while they agree
    const slug = $('tool-slug').value.trim();
    const head = new RegExp(`^(\\s*\\[\\s*)${editor.slug.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s*:)`);
    if ($('tool-mode').value === 'gram' && editor.slug !== '' && head.test(source.value)) source.value = source.value.replace(head, `$1${slug}$2`);
    editor.slug = slug;
    repaint();
    checkSoon();
  });
  $('tool-version').addEventListener('input', checkSoon);
  $('tool-mode').addEventListener('change', () => {
    repaint();
    checkSoon();
  });
  $('tool-form').addEventListener('submit', (e) => {
    e.preventDefault();
    void saveTool();
  });
  $('tool-cancel').addEventListener('click', () => $('tool-dialog').close());
  $('bundle-form').addEventListener('submit', (e) => {
    e.preventDefault();
    void saveBundle();
  });
  $('bundle-cancel').addEventListener('click', () => $('bundle-dialog').close());
  $('confirm-form').addEventListener('submit', (e) => {
    e.preventDefault();
    void (async () => {
      $('confirm-ok').disabled = true;
      try {
        await confirmState.action?.();
        $('confirm-dialog').close();
      } catch (err) {
        $('confirm-error').textContent = problemText(err);
      } finally {
        $('confirm-ok').disabled = false;
      }
    })();
  });
  $('confirm-cancel').addEventListener('click', () => $('confirm-dialog').close());
  $('versions-close').addEventListener('click', () => $('versions-dialog').close());
  $('new-tool').addEventListener('click', () => void guard(openToolEditor)());
  $('new-bundle').addEventListener('click', () => openBundleEditor());
};
