// gramkit's admin page: the catalog's administration and the registry's monitor in one page, over the
// service's own REST routes (no other API). Plain JavaScript, no build step, no dependency.
'use strict';

const state = {
  bundles: new Map(), // bundleID -> bundle
  bundle: undefined, // the selected bundleID, or undefined for every bundle
  tools: [], // the rows shown
  next: undefined, // the next page's token
  selected: undefined, // the toolID shown in the detail pane
  names: new Map(), // toolID -> "slug version" of every tool seen (usage names tools by registry id, else toolID)
  token: sessionStorage.getItem('gramkit-token') ?? '',
  generation: 0, // drops answers to requests that a newer one replaced
};

const $ = (id) => document.getElementById(id);

const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== undefined && c !== null) e.append(c);
  return e;
};

const say = (text) => {
  $('status').textContent = text;
};

/** A request to the service: the JSON answer, or an Error with the problem's code and detail. */
const api = async (method, path, body) => {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (state.token !== '') headers.authorization = `Bearer ${state.token}`;
  const response = await fetch(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const data = type.includes('json') && text !== '' ? JSON.parse(text) : text;
  if (response.status === 401) {
    $('token-box').hidden = false;
    $('token').focus();
  }
  if (!response.ok) {
    const error = new Error(typeof data === 'object' && data !== null ? `${data.reason ?? data.code}: ${data.detail}` : `${response.status} ${text}`);
    error.problem = data;
    throw error;
  }
  return data;
};

const guard = (f) => async (...args) => {
  try {
    await f(...args);
  } catch (e) {
    say(e.message);
  }
};

const query = (params) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
};

// ------------------------------------------------------------------------------------------------
// bundles
// ------------------------------------------------------------------------------------------------

/** A list's state line: loading (the rows shown stay until the answer), empty, failed (with Retry), or nothing. */
const listState = (id, kind, text, retry) => {
  const p = $(id);
  p.dataset.state = kind;
  p.hidden = kind === 'ready';
  p.replaceChildren(text, ...(retry !== undefined ? [' ', el('button', { type: 'button', class: 'retry', onclick: retry }, 'Retry')] : []));
};

const loadBundles = async () => {
  listState('bundles-state', 'loading', 'Loading bundles…');
  $('bundles').setAttribute('aria-busy', 'true');
  const all = [];
  let token;
  try {
    do {
      const page = await api('GET', `/tools/bundles${query({ includeDisabled: true, pageSize: 100, pageToken: token })}`);
      all.push(...page.bundles);
      token = page.nextPageToken;
    } while (token !== undefined);
  } catch (e) {
    listState('bundles-state', 'error', `Could not load the bundles: ${e.message}`, () => void guard(loadBundles)());
    throw e;
  } finally {
    $('bundles').removeAttribute('aria-busy');
  }
  state.bundles = new Map(all.map((b) => [b.bundleID, b]));
  renderBundles();
  const own = all.filter((b) => !b.isBuiltIn && (b.softDeletedAt === null || b.softDeletedAt === undefined));
  if (own.length === 0) listState('bundles-state', 'empty', 'No bundle of yours yet: New bundle makes one.');
  else listState('bundles-state', 'ready', '');
};

const toggle = (label, checked, onchange) => el('input', { type: 'checkbox', role: 'switch', 'aria-label': label, checked, onchange, onclick: (e) => e.stopPropagation() });

const renderBundles = () => {
  const list = $('bundles');
  list.replaceChildren(
    el('li', { class: state.bundle === undefined ? 'selected' : undefined, dataset: { bundle: '' }, onclick: () => selectBundle(undefined) }, el('button', { type: 'button', class: 'name link', 'aria-pressed': state.bundle === undefined ? 'true' : 'false' }, 'All bundles')),
    ...[...state.bundles.values()]
      .filter((b) => b.softDeletedAt === null || b.softDeletedAt === undefined)
      .sort((a, b) => Number(a.isBuiltIn === true) - Number(b.isBuiltIn === true))
      .map((b) =>
        el(
          'li',
          { class: [b.bundleID === state.bundle ? 'selected' : '', b.isEnabled ? '' : 'disabled'].join(' ').trim() || undefined, dataset: { bundle: b.bundleID, slug: b.slug }, onclick: () => selectBundle(b.bundleID) },
          el('button', { type: 'button', class: 'name link', 'aria-pressed': b.bundleID === state.bundle ? 'true' : 'false' }, b.displayName || b.slug, b.isBuiltIn ? el('span', { class: 'badge' }, 'built-in') : undefined, el('span', { class: 'badge' }, String(b.toolCount ?? ''))),
          b.isBuiltIn ? undefined : el('button', { type: 'button', class: 'icon edit', 'aria-label': `edit bundle ${b.slug}`, title: 'Edit', onclick: (e) => (e.stopPropagation(), openBundleEditor(b)) }, '✎'),
          b.isBuiltIn ? undefined : el('button', { type: 'button', class: 'icon delete', 'aria-label': `delete bundle ${b.slug}`, title: 'Delete', onclick: (e) => (e.stopPropagation(), deleteBundle(b)) }, '✕'),
          toggle(`enable bundle ${b.slug}`, b.isEnabled, guard(async (e) => {
            await api('PATCH', `/tools/bundles/${encodeURIComponent(b.bundleID)}`, { isEnabled: e.target.checked });
            say(`bundle ${b.slug} ${e.target.checked ? 'enabled' : 'disabled'}`);
            await loadBundles();
          })),
        ),
      ),
  );
};

const selectBundle = (bundleID) => {
  state.bundle = bundleID;
  renderBundles();
  void guard(loadTools)();
};

// ------------------------------------------------------------------------------------------------
// tools: the list, the search route, the agent filter
// ------------------------------------------------------------------------------------------------

const toolPath = (t) => `/tools/bundles/${encodeURIComponent(t.bundleID)}/tools/${encodeURIComponent(t.slug)}/version/${encodeURIComponent(t.version)}`;

const loadTools = async (more = false) => {
  const generation = ++state.generation;
  const q = $('search').value.trim();
  const includeDisabled = $('show-disabled').checked;
  const agentOnly = $('agent-only').checked;
  const token = more ? state.next : undefined;
  // the rows shown stay (marked busy) until the answer replaces them: the list never looks empty while it loads
  listState('tools-state', 'loading', q !== '' ? `Searching for “${q}”…` : 'Loading tools…');
  for (const t of ['tools', 'builtin-tools']) $(t).setAttribute('aria-busy', 'true');
  let page;
  try {
    page =
      q !== ''
        ? await api('GET', `/tools/tools/search${query({ q, includeDisabled, pageSize: 50, pageToken: token })}`)
        : await api('GET', `/tools/tools${query({ includeDisabled, bundleIDs: state.bundle, createdBy: agentOnly ? 'agent' : undefined, recommendedPageSize: 50, pageToken: token })}`);
  } catch (e) {
    if (generation === state.generation) {
      listState('tools-state', 'error', `Could not load the tools: ${e.message}`, () => void guard(loadTools)());
      for (const t of ['tools', 'builtin-tools']) $(t).removeAttribute('aria-busy');
    }
    throw e;
  }
  if (generation !== state.generation) return;
  for (const t of ['tools', 'builtin-tools']) $(t).removeAttribute('aria-busy');
  // the search route ranks every tool: the bundle and agent filters apply to its page here
  const rows = page.tools.filter((t) => (state.bundle === undefined || t.bundleID === state.bundle) && (!agentOnly || t.createdBy === 'agent'));
  state.tools = more ? [...state.tools, ...rows] : rows;
  for (const t of page.tools) state.names.set(t.toolID, `${t.slug} ${t.version}`);
  state.next = page.nextPageToken;
  $('more').hidden = state.next === undefined;
  $('tools-scope').textContent = q !== '' ? `matching “${q}”` : state.bundle !== undefined ? `in ${state.bundles.get(state.bundle)?.slug ?? state.bundle}` : '';
  renderTools();
  say('');
};

/** The loaded rows the type filter keeps, in the order the sort asks (as listed: the server's order). */
const visibleTools = () => {
  const type = $('type-filter').value;
  const rows = state.tools.filter((t) => type === '' || t.type === type);
  const by = {
    name: (a, b) => a.slug.localeCompare(b.slug) || b.version.localeCompare(a.version, undefined, { numeric: true }),
    newest: (a, b) => String(b.createdAt ?? '').localeCompare(String(a.createdAt ?? '')),
    calls: (a, b) => (b.callCount ?? 0) - (a.callCount ?? 0),
  }[$('sort').value];
  return by === undefined ? rows : [...rows].sort(by);
};

/** The type filter offers the types of the tools loaded (the chosen one stays). */
const renderTypeFilter = () => {
  const select = $('type-filter');
  const chosen = select.value;
  const types = [...new Set([...state.tools.map((t) => t.type), ...(chosen !== '' ? [chosen] : [])])].sort();
  select.replaceChildren(el('option', { value: '' }, 'all'), ...types.map((t) => el('option', { value: t, selected: t === chosen }, t)));
};

const renderTools = () => {
  renderTypeFilter();
  const rows = visibleTools();
  // the user's tools first; the built-in ones in a group of their own, after them
  const own = rows.filter((t) => t.isBuiltIn !== true);
  const builtin = rows.filter((t) => t.isBuiltIn === true);
  $('tools').tBodies[0].replaceChildren(...own.map(toolRow));
  $('builtin-tools').tBodies[0].replaceChildren(...builtin.map(toolRow));
  $('builtin-tools').hidden = builtin.length === 0;
  $('tools').hidden = own.length === 0 && builtin.length > 0;
  if (rows.length > 0) return void listState('tools-state', 'ready', '');
  const q = $('search').value.trim();
  const filtered = q !== '' || $('agent-only').checked || $('type-filter').value !== '' || state.bundle !== undefined;
  listState('tools-state', 'empty', q !== '' ? `No tool matches “${q}”.` : filtered ? 'No tool matches these filters.' : 'No tools yet: New tool makes one.');
};

const toolRow = (t) =>
      el(
        'tr',
        { class: [t.toolID === state.selected ? 'selected' : '', t.isEnabled ? '' : 'disabled'].join(' ').trim() || undefined, dataset: { tool: t.slug, version: t.version, toolId: t.toolID }, onclick: () => void guard(showTool)(t) },
        el('td', {}, el('button', { type: 'button', class: 'link slug' }, el('strong', {}, t.slug)), t.displayName && t.displayName !== t.slug ? el('div', {}, t.displayName) : undefined, t.available === false ? el('div', { class: 'unavailable' }, 'unavailable') : undefined),
        el('td', {}, t.version),
        el('td', { class: 'opt' }, t.type),
        el('td', { class: 'created-by opt' }, t.createdBy ?? 'system'),
        el('td', { class: 'calls opt' }, String(t.callCount ?? 0)),
        el('td', {}, toggle(`enable tool ${t.slug} ${t.version}`, t.isEnabled, guard(async (e) => {
          await api('PATCH', toolPath(t), { isEnabled: e.target.checked });
          say(`${t.slug} ${t.version} ${e.target.checked ? 'enabled' : 'disabled'}`);
          await loadTools();
        }))),
      );

// ------------------------------------------------------------------------------------------------
// a tool: detail, gram, and a tester generated from its argSchema
// ------------------------------------------------------------------------------------------------

const showTool = async (row) => {
  state.selected = row.toolID;
  renderTools();
  const [tool, gram] = await Promise.all([api('GET', toolPath(row)), api('GET', `${toolPath(row)}/gram`), loadGrammar()]);
  $('detail-pane').hidden = false;
  $('detail-title').textContent = `${tool.displayName || tool.slug} (${tool.slug} ${tool.version})`;
  $('detail-description').textContent = tool.description ?? '';
  const facts = [
    ['bundle', tool.bundleSlug ?? tool.bundleID],
    ['type', tool.type],
    ['created by', tool.createdBy ?? 'system'],
    ['tags', (tool.tags ?? []).join(', ')],
    ['calls', String(tool.callCount ?? 0)],
    ['last called', tool.lastCalledAt ?? '—'],
    ['modified', tool.modifiedAt],
    ...(tool.available === false ? [['unavailable', tool.unavailableReason ?? '']] : []),
  ];
  $('detail-facts').replaceChildren(...facts.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]));
  highlightInto($('detail-gram'), gram.replace(/\n$/, ''), grammar.rules);
  $('detail-actions').hidden = tool.isBuiltIn === true; // the built-in tools are read-only
  $('edit-tool').onclick = () => void guard(openToolEditor)(tool);
  $('show-versions').onclick = () => void guard(showVersions)(tool);
  $('delete-tool').onclick = () => deleteTool(tool);
  $('result').textContent = '';
  $('result').className = '';
  renderTester(tool);
};

/** One form field for a property of the argument schema (object and array values are typed as JSON). */
const field = (name, schema, required) => {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  const label = `${name}${required ? ' *' : ''}`;
  const attrs = { name, dataset: { kind: schema.enum !== undefined ? 'enum' : (type ?? 'json') }, required: required && type !== 'boolean' };
  let input;
  if (schema.enum !== undefined) {
    input = el('select', attrs, ...(required ? [] : [el('option', { value: '' }, '')]), ...schema.enum.map((v, i) => el('option', { value: String(i) }, JSON.stringify(v))));
  } else if (type === 'boolean') {
    input = el('input', { ...attrs, type: 'checkbox', checked: schema.default === true });
  } else if (type === 'integer' || type === 'number') {
    input = el('input', { ...attrs, type: 'number', step: type === 'integer' ? '1' : 'any', value: schema.default });
  } else if (type === 'string') {
    input = el('input', { ...attrs, type: 'text', value: schema.default });
  } else {
    input = el('textarea', { ...attrs, rows: '3', placeholder: 'JSON' }, schema.default !== undefined ? JSON.stringify(schema.default) : undefined);
  }
  return el('label', {}, el('span', {}, label), schema.description ? el('small', {}, schema.description) : undefined, input);
};

/** The arguments the form holds, as the schema types them (empty optional fields are left out). */
const formArgs = (form, schema) => {
  const args = {};
  for (const input of form.querySelectorAll('[name]')) {
    const name = input.name;
    const kind = input.dataset.kind;
    if (kind === 'boolean') {
      args[name] = input.checked;
      continue;
    }
    if (input.value === '') continue;
    if (kind === 'enum') args[name] = schema.properties[name].enum[Number(input.value)];
    else if (kind === 'integer' || kind === 'number') args[name] = Number(input.value);
    else if (kind === 'string') args[name] = input.value;
    else args[name] = JSON.parse(input.value);
  }
  return args;
};

const renderTester = (tool) => {
  const schema = tool.argSchema ?? { type: 'object', properties: {} };
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const form = $('tester');
  form.replaceChildren(
    ...Object.entries(properties).map(([name, s]) => field(name, s, required.has(name))),
    el('button', { type: 'submit', disabled: tool.available === false }, 'Invoke'),
  );
  form.onsubmit = (e) => {
    e.preventDefault();
    void (async () => {
      const out = $('result');
      let args;
      try {
        args = formArgs(form, schema);
      } catch (err) {
        out.className = 'failed';
        out.textContent = `not JSON: ${err.message}`;
        return;
      }
      out.className = '';
      out.textContent = '…';
      try {
        const result = await api('POST', `${toolPath(tool)}/invoke`, { args });
        out.className = result.ok ? 'ok' : 'failed';
        out.textContent = JSON.stringify(result, null, 2);
      } catch (err) {
        out.className = 'failed';
        out.textContent = JSON.stringify(err.problem ?? err.message, null, 2);
      }
      await guard(loadUsage)();
    })();
  };
};

// ------------------------------------------------------------------------------------------------
// usage (the recent calls)
// ------------------------------------------------------------------------------------------------

const loadUsage = async () => {
  const { usage } = await api('GET', '/api/v1/tools/usage?limit=20');
  $('usage').tBodies[0].replaceChildren(
    ...usage.map((u) => [u, u.ok ? 'ok' : (u.reason ?? u.code ?? 'failed')]).map(([u, outcome]) =>
      el('tr', { class: u.ok ? 'ok' : 'failed' }, el('td', {}, u.ts), el('td', {}, u.tool === u.toolID ? (state.names.get(u.toolID) ?? u.tool) : u.tool), el('td', {}, u.agent_id ?? '—'), el('td', {}, outcome), el('td', {}, `${Math.round(u.durationMs * 10) / 10} ms`)),
    ),
  );
};

// ------------------------------------------------------------------------------------------------
// experiments (gramkit serve --experiments DIR): each one's report page and JSON report. Without a
// token a link opens them; with one (a link cannot send it), a click fetches the file with the
// token and saves it: the page is self-contained, and opens from the disk as it is.
// ------------------------------------------------------------------------------------------------

const saveWithToken = async (event) => {
  if (state.token === '') return;
  event.preventDefault();
  const link = event.currentTarget;
  const response = await fetch(link.href, { headers: { authorization: `Bearer ${state.token}` } });
  const file = link.dataset.file;
  if (!response.ok) throw new Error(`${file}: ${response.status} ${(await response.text()).slice(0, 200)}`);
  const url = URL.createObjectURL(await response.blob());
  const save = el('a', { href: url, download: file });
  document.body.append(save);
  save.click();
  save.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  say(`saved ${file}: open it in the browser`);
};

const loadExperiments = async () => {
  let answer;
  const experiments = [];
  try {
    // every page (the list pages at 50 by default)
    let token;
    do {
      answer = await api('GET', `/api/v1/experiments${query({ pageSize: 1000, pageToken: token })}`);
      experiments.push(...answer.experiments);
      token = answer.nextPageToken;
    } while (token !== undefined);
  } catch (e) {
    // a caller without read_registry (403): no panel
    if (e.problem?.status === 403) return void ($('experiments-pane').hidden = true);
    throw e;
  }
  // a server without --experiments: no panel
  $('experiments-pane').hidden = !answer.enabled;
  const path = (x) => `/api/v1/experiments/${encodeURIComponent(x.name)}`;
  const link = (x, suffix, file, text) => el('a', { href: `${path(x)}${suffix}`, target: '_blank', rel: 'noopener', dataset: { file }, onclick: (e) => void guard(saveWithToken)(e) }, text);
  $('experiments').tBodies[0].replaceChildren(
    ...experiments.map((x) =>
      el(
        'tr',
        { dataset: { experiment: x.name }, class: x.finished ? 'finished' : 'unfinished' },
        el('td', {}, x.name),
        el('td', {}, x.agent),
        el('td', {}, x.variants.join(', ')),
        el('td', {}, `${x.runs} / ${x.total}`),
        el('td', {}, x.startedAt ?? (x.finished ? '' : 'running or stopped')),
        el('td', {}, ...(x.finished ? [link(x, '/report.html', `${x.name}-report.html`, 'page'), link(x, '', `${x.name}-report.json`, 'JSON')] : ['—'])),
      ),
    ),
  );
};

// ------------------------------------------------------------------------------------------------
// approvals: the calls waiting for a person, decided here (approve, approve with changed
// arguments, deny); kept live by the events stream, and every 5 s in case it drops
// ------------------------------------------------------------------------------------------------

const approvalItems = new Map(); // approval id -> its <li>, kept while it waits (so edits survive a refresh)

const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The arguments a person typed: an object, or an Error saying what is wrong. */
const typedArgs = (text) => {
  let v;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return new Error(`not JSON: ${e.message}`);
  }
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : new Error('the arguments must be a JSON object');
};

const approvalItem = (a) => {
  const original = JSON.stringify(a.args, null, 2);
  const label = `${a.tool} call ${a.id.slice(-6)}`;
  const args = el('textarea', { class: 'args', rows: String(Math.min(12, original.split('\n').length + 1)), spellcheck: 'false', 'aria-label': `arguments of the ${label} (JSON; edit to approve with changes)` });
  args.value = original;
  const invalid = el('span', { class: 'invalid', role: 'alert' });
  const message = el('input', { type: 'text', class: 'message', placeholder: 'Why (told to the caller)', 'aria-label': `why the ${label} is denied`, maxlength: '2000' });
  const decide = async (verb, body) => {
    try {
      await api('POST', `/api/v1/approvals/${encodeURIComponent(a.id)}/${verb}`, body);
      say(`${a.tool}: ${verb === 'deny' ? 'denied' : body.args !== undefined ? 'approved with changed arguments' : 'approved'}`);
    } catch (e) {
      say(e.message); // e.g. it expired meanwhile
    }
    await guard(loadApprovals)();
  };
  const approve = el('button', { type: 'button', class: 'approve', onclick: () => void decide('approve', {}) }, 'Approve');
  const approveChanged = el('button', { type: 'button', class: 'approve-changed', disabled: true, onclick: () => {
    const v = typedArgs(args.value);
    if (v instanceof Error) return void (invalid.textContent = v.message);
    void decide('approve', { args: v });
  } }, 'Approve with changes');
  const deny = el('button', { type: 'button', class: 'deny', onclick: () => void decide('deny', message.value.trim() !== '' ? { message: message.value.trim() } : {}) }, 'Deny');
  // edited arguments: approving as asked would silently drop the edit, so only the changed approval is offered
  args.addEventListener('input', () => {
    const v = typedArgs(args.value);
    const changed = v instanceof Error || !sameJson(v, a.args);
    invalid.textContent = v instanceof Error ? v.message : '';
    approve.disabled = changed;
    approveChanged.disabled = !changed || v instanceof Error;
  });
  const who = [a.caller?.via !== undefined ? `via ${a.caller.via}` : '', a.caller?.agentId !== undefined ? `agent ${a.caller.agentId}` : ''].filter((x) => x !== '').join(', ');
  return el(
    'li',
    { dataset: { approval: a.id, tool: a.tool }, 'aria-label': label },
    el('strong', { class: 'tool' }, a.tool),
    el('p', { class: 'reason' }, a.reason),
    el('p', { class: 'meta' }, `${who !== '' ? `${who}; ` : ''}asked ${new Date(a.requestedAt).toLocaleTimeString()}, refused at ${new Date(a.expiresAt).toLocaleTimeString()} unless decided`),
    el('label', {}, el('span', {}, 'Arguments'), args),
    invalid,
    el('div', { class: 'actions' }, approve, approveChanged, message, deny),
  );
};

const loadApprovals = async () => {
  let answer;
  try {
    answer = await api('GET', '/api/v1/approvals');
  } catch (e) {
    // a caller without the approve_tool scope (403) does not see the panel
    if (e.problem?.status === 403) return void ($('approvals-pane').hidden = true);
    throw e;
  }
  $('approvals-pane').hidden = !answer.enabled && answer.approvals.length === 0;
  const ids = new Set(answer.approvals.map((a) => a.id));
  for (const [id, li] of approvalItems) {
    if (!ids.has(id)) {
      li.remove();
      approvalItems.delete(id);
    }
  }
  for (const a of answer.approvals) {
    if (approvalItems.has(a.id)) continue;
    const li = approvalItem(a);
    approvalItems.set(a.id, li);
    $('approvals').append(li);
  }
  $('approvals-count').textContent = String(answer.approvals.length);
  $('approvals-empty').hidden = answer.approvals.length > 0;
};

/** Reloads the approvals at each approval event; reconnects after a pause when the stream ends. */
const followApprovals = async () => {
  const decoder = new TextDecoder();
  for (;;) {
    try {
      const headers = state.token !== '' ? { authorization: `Bearer ${state.token}` } : {};
      const response = await fetch('/api/v1/events?types=approval_requested,approval_decided', { headers });
      if (!response.ok || response.body === null) throw new Error(`events: ${response.status}`);
      const reader = response.body.getReader();
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        const end = buffer.lastIndexOf('\n\n');
        if (end < 0) continue;
        const events = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^event: approval_/m.test(events)) await guard(loadApprovals)();
      }
    } catch {
      // the polling below keeps the list fresh meanwhile
    }
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
};

// ------------------------------------------------------------------------------------------------
// start
// ------------------------------------------------------------------------------------------------

let typing;
$('search').addEventListener('input', () => {
  clearTimeout(typing);
  typing = setTimeout(() => void guard(loadTools)(), 150);
});
$('agent-only').addEventListener('change', () => void guard(loadTools)());
$('show-disabled').addEventListener('change', () => void guard(loadTools)());
$('more').addEventListener('click', () => void guard(loadTools)(true));
$('sort').addEventListener('change', renderTools);
$('type-filter').addEventListener('change', renderTools);
wireEditor();
$('token').value = state.token;
$('token').addEventListener('change', () => {
  state.token = $('token').value;
  sessionStorage.setItem('gramkit-token', state.token);
  void start();
});

const start = guard(async () => {
  void guard(loadApprovals)();
  await loadBundles();
  await loadTools();
  await loadUsage();
  await loadExperiments();
});
void start();
void followApprovals();
setInterval(() => void guard(loadUsage)(), 5000);
setInterval(() => void guard(loadApprovals)(), 5000);
