// ratingd's live leaderboard page (docs/CONTRACTS.md §3.4). Reads the pool list and one
// pool's leaderboard as Server-Sent Events (§3.3), the other models' leaderboards by GET.
// Every name from the server is put on the page as text (textContent), never as markup.
'use strict';

const MODELS = ['elo', 'sco', 'ml', 'glicko2'];
const PAGE_ROWS = 100;
const OTHERS_EVERY_MS = 5000;  // the other models' rankings, refreshed at most this often
const STALE_AFTER_MS = 30000;  // reconnecting this long: "stale since" the last data

const state = {
  pool: null, model: 'elo', rows: [], board: null,
  firstRanks: new Map(),  // pool + model -> agent -> rank when the page first saw it
  others: {}, othersAt: 0, othersTimer: null,
  sortKey: 'rank', sortDir: 1, filter: '', page: 0,
  source: null, pools: null, downSince: null, lastDataAt: null,
  historyAgent: null,  // whose history the chart shows
};

const $ = (id) => document.getElementById(id);

function el(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (className) e.className = className;
  return e;
}

function poolPath(pool, what) {
  return '/v1/pools/' + encodeURIComponent(pool) + '/' + what;
}

function fmt(x, digits) {
  return typeof x === 'number' ? x.toFixed(digits) : '';
}

function clock(t) {
  return new Date(t).toLocaleTimeString();
}

// --- status ---------------------------------------------------------------------------

function setStatus(kind) {
  const s = $('status');
  if (kind === 'live') {
    state.downSince = null;
    s.textContent = 'live';
  } else if (kind === 'reconnecting') {
    if (state.downSince === null) state.downSince = Date.now();
    if (Date.now() - state.downSince > STALE_AFTER_MS) {
      kind = 'stale';
      s.textContent = 'stale since ' + clock(state.lastDataAt || state.downSince);
    } else {
      s.textContent = 'reconnecting';
    }
  } else {
    s.textContent = kind;
  }
  s.className = 'status ' + kind;
}

setInterval(() => { if (state.downSince !== null) setStatus('reconnecting'); }, 1000);

// --- streams --------------------------------------------------------------------------

// Opens `path` as an event stream calling onEvent(data, arrival time) for events named
// `name`; reopens
// it by itself after an error the browser does not retry (an HTTP error, as when a
// rebalance moved the pool), and keeps the status.
function follow(path, name, onEvent) {
  let source = null;
  let closed = false;
  const open = () => {
    if (closed) return;
    source = new EventSource(path);
    source.addEventListener(name, (e) => {
      const arrived = performance.now();
      state.lastDataAt = Date.now();
      setStatus('live');
      onEvent(JSON.parse(e.data), arrived);
    });
    source.onopen = () => setStatus('live');
    source.onerror = () => {
      setStatus('reconnecting');
      if (source.readyState === EventSource.CLOSED) setTimeout(open, 2000);
    };
  };
  open();
  return { close() { closed = true; if (source) source.close(); } };
}

function watchBoard() {
  if (state.source) state.source.close();
  state.historyAgent = null;
  $('history').hidden = true;
  state.rows = [];
  state.board = null;
  state.others = {};
  state.othersAt = 0;
  render();
  if (state.pool === null) return;
  const path = poolPath(state.pool, 'events') + '?model=' + state.model;
  state.source = follow(path, 'leaderboard', onBoard);
}

// The models the current pool's leaderboards are answered for (the pool list's `models`).
function poolModels() {
  const p = state.pools && state.pools.find((q) => q.pool === state.pool);
  return p ? p.models : MODELS;
}

function onPools(doc) {
  const first = state.pools === null;
  state.pools = doc.pools;
  const select = $('pool');
  select.replaceChildren();
  const names = doc.pools.map((p) => p.pool);
  if (state.pool !== null && !names.includes(state.pool)) names.unshift(state.pool);
  for (const name of names) {
    const p = doc.pools.find((q) => q.pool === name);
    const option = el('option', p ? `${name} (${p.results} results, ${p.agents} agents)` : name);
    option.value = name;
    select.appendChild(option);
  }
  if (state.pool === null && names.length > 0) {
    state.pool = names[0];
    updateUrl();
    watchBoard();
  }
  select.value = state.pool === null ? '' : state.pool;
  for (const b of document.querySelectorAll('#models button')) {
    b.disabled = !poolModels().includes(b.dataset.model);
  }
  if (first && state.board !== null) refreshOthers();
}

// --- the board ------------------------------------------------------------------------

// `arrived`: when its event came (the time to the first screen, body's data-render-ms,
// counts the parse too).
function onBoard(doc, arrived) {
  const key = state.pool + '\u0000' + state.model;
  if (!state.firstRanks.has(key)) {
    state.firstRanks.set(key, new Map(doc.ranking.map((r) => [r.agent, r.rank])));
  }
  const first = state.firstRanks.get(key);
  const lottery = (doc.extra && doc.extra.lottery) || {};
  state.board = doc;
  state.rows = doc.ranking.map((r) => ({
    ...r,
    lottery: lottery[r.agent],
    change: first.has(r.agent) ? first.get(r.agent) - r.rank : null,
  }));
  render();
  document.body.dataset.renderMs = (performance.now() - arrived).toFixed(1);
  document.body.dataset.sequence = String(doc.sequence);
  renderDisagreement();
  refreshOthers();
}

function compare(a, b) {
  const k = state.sortKey;
  const x = k === 'others' ? a.rank : a[k];
  const y = k === 'others' ? b.rank : b[k];
  if (x === y) return a.rank - b.rank;
  if (x === undefined || x === null) return 1;
  if (y === undefined || y === null) return -1;
  const order = typeof x === 'string' ? x.localeCompare(y) : x - y;
  return order * state.sortDir;
}

function visibleRows() {
  let rows = state.rows;
  if (state.filter) {
    const f = state.filter.toLowerCase();
    rows = rows.filter((r) => r.agent.toLowerCase().includes(f));
  }
  if (state.sortKey !== 'rank' || state.sortDir !== 1) rows = rows.slice().sort(compare);
  return rows;
}

// The rating axis shared by every row's interval bar: all the ranking's intervals fit.
function axis(rows) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rows) {
    lo = Math.min(lo, r.ci_low ?? r.rating);
    hi = Math.max(hi, r.ci_high ?? r.rating);
  }
  if (!(hi > lo)) { lo -= 1; hi += 1; }
  return [lo, hi];
}

function bar(r, lo, hi) {
  const td = el('td', null, 'bar');
  const line = el('div', null, 'axis');
  const at = (x) => (100 * (x - lo)) / (hi - lo) + '%';
  if (r.ci_low !== undefined) {
    const ci = el('span', null, 'ci');
    ci.style.left = at(r.ci_low);
    ci.style.width = (100 * (r.ci_high - r.ci_low)) / (hi - lo) + '%';
    ci.title = `${fmt(r.ci_low, 1)} to ${fmt(r.ci_high, 1)}`;
    line.appendChild(ci);
  }
  const point = el('span', null, 'point');
  point.style.left = at(r.rating);
  line.appendChild(point);
  td.appendChild(line);
  return td;
}

function row(r, lo, hi) {
  const tr = el('tr');
  tr.appendChild(el('td', r.rank, 'num'));
  tr.appendChild(el('td', r.rank_low !== undefined ? `${r.rank_low}\u2013${r.rank_high}` : ''));
  const agent = el('td', r.agent, 'agent');
  agent.title = 'show its rating history';
  agent.addEventListener('click', () => showHistory(r.agent));
  if (r.provisional) agent.appendChild(el('span', 'provisional', 'badge'));
  tr.appendChild(agent);
  tr.appendChild(el('td', fmt(r.rating, state.model === 'ml' ? 4 : 1), 'num'));
  tr.appendChild(bar(r, lo, hi));
  tr.appendChild(el('td', r.games, 'num'));
  tr.appendChild(el('td', fmt(r.lottery, 4), 'num ml-only'));
  let change = '';
  let cls = 'num';
  if (r.change === null) {
    change = 'new';
  } else if (r.change > 0) {
    change = '\u25B2' + r.change;
    cls += ' up';
  } else if (r.change < 0) {
    change = '\u25BC' + -r.change;
    cls += ' down';
  }
  if (r.change !== 0) tr.className = 'moved';
  tr.appendChild(el('td', change, cls));
  const others = MODELS.filter((m) => m !== state.model && state.others[m])
    .map((m) => `${m} ${state.others[m].ranks.get(r.agent) ?? '\u2013'}`);
  tr.appendChild(el('td', others.join(' \u00B7 ')));
  return tr;
}

function render() {
  document.body.classList.toggle('ml', state.model === 'ml');
  for (const b of document.querySelectorAll('#models button')) {
    b.setAttribute('aria-selected', String(b.dataset.model === state.model));
  }
  for (const th of document.querySelectorAll('th')) {
    th.classList.toggle('sorted', th.dataset.key === state.sortKey);
    th.classList.toggle('desc', th.dataset.key === state.sortKey && state.sortDir < 0);
  }
  const rows = visibleRows();
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_ROWS));
  state.page = Math.min(state.page, pages - 1);
  const [lo, hi] = axis(state.rows);
  const body = document.createElement('tbody');
  for (const r of rows.slice(state.page * PAGE_ROWS, (state.page + 1) * PAGE_ROWS)) {
    body.appendChild(row(r, lo, hi));
  }
  const table = $('board');
  table.replaceChild(body, table.tBodies[0]);
  $('page').textContent = `${state.page + 1} / ${pages} (${rows.length} agents)`;
  renderSummary();
}

function renderSummary() {
  const doc = state.board;
  const empty = $('empty');
  empty.hidden = true;
  if (doc === null) {
    $('counts').textContent = state.pool === null ? 'no pool yet' : '';
    $('committed').textContent = $('exploitability').textContent = '';
    return;
  }
  $('counts').textContent = `${doc.results} results, ${doc.agents} agents, sequence ${doc.sequence}`;
  $('committed').textContent = 'committed ' + clock(doc.committed_at);
  $('exploitability').textContent = state.model === 'ml'
    ? `exploitability ${fmt(doc.extra.exploitability, 5)}` : '';
  if (doc.ranking.length === 0) {
    empty.hidden = false;
    empty.textContent = state.model === 'ml'
      ? 'No maximal-lottery solve of this pool yet (one comes every --ml-solve-every results).'
      : 'No results in this pool yet.';
  }
}

// --- the other models: their ranks and the rank disagreement --------------------------

function refreshOthers() {
  // Not before the pool list says which models the pool has (onPools calls again).
  if (state.othersTimer !== null || state.pools === null) return;
  const wait = Math.max(0, state.othersAt + OTHERS_EVERY_MS - Date.now());
  state.othersTimer = setTimeout(async () => {
    state.othersTimer = null;
    state.othersAt = Date.now();
    const pool = state.pool;
    for (const m of MODELS.filter((x) => x !== state.model && poolModels().includes(x))) {
      try {
        const r = await fetch(poolPath(pool, 'leaderboard') + '?model=' + m);
        if (!r.ok || pool !== state.pool) continue;
        const doc = await r.json();
        state.others[m] = { ranks: new Map(doc.ranking.map((e) => [e.agent, e.rank])) };
      } catch (e) {
        // the next board retries
      }
    }
    renderDisagreement();
    render();
  }, wait);
}

// Normalised Kendall tau distance between two rankings on their common agents: the
// fraction of pairs they order differently (merge sort, O(n log n)).
function kendallDistance(ranksA, ranksB) {
  const pairs = [];
  for (const [agent, a] of ranksA) {
    const b = ranksB.get(agent);
    if (b !== undefined) pairs.push([a, b]);
  }
  const n = pairs.length;
  if (n < 2) return null;
  pairs.sort((p, q) => p[0] - q[0]);
  let values = pairs.map((p) => p[1]);
  let inversions = 0;
  for (let width = 1; width < n; width *= 2) {
    const next = [];
    for (let i = 0; i < n; i += 2 * width) {
      const left = values.slice(i, i + width);
      const right = values.slice(i + width, i + 2 * width);
      let l = 0;
      let r = 0;
      while (l < left.length || r < right.length) {
        if (r >= right.length || (l < left.length && left[l] <= right[r])) {
          next.push(left[l++]);
        } else {
          inversions += left.length - l;
          next.push(right[r++]);
        }
      }
    }
    values = next;
  }
  return inversions / ((n * (n - 1)) / 2);
}

function renderDisagreement() {
  const mine = new Map(state.rows.map((r) => [r.agent, r.rank]));
  const parts = [];
  for (const m of MODELS.filter((x) => x !== state.model)) {
    if (!state.others[m]) continue;
    const d = kendallDistance(mine, state.others[m].ranks);
    if (d !== null) parts.push(`${m} ${d.toFixed(3)}`);
  }
  $('disagreement').textContent = parts.length
    ? 'rank disagreement (Kendall distance) with ' + parts.join(', ') : '';
}

// --- one agent's rating history (docs/MODELS.md §11) ---------------------------------

const SVG_NS = 'http://www.w3.org/2000/svg';

function svg(tag, attributes) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, String(v));
  return e;
}

async function showHistory(agent) {
  const pool = state.pool;
  const model = state.model;
  state.historyAgent = agent;
  $('history').hidden = false;
  $('history-title').textContent = `${agent}: ${model} rating history`;
  let points;
  let error = '';
  try {
    const r = await fetch(poolPath(pool, 'agents/' + encodeURIComponent(agent)) +
                          '?model=' + model);
    const doc = await r.json();
    if (r.ok) points = doc.history; else error = doc.error;
  } catch (e) {
    error = 'the history could not be read';
  }
  if (pool !== state.pool || model !== state.model || agent !== state.historyAgent) return;
  drawHistory(points, error);
}

// The rating as a line over the pool's result count, its interval as a band around it.
function drawHistory(points, error) {
  const chart = $('history-chart');
  chart.replaceChildren();
  chart.dataset.points = String(points ? points.length : 0);
  if (!points || points.length === 0) {
    $('history-note').textContent = error || 'this instance keeps no history of this model';
    return;
  }
  const [W, H, P] = [640, 200, 8];
  const low = points.map((p) => p.ci_low ?? p.rating);
  const high = points.map((p) => p.ci_high ?? p.rating);
  const first = points[0].sequence;
  const last = points[points.length - 1].sequence;
  let lo = Math.min(...low);
  let hi = Math.max(...high);
  if (!(hi > lo)) { lo -= 1; hi += 1; }
  const x = (s) => P + (last > first ? (s - first) / (last - first) : 0.5) * (W - 2 * P);
  const y = (v) => H - P - ((v - lo) / (hi - lo)) * (H - 2 * P);
  const upper = points.map((p, i) => `${x(p.sequence)},${y(high[i])}`);
  const lower = points.map((p, i) => `${x(p.sequence)},${y(low[i])}`).reverse();
  chart.appendChild(svg('polygon', { points: upper.concat(lower).join(' '), class: 'band' }));
  chart.appendChild(svg('polyline', {
    points: points.map((p) => `${x(p.sequence)},${y(p.rating)}`).join(' '), class: 'line',
  }));
  const newest = points[points.length - 1];
  $('history-note').textContent = `${points.length} points, results ${first} to ${last}; ` +
    `rating ${fmt(newest.rating, 1)}, axis ${fmt(lo, 0)} to ${fmt(hi, 0)}`;
}

// --- controls -------------------------------------------------------------------------

function updateUrl() {
  const url = new URL(location.href);
  url.searchParams.set('pool', state.pool);
  url.searchParams.set('model', state.model);
  history.replaceState(null, '', url);
}

function init() {
  const query = new URL(location.href).searchParams;
  if (query.get('pool') !== null) state.pool = query.get('pool');
  if (MODELS.includes(query.get('model'))) state.model = query.get('model');
  $('pool').addEventListener('change', (e) => {
    state.pool = e.target.value;
    state.page = 0;
    updateUrl();
    watchBoard();
  });
  for (const b of document.querySelectorAll('#models button')) {
    b.addEventListener('click', () => {
      state.model = b.dataset.model;
      state.page = 0;
      updateUrl();
      watchBoard();
    });
  }
  for (const th of document.querySelectorAll('th')) {
    th.addEventListener('click', () => {
      const key = th.dataset.key;
      state.sortDir = state.sortKey === key ? -state.sortDir : 1;
      state.sortKey = key;
      render();
    });
  }
  $('filter').addEventListener('input', (e) => {
    state.filter = e.target.value;
    state.page = 0;
    render();
  });
  $('prev').addEventListener('click', () => { state.page = Math.max(0, state.page - 1); render(); });
  $('next').addEventListener('click', () => { state.page += 1; render(); });
  follow('/v1/events', 'pools', onPools);
  if (state.pool !== null) {
    updateUrl();
    watchBoard();
  } else {
    render();
  }
}

init();
