// The kafka-mv web console: three pages over the REST API (/v1), routed by the URL's hash.
// Every value from the server is set as text, never as HTML.
'use strict';

const page = document.getElementById('page');
let refreshTimer = null;
/** Counts page changes: work started for an earlier page does not draw over the current one. */
let generation = 0;
const current = token => token === generation;

/** Builds an element: el('td', {class: 'num'}, 'text', childElement, ...). */
function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value !== undefined && value !== null) node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function svg(tag, attributes, ...children) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  for (const child of children) node.append(child instanceof Node ? child : String(child));
  return node;
}

async function api(method, path, body) {
  const headers = body ? {'Content-Type': 'application/json'} : {};
  const token = sessionStorage.getItem('kafka-mv.token');
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {method, headers, body: body ? JSON.stringify(body) : undefined});
  setConnection(true);
  if (response.status === 401) {
    askForToken(token !== null);
    throw new Error('unauthorized');
  }
  const text = await response.text();
  const json = text ? JSON.parse(text) : {};
  return {ok: response.ok, status: response.status, json};
}

/** The service wants a bearer token (--rest-tokens-file): ask for one, keep it for this tab only. */
function askForToken(rejected) {
  clearTimeout(refreshTimer);
  generation++;
  const input = el('input', {type: 'password', id: 'token', autocomplete: 'off', size: 40});
  const submit = el('button', {class: 'primary', id: 'sign-in'}, 'Sign in');
  submit.addEventListener('click', () => {
    sessionStorage.setItem('kafka-mv.token', input.value.trim());
    route();
  });
  input.addEventListener('keydown', event => { if (event.key === 'Enter') submit.click(); });
  page.replaceChildren(el('h1', {}, 'Sign in'),
    rejected ? el('div', {class: 'error', id: 'token-error'}, 'That token was not accepted.') : null,
    el('p', {}, 'This kafka-mv asks for a bearer token (one from its --rest-tokens-file).'),
    el('div', {class: 'toolbar'}, input, submit));
  input.focus();
}

function setConnection(up) {
  const connection = document.getElementById('connection');
  connection.textContent = up ? 'connected' : 'service unreachable, retrying';
  connection.classList.toggle('down', !up);
}

function formatCount(n) {
  return Math.round(n).toLocaleString('en-US');
}

function formatDuration(seconds) {
  if (seconds === undefined || seconds === null) return '';
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), rest = s % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m ${String(rest).padStart(2, '0')}s`;
  return `${rest}s`;
}

function schedule(refresh, millis, token) {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(async () => {
    if (!current(token)) return;
    try {
      await refresh();
    } catch (e) {
      if (e.message === 'unauthorized') return;
      setConnection(false);
    }
    if (current(token)) schedule(refresh, millis, token);
  }, millis);
}

// ---- Jobs ------------------------------------------------------------------------------------

function progressBar(job) {
  const percent = Math.min(100, job.progress * 100);
  const state = job.status === 'CREATED' ? 'done' : job.status === 'FAILED' ? 'failed' : '';
  return el('div', {class: `bar ${state}`, role: 'progressbar', 'aria-valuemin': 0, 'aria-valuemax': 100,
      'aria-valuenow': percent.toFixed(2)},
    el('div', {class: 'fill', style: `width: ${percent.toFixed(2)}%`}),
    el('span', {class: 'label'}, job.percent));
}

function jobRow(job) {
  // A waiting job (over views still being created) can be cancelled and paused like a backfill.
  const running = job.status === 'CREATING' || job.status === 'WAITING';
  const cancel = running
    ? el('button', {class: 'danger cancel', 'data-job-id': job.id}, 'Cancel')
    : null;
  if (cancel) cancel.addEventListener('click', () => confirmCancel(job));
  const pause = running
    ? el('button', {class: 'pause', 'data-job-id': job.id}, job.paused ? 'Resume' : 'Pause')
    : null;
  if (pause) pause.addEventListener('click', () => pauseOrResume(job));
  // A created view whose state an instance still restores after a restart: readable once it is whole.
  const status = running && job.paused ? 'paused' : running && job.queued ? 'queued'
    : job.hydrated === false ? 'restoring' : job.status.toLowerCase();
  return el('tr', {'data-job-id': job.id, 'data-status': job.status},
    el('td', {class: 'num'}, job.id),
    el('td', {}, job.object),
    el('td', {class: 'statement'}, job.statement),
    el('td', {class: `status-${status}`}, status,
      job.failure ? el('div', {class: 'notice'}, job.failure) : null,
      job.waitingFor ? el('div', {class: 'notice'}, `for ${job.waitingFor.join(', ')}`) : null,
      job.parallelismSet
        ? el('div', {class: 'notice'}, `${job.parallelism} thread${job.parallelism === 1 ? '' : 's'} per instance`)
        : null),
    el('td', {}, progressBar(job)),
    el('td', {class: 'num rate'}, running && job.recordsPerSecond !== undefined
      ? `${formatCount(job.recordsPerSecond)} rows/s` : ''),
    el('td', {class: 'num eta'}, running ? formatDuration(job.etaSeconds) : ''),
    el('td', {class: 'num'}, `${formatCount(job.recordsBackfilled)} / ${formatCount(job.recordsBackfilled + job.recordsRemaining)}`),
    el('td', {}, pause, cancel));
}

// A paused backfill keeps its progress; resuming goes on at the rate limit it had.
async function pauseOrResume(job) {
  const response = await api('POST', `/v1/jobs/${job.id}/${job.paused ? 'resume' : 'pause'}`);
  if (!response.ok) alertProblem(response.json);
  await renderJobs(false, generation);
}

function confirmCancel(job) {
  const dialog = document.getElementById('confirm-cancel');
  document.getElementById('confirm-cancel-text').textContent =
    `Cancel job ${job.id} (${job.object})? Its progress and everything it built so far are dropped.`;
  dialog.returnValue = '';
  dialog.onclose = async () => {
    if (dialog.returnValue !== 'cancel') return;
    const response = await api('DELETE', `/v1/jobs/${job.id}`);
    if (!response.ok) alertProblem(response.json);
    await renderJobs(false, generation);
  };
  dialog.showModal();
}

function alertProblem(problem) {
  page.prepend(el('div', {class: 'error'}, el('span', {class: 'code'}, problem.code || problem.status),
    problem.detail || problem.title));
}

async function renderJobs(first, token) {
  const {json} = await api('GET', '/v1/jobs');
  if (!current(token)) return;
  const jobs = [...json.jobs].sort((a, b) => b.id - a.id);
  const table = jobs.length === 0
    ? el('p', {class: 'empty'}, 'No jobs. Run CREATE MATERIALIZED VIEW, CREATE SINK or CREATE INDEX to start one.')
    : el('table', {id: 'jobs'},
      el('thead', {}, el('tr', {},
        ['Id', 'Object', 'Statement', 'Status', 'Progress', 'Rate', 'ETA', 'Records', ''].map(
          (name, i) => el('th', {class: [0, 5, 6, 7].includes(i) ? 'num' : null}, name)))),
      el('tbody', {}, jobs.map(jobRow)));
  if (first) {
    page.replaceChildren(el('h1', {}, 'Jobs'), el('div', {id: 'jobs-body'}, table));
  } else {
    const body = document.getElementById('jobs-body');
    if (body) body.replaceChildren(table);
  }
  // How many times the table was drawn from a fresh answer, for tests waiting for the page to catch up.
  page.dataset.draws = String(Number(page.dataset.draws || 0) + 1);
}

// ---- Objects ---------------------------------------------------------------------------------

async function renderObjects(token) {
  const {json} = await api('GET', '/v1/objects');
  if (!current(token)) return;
  const byKind = new Map();
  for (const object of json.objects) {
    if (!byKind.has(object.kind)) byKind.set(object.kind, []);
    byKind.get(object.kind).push(object);
  }
  const sections = [];
  for (const [kind, objects] of byKind) {
    sections.push(el('h2', {}, `${kind}s`.replace(/xs$/, 'xes')),
      el('table', {class: 'objects', 'data-kind': kind},
        el('thead', {}, el('tr', {}, el('th', {}, 'Name'), el('th', {}, 'Status'), el('th', {}, 'Definition'))),
        el('tbody', {}, objects.map(object => el('tr', {'data-name': object.name},
          el('td', {}, el('a', {href: `#/objects/${encodeURIComponent(object.name)}`}, object.name)),
          el('td', {}, object.status),
          el('td', {class: 'statement'}, object.statement))))));
  }
  page.replaceChildren(el('h1', {}, 'Objects'),
    ...(sections.length ? sections : [el('p', {class: 'empty'}, 'Nothing yet: create a table or a source first.')]));
}

async function renderObject(name, token) {
  page.replaceChildren(el('h1', {}, name), el('p', {class: 'empty'}, 'Loading…'));
  const {ok, json} = await api('GET', `/v1/objects/${encodeURIComponent(name)}`);
  if (!current(token)) return;
  if (!ok) {
    page.replaceChildren(el('h1', {}, name), el('div', {class: 'error'}, json.detail));
    return;
  }
  const facts = el('dl', {class: 'facts', id: 'facts'});
  const fact = (label, value) => {
    if (value !== undefined && value !== null) facts.append(el('dt', {}, label), el('dd', {'data-fact': label}, value));
  };
  fact('Kind', json.kind);
  fact('Status', json.status);
  fact('Rows', json.rows !== undefined && json.rows !== null ? formatCount(json.rows) : undefined);
  fact('Lag (records)', json.lag !== undefined && json.lag !== null ? formatCount(json.lag) : undefined);
  fact('Topic', json.topic || json.sinkTopic);
  fact('Format', json.format);
  fact('Key', json.key && json.key.length ? json.key.join(', ') : undefined);
  fact('On', json.on);
  fact('Job', json.jobId);
  const parts = [el('h1', {}, `${json.kind} ${json.name}`), facts, el('h2', {}, 'SQL'),
    el('pre', {id: 'object-sql'}, json.statement)];
  if (json.columns && json.columns.length && typeof json.columns[0] === 'object') {
    parts.push(el('h2', {}, 'Columns'), el('table', {id: 'columns'},
      el('thead', {}, el('tr', {}, el('th', {}, 'Name'), el('th', {}, 'Type'), el('th', {}, 'Nullable'))),
      el('tbody', {}, json.columns.map(column => el('tr', {},
        el('td', {}, column.name), el('td', {}, column.type), el('td', {}, column.nullable ? 'yes' : 'no'))))));
  }
  if (json.graph) {
    parts.push(el('h2', {}, 'Topology'), drawGraph(json.graph));
  }
  page.replaceChildren(...parts);
}

/** Lays the graph out in columns by the longest path from a source, and draws it as SVG. */
function drawGraph(graph) {
  const incoming = new Map(graph.nodes.map(node => [node.id, []]));
  for (const edge of graph.edges) incoming.get(edge.to).push(edge.from);
  const layer = new Map();
  const layerOf = (id, seen = new Set()) => {
    if (layer.has(id)) return layer.get(id);
    if (seen.has(id)) return 0;
    seen.add(id);
    const inputs = incoming.get(id);
    const value = inputs.length === 0 ? 0 : 1 + Math.max(...inputs.map(input => layerOf(input, seen)));
    layer.set(id, value);
    return value;
  };
  graph.nodes.forEach(node => layerOf(node.id));
  const width = 210, height = 46, gapX = 50, gapY = 18;
  const rows = new Map();
  const position = new Map();
  for (const node of graph.nodes) {
    const column = layer.get(node.id);
    const row = rows.get(column) || 0;
    rows.set(column, row + 1);
    position.set(node.id, {x: 10 + column * (width + gapX), y: 10 + row * (height + gapY)});
  }
  const columns = Math.max(...layer.values()) + 1;
  const tallest = Math.max(...rows.values());
  const picture = svg('svg', {class: 'graph', id: 'topology-graph', width: 20 + columns * (width + gapX) - gapX,
    height: 20 + tallest * (height + gapY) - gapY});
  picture.append(svg('defs', {}, svg('marker', {id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5,
    markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse'}, svg('path', {d: 'M 0 0 L 10 5 L 0 10 z', fill: '#8a93a6'}))));
  for (const edge of graph.edges) {
    const from = position.get(edge.from), to = position.get(edge.to);
    const x1 = from.x + width, y1 = from.y + height / 2, x2 = to.x, y2 = to.y + height / 2;
    const middle = (x1 + x2) / 2;
    picture.append(svg('path', {class: 'edge', d: `M ${x1} ${y1} C ${middle} ${y1}, ${middle} ${y2}, ${x2} ${y2}`,
      'marker-end': 'url(#arrow)'}));
  }
  const clip = text => text.length > 32 ? text.slice(0, 31) + '…' : text;
  for (const node of graph.nodes) {
    const {x, y} = position.get(node.id);
    const title = svg('title', {}, `${node.label}\n${node.detail}`);
    picture.append(svg('g', {class: `node ${node.kind.toLowerCase()}`, 'data-node-id': node.id},
      title,
      svg('rect', {x, y, width, height}),
      svg('text', {x: x + 8, y: y + 18}, clip(node.label)),
      svg('text', {x: x + 8, y: y + 35, class: 'detail'}, clip(`${node.kind.toLowerCase()} · ${node.detail}`))));
  }
  return picture;
}

// ---- SQL -------------------------------------------------------------------------------------

function renderSql() {
  const editor = el('textarea', {id: 'sql', spellcheck: 'false', placeholder: 'SELECT * FROM my_view LIMIT 10;'});
  editor.value = sessionStorage.getItem('kafka-mv.sql') || '';
  const background = el('input', {type: 'checkbox', id: 'background-ddl'});
  const run = el('button', {class: 'primary', id: 'run'}, 'Run');
  const output = el('div', {id: 'results'});
  run.addEventListener('click', () => runSql(editor.value, background.checked, output));
  editor.addEventListener('keydown', event => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) run.click();
  });
  page.replaceChildren(el('h1', {}, 'SQL'), editor,
    el('div', {class: 'toolbar'}, run, el('label', {}, background, ' background DDL'),
      el('span', {class: 'notice'}, 'Ctrl+Enter runs; statements run in order, one session per run.')),
    output);
}

async function runSql(sql, background, output) {
  sessionStorage.setItem('kafka-mv.sql', sql);
  output.replaceChildren(el('p', {class: 'empty'}, 'Running…'));
  const {json} = await api('POST', '/v1/statements', {sql, session: {background_ddl: background}});
  const parts = (json.results || []).map(resultView);
  if (json.code || json.status >= 400) parts.push(errorView(json, sql));
  output.replaceChildren(...parts);
}

function resultView(result) {
  const parts = [el('div', {class: 'tag'}, result.tag)];
  for (const notice of result.notices || []) parts.push(el('div', {class: 'notice'}, notice));
  if (result.columns) {
    parts.push(el('table', {class: 'rows'},
      el('thead', {}, el('tr', {}, result.columns.map(column => el('th', {title: column.type}, column.name)))),
      el('tbody', {}, result.rows.map(row => el('tr', {}, row.map(value =>
        el('td', {}, value === null ? el('span', {class: 'notice'}, 'NULL')
          : typeof value === 'object' ? JSON.stringify(value) : value)))))));
  }
  return el('div', {class: 'result'}, parts);
}

/** The error with the statement text and the character it points at marked, as psql underlines it. */
function errorView(problem, sql) {
  const view = el('div', {class: 'error', id: 'sql-error'},
    el('span', {class: 'code'}, problem.code || problem.status), problem.detail || problem.title);
  if (problem.hint) view.append(el('div', {class: 'notice'}, `Hint: ${problem.hint}`));
  if (problem.position) {
    const at = problem.position - 1;
    view.append(el('pre', {}, sql.slice(0, at), el('mark', {id: 'error-position'}, sql.slice(at, at + 1) || ' '),
      sql.slice(at + 1)));
  }
  return view;
}

// ---- Routing ---------------------------------------------------------------------------------

async function route() {
  clearTimeout(refreshTimer);
  const token = ++generation;
  const hash = location.hash || '#/jobs';
  for (const link of document.querySelectorAll('nav a')) {
    link.classList.toggle('active', hash.startsWith(link.getAttribute('href')));
  }
  try {
    if (hash.startsWith('#/objects/')) {
      await renderObject(decodeURIComponent(hash.slice('#/objects/'.length)), token);
    } else if (hash.startsWith('#/objects')) {
      await renderObjects(token);
      schedule(() => renderObjects(token), 5000, token);
    } else if (hash.startsWith('#/sql')) {
      renderSql();
    } else {
      await renderJobs(true, token);
      schedule(() => renderJobs(false, token), 1000, token);
    }
  } catch (e) {
    if (e.message === 'unauthorized') return;
    setConnection(false);
    if (current(token)) schedule(route, 2000, token);
  }
}

window.addEventListener('hashchange', route);
route();
