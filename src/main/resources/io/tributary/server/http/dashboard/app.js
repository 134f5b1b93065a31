// Tributary dashboard: polls the JSON API (see README, "Dashboard and metrics") and redraws.
// Plain DOM and SVG, no libraries, so it works without network access.
'use strict';

const POLL_MS = 1000;
const SVG = 'http://www.w3.org/2000/svg';
let selectedView = null;
let viewsPolledAt = 0;
// the database shown; the page's own ?database= picks it, so a link can name one
let database = new URLSearchParams(location.search).get('database') || 'dev';

/** An API path about the database shown. */
function api(path) {
  return path + (path.includes('?') ? '&' : '?') + 'database=' + encodeURIComponent(database);
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(c == null ? '' : String(c)));
  return e;
}

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text != null) e.textContent = text;
  return e;
}

async function getJson(path) {
  const r = await fetch(path, { cache: 'no-store' });
  if (!r.ok) throw new Error(path + ': HTTP ' + r.status);
  return r.json();
}

function fmtRate(r) {
  if (r == null || r < 0) return '–';
  if (r >= 1e6) return (r / 1e6).toFixed(1) + 'M';
  if (r >= 1e3) return (r / 1e3).toFixed(1) + 'k';
  return r.toFixed(0);
}

function fmtBytes(b) {
  if (b == null) return '–';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (b >= 1024 && i < units.length - 1) { b /= 1024; i++; }
  return b.toFixed(i ? 1 : 0) + ' ' + units[i];
}

function fmtEta(etaMs) {
  if (etaMs == null) return '–';
  const s = Math.max(0, Math.round((etaMs - Date.now()) / 1000));
  if (s < 60) return s + ' s';
  if (s < 3600) return Math.floor(s / 60) + ' min ' + (s % 60) + ' s';
  return Math.floor(s / 3600) + ' h ' + Math.floor((s % 3600) / 60) + ' min';
}

/** A polyline of [t, v] points scaled into a w x h box; the same scale for sparklines and charts. */
function polyline(points, w, h) {
  if (points.length < 2) return svg('polyline', { points: '' });
  const t0 = points[0][0], t1 = points[points.length - 1][0];
  const vmax = Math.max(1, ...points.map(p => p[1]));
  const xy = points.map(([t, v]) =>
    ((t - t0) / Math.max(1, t1 - t0) * w).toFixed(1) + ',' + (h - 1 - v / vmax * (h - 2)).toFixed(1));
  return svg('polyline', { points: xy.join(' ') });
}

function sparkline(points) {
  const s = svg('svg', { class: 'spark', viewBox: '0 0 160 28', preserveAspectRatio: 'none' });
  s.append(polyline(points, 160, 28));
  return s;
}

// ------------------------------------------------------------------ jobs

async function cancelJob(id, view) {
  if (!window.confirm('Cancel job ' + id + ' creating "' + view + '"? The view and its state are removed.')) return;
  const r = await fetch(api('/api/jobs/' + id + '/cancel'), { method: 'POST', headers: { 'X-Tributary-Action': 'cancel' } });
  if (!r.ok) {
    const body = await r.json().catch(() => ({}));
    window.alert('Cancel failed: ' + (body.message || ('HTTP ' + r.status)));
  }
  poll();
}

/**
 * Rows are kept per job and updated in place, so a Cancel button under the pointer is never
 * swapped out by the next poll halfway through a click.
 */
const jobRows = new Map();

function jobRow(j) {
  const fill = el('div', { class: 'progress-fill' });
  const text = el('span', { class: 'progress-text' });
  // a sink backfill ends with its sink (DROP SINK); CANCEL JOBS is for view backfills
  const cancel = j.kind === 'sink backfill'
    ? el('span', {})
    : el('button', { class: 'cancel', 'data-job-id': j.job_id }, 'Cancel');
  if (j.kind !== 'sink backfill') cancel.addEventListener('click', () => cancelJob(j.job_id, j.view_name));
  const cells = {
    phase: el('td', { class: 'phase' }), rate: el('td', { class: 'rate' }), spark: el('td'), eta: el('td'),
  };
  const tr = el('tr', { 'data-job-id': j.job_id },
    el('td', {}, j.job_id), el('td', {}, j.view_name), cells.phase,
    el('td', {}, el('div', { class: 'progress' }, fill, text)), cells.rate, cells.spark, cells.eta, el('td', {}, cancel));
  return { tr, fill, text, cells };
}

function renderJobs(data) {
  const body = document.querySelector('#jobs tbody');
  const seen = new Set();
  for (const j of data.jobs) {
    seen.add(j.job_id);
    let row = jobRows.get(j.job_id);
    if (!row) {
      row = jobRow(j);
      jobRows.set(j.job_id, row);
      body.append(row.tr);
    }
    const pct = Number(j.progress);
    const expected = j.rows_expected == null ? '?' : j.rows_expected;
    row.fill.style.width = pct + '%';
    row.fill.dataset.progress = pct;
    row.text.textContent = j.kind === 'sink backfill'
      ? pct.toFixed(2) + '% of vnodes (' + j.rows_done + ' rows)'
      : pct.toFixed(2) + '% (' + j.rows_done + '/' + expected + ')'
        + (j.rows_read > j.rows_done ? ', ' + j.rows_read + ' read' : '');
    row.cells.phase.textContent = j.phase;
    row.cells.rate.textContent = fmtRate(j.recent_rows_per_second >= 0 ? j.recent_rows_per_second : j.rows_per_second);
    row.cells.spark.replaceChildren(sparkline(j.rate_history));
    row.cells.eta.textContent = fmtEta(j.eta);
  }
  for (const [id, row] of jobRows) {
    if (!seen.has(id)) { row.tr.remove(); jobRows.delete(id); }
  }
  document.getElementById('jobs-empty').hidden = data.jobs.length > 0;
}

// ------------------------------------------------------------------ sources

function renderSources(data) {
  const body = document.querySelector('#sources tbody');
  body.replaceChildren();
  for (const s of data.splits) {
    body.append(el('tr', { 'data-table': s.table_name, 'data-split': s.split },
      el('td', {}, s.table_name), el('td', {}, s.split), el('td', {}, s.connector), el('td', {}, s.phase),
      el('td', {}, s.rows_ingested), el('td', {}, fmtRate(s.recent_rows_per_second)),
      el('td', {}, sparkline(s.rate_history)),
      el('td', {}, s.lag_ms == null ? '–' : (s.lag_ms / 1000).toFixed(1) + ' s'),
      el('td', {}, s.skipped_inputs), el('td', { class: 'error' }, s.last_error || '')));
  }
  document.getElementById('sources-empty').hidden = data.splits.length > 0;
  const errors = document.querySelector('#source-errors tbody');
  errors.replaceChildren();
  for (const e of data.errors.slice().reverse()) {
    errors.append(el('tr', {}, el('td', {}, e.table_name), el('td', {}, e.split), el('td', {}, e.location),
      el('td', {}, e.reason), el('td', {}, new Date(e.at).toLocaleTimeString())));
  }
  document.getElementById('source-error-count').textContent = data.errors.length;
}

// ------------------------------------------------------------------ sinks

function renderSinks(data) {
  const box = document.getElementById('sinks');
  box.replaceChildren();
  if (!data.available || data.sinks.length === 0) {
    box.append(el('p', { class: 'empty', id: 'no-sinks' }, 'no sinks'));
    return;
  }
  const columns = Object.keys(data.sinks[0]);
  const table = el('table', { id: 'sink-table' }, el('thead', {}, el('tr', {}, ...columns.map(c => el('th', {}, c)))));
  const body = el('tbody');
  for (const s of data.sinks) body.append(el('tr', {}, ...columns.map(c => el('td', {}, s[c]))));
  table.append(body);
  box.append(table);
}

// ------------------------------------------------------------------ views and plans

let viewsShown = '';

function renderViews(data) {
  const key = JSON.stringify(data) + '|' + selectedView;
  if (key === viewsShown) return; // unchanged: keep the rows a click may be landing on
  viewsShown = key;
  const body = document.querySelector('#views tbody');
  body.replaceChildren();
  for (const v of data.views) {
    const row = el('tr', { 'data-view': v.name, class: v.name === selectedView ? 'selected' : '' },
      el('td', {}, v.name), el('td', {}, v.status), el('td', {}, v.parallelism), el('td', {}, fmtBytes(v.state_bytes)));
    row.addEventListener('click', () => { selectedView = v.name; showView(v.name); renderViews(data); });
    body.append(row);
  }
  document.getElementById('views-empty').hidden = data.views.length > 0;
  const plain = document.querySelector('#plain-views tbody');
  plain.replaceChildren();
  for (const v of data.plain_views) plain.append(el('tr', {}, el('td', {}, v.schema), el('td', {}, v.name), el('td', {}, el('code', {}, v.definition))));
  document.getElementById('plain-views-empty').hidden = data.plain_views.length > 0;
}

async function showView(name) {
  const box = document.getElementById('view-detail');
  box.hidden = false;
  document.getElementById('view-title').textContent = name;
  let v;
  try {
    v = await getJson(api('/api/views/' + encodeURIComponent(name)));
  } catch (e) {
    document.getElementById('view-note').textContent = String(e);
    return;
  }
  if (name !== selectedView) return; // another view was picked while this one loaded
  document.getElementById('view-note').textContent = 'state ' + fmtBytes(v.state_bytes) + ', parallelism '
    + v.parallelism + ', ' + v.plan.fragmentCount + ' fragment(s). Rows/s per operator: in → out (since start: rows out).'
    + (v.operators.length ? '' : ' The view runs no job.');
  document.getElementById('view-definition').textContent = v.definition;
  drawPlan(document.getElementById('plan'), v.plan, v.table_bytes, new Map(v.operators.map(o => [o.node, o])));
}

/** Lays the operators out top-down from the view (node 0) to its sources, one row per depth. */
function drawPlan(target, plan, tableBytes, operators) {
  target.replaceChildren();
  const inputsOf = new Map(plan.nodes.map(n => [n.id, []]));
  for (const e of plan.edges) inputsOf.get(e.to).push(e);
  const depth = new Map([[0, 0]]);
  const queue = [0];
  while (queue.length) {
    const id = queue.shift();
    for (const e of inputsOf.get(id)) if (!depth.has(e.from)) { depth.set(e.from, depth.get(id) + 1); queue.push(e.from); }
  }
  const rows = [];
  for (const n of plan.nodes) (rows[depth.get(n.id) || 0] ||= []).push(n);
  const W = 250, H = 68, GX = 30, GY = 44;
  const width = Math.max(...rows.map(r => r.length)) * (W + GX) + GX;
  const pos = new Map();
  rows.forEach((r, d) => r.forEach((n, i) => {
    const offset = (width - r.length * (W + GX) + GX) / 2;
    pos.set(n.id, { x: offset + i * (W + GX), y: GX / 2 + d * (H + GY) });
  }));
  const height = rows.length * (H + GY) + GX / 2;
  target.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
  target.style.height = Math.min(700, height) + 'px';
  const colors = ['#dbeafe', '#dcfce7', '#fef9c3', '#fce7f3', '#ede9fe', '#ffedd5'];
  for (const e of plan.edges) {
    const a = pos.get(e.from), b = pos.get(e.to);
    const line = svg('line', { x1: a.x + W / 2, y1: a.y, x2: b.x + W / 2, y2: b.y + H, class: e.exchange ? 'exchange' : '' });
    target.append(line);
    if (e.exchange) {
      target.append(svg('text', { x: (a.x + b.x + W) / 2 + 6, y: (a.y + b.y + H) / 2, class: 'edge' }, 'exchange ' + e.exchange));
    }
  }
  for (const n of plan.nodes) {
    const p = pos.get(n.id);
    const g = svg('g', { 'data-node': n.id });
    g.append(svg('rect', { x: p.x, y: p.y, width: W, height: H, fill: colors[n.fragment % colors.length] }));
    g.append(svg('title', {}, n.text));
    g.append(svg('text', { x: p.x + 8, y: p.y + 16 }, n.operator));
    g.append(svg('text', { x: p.x + W - 8, y: p.y + 16, class: 'fragment', 'text-anchor': 'end' }, 'fragment ' + n.fragment));
    const detail = n.text.replace(/^\S+ \{ /, '').replace(/ \}$/, '');
    g.append(svg('text', { x: p.x + 8, y: p.y + 31 }, detail.length > 40 ? detail.slice(0, 39) + '…' : detail));
    if (n.stateTables.length) {
      const st = n.stateTables.map(t => '#' + t + ' ' + fmtBytes(tableBytes[t])).join(', ');
      g.append(svg('text', { x: p.x + 8, y: p.y + 46 }, 'state: ' + st));
    }
    const op = operators.get(n.id);
    if (op) {
      g.append(svg('text', { x: p.x + 8, y: p.y + 61, class: 'rate' },
        fmtRate(op.rows_in_per_second) + ' → ' + fmtRate(op.rows_out_per_second) + ' rows/s (' + op.rows_out + ' out)'));
    }
    target.append(g);
  }
}

// ------------------------------------------------------------------ databases

function chooseDatabase(name) {
  if (name === database) return;
  database = name;
  selectedView = null;
  viewsShown = '';
  viewsPolledAt = 0;
  document.getElementById('view-detail').hidden = true;
  history.replaceState(null, '', '?database=' + encodeURIComponent(name));
  poll();
}

function renderDatabases(data) {
  const picker = document.getElementById('database');
  const names = data.databases.map(d => d.name);
  if (picker.dataset.names !== names.join('\n')) {
    picker.dataset.names = names.join('\n');
    picker.replaceChildren(...names.map(n => el('option', { value: n }, n)));
  }
  picker.value = database;
  const body = document.querySelector('#databases tbody');
  body.replaceChildren();
  for (const d of data.databases) {
    const row = el('tr', { 'data-database': d.name, class: d.name === database ? 'selected' : '' },
      el('td', {}, d.name), el('td', {}, d.committed_epoch),
      el('td', {}, d.ms_since_last_commit == null ? '–' : Math.round(d.ms_since_last_commit) + ' ms'),
      el('td', {}, d.jobs), el('td', {}, d.materialized_views), el('td', {}, d.views), el('td', {}, d.cross_database_inputs));
    row.addEventListener('click', () => chooseDatabase(d.name));
    body.append(row);
  }
  if (!names.includes(database) && names.length) chooseDatabase(names[0]); // it was dropped
}

function consumerRow(c, first) {
  return el('tr', {}, el('td', {}, first), el('td', {}, c.upstream_database + '.' + c.upstream_table),
    el('td', {}, c.consumed_epoch), el('td', {}, c.upstream_epoch), el('td', {}, c.lag_epochs),
    el('td', {}, c.lag_ms == null ? '–' : c.lag_ms + ' ms'));
}

function renderConsumers(data) {
  const body = document.querySelector('#consumers tbody');
  body.replaceChildren();
  for (const c of data.inputs) body.append(consumerRow(c, c.view_name));
  for (const c of data.readers) body.append(consumerRow(c, c.database + '.' + c.view_name));
  document.getElementById('consumers-empty').hidden = data.inputs.length + data.readers.length > 0;
}

// ------------------------------------------------------------------ epochs

function renderEpochs(data) {
  document.getElementById('committed-epoch').textContent = data.committed_epoch;
  document.getElementById('barrier-interval').textContent = data.barrier_interval_ms + ' ms';
  document.getElementById('barrier-lag').textContent =
    data.ms_since_last_commit == null ? '–' : Math.round(data.ms_since_last_commit) + ' ms';
  const chart = document.getElementById('epoch-chart');
  chart.replaceChildren();
  const points = data.commits.map(c => [c[1], c[2]]);
  chart.append(polyline(points, 800, 160));
  if (points.length) {
    const ms = points.map(p => p[1]).sort((a, b) => a - b);
    const q = f => ms[Math.min(ms.length - 1, Math.floor(f * ms.length))].toFixed(2);
    chart.append(svg('text', { x: 4, y: 12 }, 'max ' + ms[ms.length - 1].toFixed(2) + ' ms'));
    document.getElementById('epoch-summary').textContent = 'last ' + ms.length + ' commits: median ' + q(0.5)
      + ' ms, p99 ' + q(0.99) + ' ms';
  }
}

// ------------------------------------------------------------------ polling

async function poll() {
  try {
    renderDatabases(await getJson('/api/databases'));
    const [jobs, sources, sinks, epochs, consumers] = await Promise.all(
      ['/api/jobs', '/api/sources', '/api/sinks', '/api/epochs', '/api/consumers'].map(p => getJson(api(p))));
    renderJobs(jobs);
    renderConsumers(consumers);
    renderSources(sources);
    renderSinks(sinks);
    renderEpochs(epochs);
    if (Date.now() - viewsPolledAt > 5000) {
      viewsPolledAt = Date.now();
      renderViews(await getJson(api('/api/views')));
    }
    if (selectedView) showView(selectedView); // the plan's rows/s move too
    document.getElementById('conn').className = 'ok';
    document.getElementById('conn').textContent = 'live';
  } catch (e) {
    document.getElementById('conn').className = 'down';
    document.getElementById('conn').textContent = 'disconnected';
  }
}

document.getElementById('database').addEventListener('change', e => chooseDatabase(e.target.value));
poll();
setInterval(poll, POLL_MS);
