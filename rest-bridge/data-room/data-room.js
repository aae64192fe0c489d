// The investor data room (GET /data-room on the REST bridge): the reporting endpoints of
// docs/reporting.md as numbers and charts. Plain browser JavaScript, no build step; Chart.js is the
// UMD bundle served beside this file. The platform JWT the user pastes is kept in sessionStorage
// (this tab only) and sent as `Authorization: Bearer` to this server's own /reporting/* paths;
// nothing else is requested. Every number is shown as text in an element carrying its report,
// attribute path and kind (data-report, data-field, data-kind), so it can be read and compared.
/* global Chart */
(function () {
  'use strict';

  const TOKEN_KEY = 'data-room.jwt';
  const REPORTS = ['dashboard', 'revenue', 'customers', 'growth', 'engagement', 'platforms'];

  /** KPI cards per report: [attribute path, label, kind]. Kinds: money (cents), rate (fraction), count, score. */
  const KPIS = {
    dashboard: [
      ['mrr_cents', 'MRR', 'money'],
      ['arr_cents', 'ARR', 'money'],
      ['net_new_mrr_cents', 'Net new MRR', 'money'],
      ['mrr_growth_rate', 'MRR growth', 'rate'],
      ['arpa_cents', 'ARPA', 'money'],
      ['platforms', 'Platforms', 'count'],
      ['total_accounts', 'Accounts', 'count'],
      ['new_accounts', 'New accounts', 'count'],
      ['paying_accounts', 'Paying accounts', 'count'],
      ['trialing_accounts', 'Trialing accounts', 'count'],
      ['logo_churn_rate', 'Logo churn', 'rate'],
      ['gross_mrr_churn_rate', 'Gross MRR churn', 'rate'],
      ['trial_conversion_rate', 'Trial conversion', 'rate'],
      ['api_requests', 'API requests', 'count'],
      ['active_accounts', 'Active accounts', 'count'],
    ],
    revenue: [
      ['mrr_cents', 'MRR', 'money'],
      ['arr_cents', 'ARR', 'money'],
      ['paying_accounts', 'Paying accounts', 'count'],
      ['arpa_cents', 'ARPA', 'money'],
      ['mrr_at_period_start_cents', 'MRR at period start', 'money'],
      ['mrr_growth_rate', 'MRR growth', 'rate'],
      ['invoiced_cents', 'Invoiced', 'money'],
      ['collected_cents', 'Collected', 'money'],
      ['outstanding_cents', 'Outstanding', 'money'],
      ['overdue_cents', 'Overdue', 'money'],
    ],
    customers: [
      ['total_accounts', 'Accounts', 'count'],
      ['paying_accounts', 'Paying', 'count'],
      ['trialing_accounts', 'Trialing', 'count'],
      ['past_due_accounts', 'Past due', 'count'],
      ['paused_accounts', 'Paused', 'count'],
      ['free_accounts', 'Free', 'count'],
      ['churned_accounts', 'Churned', 'count'],
      ['trials.started', 'Trials started', 'count'],
      ['trials.converted', 'Trials converted', 'count'],
      ['trials.lost', 'Trials lost', 'count'],
      ['trials.conversion_rate', 'Trial conversion', 'rate'],
      ['churn.paying_at_period_start', 'Paying at period start', 'count'],
      ['churn.churned_accounts', 'Churned since', 'count'],
      ['churn.logo_churn_rate', 'Logo churn', 'rate'],
      ['churn.churned_mrr_cents', 'Churned MRR', 'money'],
      ['churn.contraction_mrr_cents', 'Contraction MRR', 'money'],
      ['churn.gross_mrr_churn_rate', 'Gross MRR churn', 'rate'],
      ['health.average_score', 'Average health', 'score'],
      ['health.average_paying_score', 'Average health (paying)', 'score'],
      ['health.healthy', 'Healthy (≥ 70)', 'count'],
      ['health.at_risk', 'At risk (40–69)', 'count'],
      ['health.critical', 'Critical (< 40)', 'count'],
    ],
    growth: [
      ['new_accounts', 'New accounts', 'count'],
      ['accounts_at_period_start', 'Accounts at period start', 'count'],
      ['total_accounts', 'Accounts now', 'count'],
      ['account_growth_rate', 'Account growth', 'rate'],
      ['new_subscriptions', 'New subscriptions', 'count'],
      ['new_trials', 'New trials', 'count'],
      ['mrr_at_period_start_cents', 'MRR at period start', 'money'],
      ['mrr_cents', 'MRR now', 'money'],
      ['mrr_movement.new_cents', 'New MRR', 'money'],
      ['mrr_movement.expansion_cents', 'Expansion', 'money'],
      ['mrr_movement.reactivation_cents', 'Reactivation', 'money'],
      ['mrr_movement.contraction_cents', 'Contraction', 'money'],
      ['mrr_movement.churn_cents', 'Churn', 'money'],
      ['mrr_movement.net_new_cents', 'Net new MRR', 'money'],
    ],
    engagement: [
      ['api_requests', 'API requests (cumulative)', 'count'],
      ['requests_per_account', 'Requests per account', 'score'],
      ['total_accounts', 'Accounts', 'count'],
      ['active_accounts', 'Active accounts', 'count'],
      ['active_account_rate', 'Active account rate', 'rate'],
      ['total_apps', 'Apps', 'count'],
      ['active_apps', 'Active apps', 'count'],
      ['total_keys', 'Keys', 'count'],
      ['keys_used', 'Keys used', 'count'],
    ],
  };

  /** Tables: the array's path (report.attribute) → [column path inside a row, header, kind]. */
  const TABLES = {
    'revenue.by_tier': [
      ['name', 'Plan', 'text'],
      ['paying_accounts', 'Paying accounts', 'count'],
      ['mrr_cents', 'MRR', 'money'],
      ['arr_cents', 'ARR', 'money'],
      ['arpa_cents', 'ARPA', 'money'],
      ['share', 'Share of MRR', 'rate'],
    ],
    'customers.health.lowest_paying': [
      ['code', 'Paying account under 70', 'text'],
      ['platform', 'Platform', 'text'],
      ['plan', 'Plan', 'text'],
      ['score', 'Health', 'count'],
    ],
    'engagement.top_accounts': [
      ['code', 'Top account by requests', 'text'],
      ['platform', 'Platform', 'text'],
      ['requests', 'Requests', 'count'],
    ],
    'platforms.platforms': [
      ['code', 'Platform', 'text'],
      ['name', 'Name', 'text'],
      ['status', 'Status', 'text'],
      ['total_accounts', 'Accounts', 'count'],
      ['new_accounts', 'New', 'count'],
      ['paying_accounts', 'Paying', 'count'],
      ['trialing_accounts', 'Trialing', 'count'],
      ['mrr_cents', 'MRR', 'money'],
      ['arr_cents', 'ARR', 'money'],
      ['arpa_cents', 'ARPA', 'money'],
      ['net_new_mrr_cents', 'Net new MRR', 'money'],
      ['api_requests', 'API requests', 'count'],
    ],
  };

  const COLORS = ['#2563eb', '#16a34a', '#d97706', '#dc2626', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#475569'];

  const $ = (id) => document.getElementById(id);
  const charts = {};
  let loadSeq = 0;

  // ---- formatting: what a person reads; the raw value stays in data-value ----
  const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
  function format(value, kind) {
    if (value === null || value === undefined) return '—';
    switch (kind) {
      case 'money': return usd.format(value / 100);
      case 'rate': return `${(value * 100).toFixed(2)}%`;
      case 'count': return whole.format(value);
      case 'score': return oneDecimal.format(value);
      default: return String(value);
    }
  }

  const at = (obj, path) => path.split('.').reduce((o, k) => (o === null || o === undefined ? undefined : o[k]), obj);

  function valueElement(tag, report, field, kind, value) {
    const el = document.createElement(tag);
    el.dataset.report = report;
    el.dataset.field = field;
    el.dataset.kind = kind;
    el.dataset.value = value === null || value === undefined ? '' : String(value);
    el.textContent = format(value, kind);
    if (kind === 'money' || kind === 'count' || kind === 'rate' || kind === 'score') el.className = 'num';
    return el;
  }

  // ---- session ----
  const token = () => sessionStorage.getItem(TOKEN_KEY);

  /** The token's claims, read (not verified: the server does that) to show who is signed in. */
  function claims(jwt) {
    try {
      const part = jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
      return JSON.parse(atob(part + '='.repeat((4 - (part.length % 4)) % 4)));
    } catch {
      return undefined;
    }
  }

  function setState(state) {
    document.body.dataset.state = state;
  }

  function showSignIn(message) {
    $('session').hidden = true;
    $('reports').hidden = true;
    $('sign-in').hidden = false;
    showError(message);
    setState('signed-out');
  }

  function showError(message) {
    $('error').textContent = message || '';
    $('error').hidden = !message;
  }

  function showSession() {
    const c = claims(token()) || {};
    const exp = typeof c.exp === 'number' ? ` · expires ${new Date(c.exp * 1000).toISOString().replace('T', ' ').slice(0, 16)} UTC` : '';
    $('who').textContent = `Signed in as ${c.sub || 'unknown'}${c.platform ? ` (platform ${c.platform})` : ''}${exp}`;
    $('sign-in').hidden = true;
    $('session').hidden = false;
    $('reports').hidden = false;
  }

  // ---- API ----
  class ApiError extends Error {
    constructor(status, body) {
      const b = body && typeof body === 'object' ? body : {};
      super(typeof b.message === 'string' ? b.message : `HTTP ${status}`);
      this.status = status;
      this.code = typeof b.error === 'string' ? b.error : '';
      this.parameter = typeof b.parameter === 'string' ? b.parameter : '';
    }
    describe() {
      const what = `${this.status}${this.code ? ` ${this.code}` : ''}: ${this.message}${this.parameter ? ` (parameter: ${this.parameter})` : ''}`;
      if (this.status === 401) return `Not signed in — ${what}. Paste a valid platform JWT.`;
      if (this.status === 403) return `Access refused — ${what}. The data room needs a token with the platform:admin scope.`;
      return `Request failed — ${what}`;
    }
  }

  async function getReport(name, query) {
    const r = await fetch(`/reporting/${name}?${query}`, { headers: { authorization: `Bearer ${token()}`, accept: 'application/vnd.api+json' }, cache: 'no-store' });
    let body;
    try {
      body = await r.json();
    } catch {
      body = undefined;
    }
    if (!r.ok) throw new ApiError(r.status, body);
    return body.data.attributes;
  }

  async function load(force) {
    const seq = ++loadSeq;
    setState('loading');
    $('status').textContent = 'Loading…';
    const q = new URLSearchParams({ period: $('period').value });
    if (force) q.set('force_refresh', 'true');
    const filtered = new URLSearchParams(q);
    if ($('platform').value) filtered.set('platform', $('platform').value);
    try {
      // the breakdown lists every platform the token reaches, whatever the filter (it also fills the filter)
      const data = await Promise.all(REPORTS.map((name) => getReport(name, name === 'platforms' ? q : filtered)));
      if (seq !== loadSeq) return;
      const reports = Object.fromEntries(REPORTS.map((name, i) => [name, data[i]]));
      render(reports);
      showError('');
      const d = reports.dashboard;
      $('status').textContent = `Period ${d.period}, ${d.platform ? `platform ${d.platform}` : 'all platforms'}, amounts in ${d.currency}; computed ${d.generated_at}${d.cached ? ' (cached)' : ''}.`;
      showEmpty(reports);
      setState('ready');
    } catch (e) {
      if (seq !== loadSeq) return;
      const message = e instanceof ApiError ? e.describe() : `Request failed — ${e && e.message ? e.message : e}`;
      $('status').textContent = '';
      if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
        sessionStorage.removeItem(TOKEN_KEY);
        showSignIn(message);
        return;
      }
      showError(message);
      setState('error');
    }
  }

  /** The empty state says why the figures are zero: no platform reached, or no account in those reached. */
  function showEmpty(r) {
    const platforms = r.platforms.platforms.length;
    const accounts = r.dashboard.total_accounts;
    const who = (claims(token()) || {}).sub;
    $('empty').hidden = platforms > 0 && accounts > 0;
    $('empty-why').textContent =
      platforms === 0
        ? `This token (user ${who || 'unknown'}) administers no platform: the reports cover the platforms its user created or operates (every platform for a platform:superadmin token).`
        : `The ${platforms === 1 ? 'platform' : `${platforms} platforms`} this token administers ${platforms === 1 ? 'has' : 'have'} no account yet.`;
  }

  // ---- rendering ----
  function render(r) {
    for (const [report, cards] of Object.entries(KPIS)) {
      const box = document.querySelector(`[data-kpis="${report}"]`);
      box.replaceChildren(
        ...cards.map(([field, label, kind]) => {
          const card = document.createElement('div');
          card.className = 'kpi';
          const l = document.createElement('span');
          l.className = 'label';
          l.textContent = label;
          card.append(l, valueElement('span', report, field, kind, at(r[report], field)));
          return card;
        }),
      );
    }
    for (const [path, columns] of Object.entries(TABLES)) renderTable(r, path, columns);
    renderCharts(r);
    fillPlatforms(r.platforms.platforms);
  }

  function renderTable(r, path, columns) {
    const [report, ...rest] = path.split('.');
    const rows = at(r[report], rest.join('.')) || [];
    const table = document.querySelector(`[data-table="${path}"]`);
    const head = document.createElement('tr');
    for (const [, label, kind] of columns) {
      const th = document.createElement('th');
      th.textContent = label;
      if (kind !== 'text') th.className = 'num';
      head.append(th);
    }
    const body = rows.map((row, i) => {
      const tr = document.createElement('tr');
      for (const [col, , kind] of columns) tr.append(valueElement('td', report, `${rest.join('.')}.${i}.${col}`, kind, row[col]));
      return tr;
    });
    if (!rows.length) {
      const tr = document.createElement('tr');
      const td = document.createElement('td');
      td.colSpan = columns.length;
      td.className = 'empty';
      td.textContent = 'None';
      tr.append(td);
      body.push(tr);
    }
    const thead = document.createElement('thead');
    thead.append(head);
    const tbody = document.createElement('tbody');
    tbody.append(...body);
    table.replaceChildren(thead, tbody);
  }

  function fillPlatforms(platforms) {
    const select = $('platform');
    const current = select.value;
    const options = [new Option('All platforms', '')].concat(platforms.map((p) => new Option(`${p.name} (${p.code})`, p.code)));
    select.replaceChildren(...options);
    select.value = platforms.some((p) => p.code === current) ? current : '';
  }

  const dollars = (cents) => cents / 100;

  function chart(id, config) {
    if (charts[id]) charts[id].destroy();
    charts[id] = new Chart($(id), config);
  }

  const moneyAxis = { ticks: { callback: (v) => usd.format(v) } };

  function renderCharts(r) {
    const tiers = r.revenue.by_tier;
    chart('chart-revenue-tiers', {
      type: 'bar',
      data: { labels: tiers.map((t) => t.name), datasets: [{ label: 'MRR (USD)', data: tiers.map((t) => dollars(t.mrr_cents)), backgroundColor: COLORS[0] }] },
      options: { scales: { y: moneyAxis }, plugins: { legend: { display: false } } },
    });
    const byPlatform = r.revenue.by_platform;
    chart('chart-revenue-platforms', {
      type: 'doughnut',
      data: { labels: byPlatform.map((p) => p.name), datasets: [{ label: 'MRR (USD)', data: byPlatform.map((p) => dollars(p.mrr_cents)), backgroundColor: COLORS }] },
    });
    const c = r.customers;
    chart('chart-customers-states', {
      type: 'doughnut',
      data: {
        labels: ['Paying', 'Trialing', 'Past due', 'Paused', 'Free', 'Churned'],
        datasets: [{ label: 'Accounts', data: [c.paying_accounts, c.trialing_accounts, c.past_due_accounts, c.paused_accounts, c.free_accounts, c.churned_accounts], backgroundColor: COLORS }],
      },
    });
    chart('chart-customers-health', {
      type: 'bar',
      data: { labels: ['Healthy', 'At risk', 'Critical'], datasets: [{ label: 'Accounts', data: [c.health.healthy, c.health.at_risk, c.health.critical], backgroundColor: [COLORS[1], COLORS[2], COLORS[3]] }] },
      options: { plugins: { legend: { display: false } }, scales: { y: { ticks: { precision: 0 } } } },
    });
    const g = r.growth;
    chart('chart-growth-series', {
      data: {
        labels: g.series.map((p) => p.bucket.slice(0, 10)),
        datasets: [
          { type: 'line', label: 'Net new MRR (USD)', data: g.series.map((p) => dollars(p.net_new_mrr_cents)), borderColor: COLORS[0], backgroundColor: COLORS[0], yAxisID: 'mrr' },
          { type: 'bar', label: 'New accounts', data: g.series.map((p) => p.new_accounts), backgroundColor: COLORS[1], yAxisID: 'accounts' },
        ],
      },
      options: { scales: { mrr: { position: 'left', ...moneyAxis }, accounts: { position: 'right', ticks: { precision: 0 }, grid: { drawOnChartArea: false } } } },
    });
    const m = g.mrr_movement;
    chart('chart-growth-movement', {
      type: 'bar',
      data: {
        labels: ['New', 'Expansion', 'Reactivation', 'Contraction', 'Churn', 'Net new'],
        datasets: [{ label: 'USD', data: [m.new_cents, m.expansion_cents, m.reactivation_cents, -m.contraction_cents, -m.churn_cents, m.net_new_cents].map(dollars), backgroundColor: [COLORS[1], COLORS[1], COLORS[1], COLORS[3], COLORS[3], COLORS[0]] }],
      },
      options: { scales: { y: moneyAxis }, plugins: { legend: { display: false } } },
    });
    const blocks = r.engagement.block_adoption;
    chart('chart-engagement-blocks', {
      type: 'bar',
      data: {
        labels: blocks.map((b) => b.block),
        datasets: [
          { label: 'Accounts', data: blocks.map((b) => b.accounts), backgroundColor: COLORS[0] },
          { label: 'Apps', data: blocks.map((b) => b.apps), backgroundColor: COLORS[5] },
        ],
      },
      options: { scales: { y: { ticks: { precision: 0 } } } },
    });
    const platforms = r.platforms.platforms;
    chart('chart-platforms', {
      type: 'bar',
      data: {
        labels: platforms.map((p) => p.code),
        datasets: [
          { label: 'MRR (USD)', data: platforms.map((p) => dollars(p.mrr_cents)), backgroundColor: COLORS[0] },
          { label: 'Net new MRR (USD)', data: platforms.map((p) => dollars(p.net_new_mrr_cents)), backgroundColor: COLORS[1] },
        ],
      },
      options: { scales: { y: moneyAxis } },
    });
  }

  // ---- wiring ----
  function start() {
    Chart.defaults.animation = false;
    Chart.defaults.maintainAspectRatio = false;
    Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;

    $('sign-in').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const value = $('token').value.trim().replace(/^bearer\s+/i, '');
      if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(value) || !claims(value)) {
        showError('That is not a JWT (three base64url parts separated by dots). Paste a platform JWT.');
        return;
      }
      sessionStorage.setItem(TOKEN_KEY, value);
      $('token').value = '';
      showError('');
      showSession();
      load(false);
    });
    $('sign-out').addEventListener('click', () => {
      sessionStorage.removeItem(TOKEN_KEY);
      showSignIn('');
    });
    $('period').addEventListener('change', () => load(false));
    $('platform').addEventListener('change', () => load(false));
    $('refresh').addEventListener('click', () => load(true));

    if (token()) {
      showSession();
      load(false);
    } else showSignIn('');
  }

  start();
})();
