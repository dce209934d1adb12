// The lobby page: tables, games, the account or guest name, creating and joining tables, chat.
// Everything goes through the lobby's JSON API (README: "mj lobby"); seats are shown by xmj's page.

const $ = (id) => document.getElementById(id);
let account = null;

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new Error((data && data.error) || `${response.status} ${response.statusText}`);
  return data;
}

function notice(text, ok = false) {
  $('notice').textContent = text;
  $('notice').className = ok ? 'ok' : '';
}

function cell(row, text) {
  const td = document.createElement('td');
  td.textContent = text;
  row.appendChild(td);
  return td;
}

function emptyRow(columns, text) {
  const row = document.createElement('tr');
  cell(row, text).colSpan = columns;
  row.className = 'empty';
  return row;
}

function button(label, action) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.addEventListener('click', () => action().catch((e) => notice(e.message)));
  return b;
}

function guestName() {
  const name = account ? account.name : $('guest-name').value.trim();
  localStorage.setItem('lobby.guest', $('guest-name').value.trim());
  return name;
}

async function sit(table) {
  const seat = await api('POST', `/api/tables/${table}/sit`, { name: guestName() });
  window.location.href = seat.page;
}

async function invite(table) {
  const link = `${window.location.origin}/?table=${table}`;
  try { await navigator.clipboard.writeText(link); notice(`Invitation copied: ${link}`, true); }
  catch { notice(`Invitation: ${link}`, true); }
}

function describeSeats(table) {
  const away = (s) => (s.stand_in ? ' (away: a robot plays)' : s.connected ? '' : ' (away)');
  const names = table.seats.map((s) => `${s.name}${s.robot ? ' (robot)' : ''}${away(s)}`);
  for (let i = 0; i < table.free; i += 1) names.push('free');
  return names.join(', ');
}

function tableRow(table) {
  const row = document.createElement('tr');
  cell(row, table.id);
  cell(row, table.rules);
  cell(row, Object.entries(table.options).map(([k, v]) => `${k}=${v}`).join(' ') || 'default');
  cell(row, describeSeats(table) + (table.spectators ? ` — ${table.spectators} watching` : ''));
  cell(row, table.status + (table.timer ? `, ${table.timer} s timer` : ''));
  cell(row, table.hands);
  const actions = cell(row, '');
  if (!['finished', 'failed', 'expired'].includes(table.status)) {
    const mine = table.seats.some((s) => !s.robot && (!s.connected || s.stand_in) && s.name === guestName());
    if (table.free > 0 || mine) actions.appendChild(button(mine ? 'Return' : 'Sit', () => sit(table.id)));
    if (table.free > 0) {
      actions.appendChild(button('Add robot', async () => {
        await api('POST', `/api/tables/${table.id}/robot`, {});
        await refresh();
      }));
    }
    actions.appendChild(button('Watch', async () => { window.location.href = `/watch?table=${table.id}`; }));
    actions.appendChild(button('Invite', () => invite(table.id)));
  }
  if (table.game) actions.appendChild(button('Replay', async () => { window.location.href = `/replay?game=${table.game}`; }));
  return row;
}

async function refresh() {
  const [tables, games] = await Promise.all([api('GET', '/api/tables'), api('GET', '/api/games')]);
  const body = $('tables').querySelector('tbody');
  body.replaceChildren(...(tables.length ? tables.slice().reverse().map(tableRow) : [emptyRow(7, 'No tables yet: make one below.')]));
  const gbody = $('games').querySelector('tbody');
  gbody.replaceChildren(...(games.length ? [] : [emptyRow(6, 'No games yet.')]), ...games.map((g) => {
    const row = document.createElement('tr');
    cell(row, g.id); cell(row, g.table); cell(row, g.rules); cell(row, g.hands); cell(row, g.finished ? 'yes' : 'no');
    cell(row, '').appendChild(button('Replay', async () => { window.location.href = `/replay?game=${g.id}`; }));
    return row;
  }));
  const invited = new URL(window.location.href).searchParams.get('table');
  if (invited) {
    const table = tables.find((t) => String(t.id) === invited);
    $('invited').hidden = !table;
    if (table) {
      $('invited-id').textContent = table.id;
      const t = document.createElement('table');
      t.appendChild(tableRow(table));
      $('invited-table').replaceChildren(t);
    }
  }
  const chat = await api('GET', '/api/chat');
  $('chat').replaceChildren(...chat.map((c) => {
    const li = document.createElement('li');
    li.textContent = `${c.name}: ${c.text}`;
    return li;
  }));
}

function showAccount() {
  $('who').replaceChildren();
  if (account) {
    const link = document.createElement('a');
    link.href = `/player?name=${encodeURIComponent(account.name)}`;
    link.textContent = account.name;
    $('who').append('Logged in as ', link);
  }
  $('login-form').hidden = !!account;
  $('logout').hidden = !account;
  $('guest-label').hidden = !!account;
}

// The rule systems the lobby knows (GET /api/rules), each with its options: the form shows the chosen one's.
let systems = [];

function optionField(option) {
  const label = document.createElement('label');
  label.title = option.description;
  let input;
  if (option.type === 'bool') {
    input = document.createElement('input');
    input.type = 'checkbox';
    input.checked = !!option.default;
    label.className = 'bool';
  } else if (option.choices) {
    input = document.createElement('select');
    input.replaceChildren(...option.choices.map((v) => new Option(String(v), String(v), v === option.default, v === option.default)));
  } else {
    input = document.createElement('input');
    input.type = option.type === 'string' ? 'text' : 'number';
    if (option.min !== null) input.min = option.min;
    if (option.max !== null) input.max = option.max;
    input.value = option.default;
  }
  input.id = `opt-${option.name}`;
  input.dataset.option = option.name;
  input.addEventListener('change', countChanged);
  const text = document.createElement('span');
  text.textContent = `${option.name}: ${option.description}`;
  if (option.type === 'bool') label.append(input, text); else label.append(text, input);
  return label;
}

function optionValue(option) {
  const input = $(`opt-${option.name}`);
  if (option.type === 'bool') return input.checked ? 1 : 0;
  if (option.type === 'string') return input.value;
  if (!/^-?\d+$/.test(input.value.trim())) throw new Error(`${option.name}: expected a whole number`);
  return Number(input.value);
}

function chosenSystem() {
  return systems.find((s) => s.name === $('rules').value);
}

// Only the options changed from their defaults are sent (and listed with the table).
function changedOptions() {
  const options = {};
  for (const option of chosenSystem().options) {
    const value = optionValue(option);
    if (value !== option.default) options[option.name] = value;
  }
  return options;
}

function countChanged() {
  let changed;
  try { changed = Object.keys(changedOptions()).length; } catch { changed = '?'; }
  $('options-changed').textContent = changed === 0 ? 'none changed' : `${changed} changed`;
}

function showRules() {
  const system = chosenSystem();
  $('rules-note').textContent = system.available ? '' : system.reason;
  $('rule-options').replaceChildren(...system.options.map(optionField));
  $('create').querySelector('button[type=submit]').disabled = !system.available;
  countChanged();
}

async function start() {
  $('guest-name').value = localStorage.getItem('lobby.guest') || '';
  account = (await api('GET', '/api/me')).account;
  showAccount();
  const rules = await api('GET', '/api/rules');
  systems = rules.systems;
  $('rules').replaceChildren(...systems.map((s) => {
    const option = new Option(s.available ? s.name : `${s.name} (not available yet)`, s.name, s.name === rules.default,
      s.name === rules.default);
    return option;
  }));
  $('rules').addEventListener('change', showRules);
  showRules();
  $('login-form').addEventListener('submit', (event) => {
    event.preventDefault();
    api('POST', '/api/login', { name: $('login-name').value, password: $('login-password').value })
      .then((a) => { account = a.account; showAccount(); notice('Logged in.', true); refresh(); })
      .catch((e) => notice(e.message));
  });
  $('register').addEventListener('click', () => {
    api('POST', '/api/register', { name: $('login-name').value, password: $('login-password').value })
      .then((a) => { account = a.account; showAccount(); notice('Registered and logged in.', true); refresh(); })
      .catch((e) => notice(e.message));
  });
  $('logout').addEventListener('click', () => {
    api('POST', '/api/logout').then(() => { account = null; showAccount(); notice('Logged out.', true); })
      .catch((e) => notice(e.message));
  });
  $('create').addEventListener('submit', (event) => {
    event.preventDefault();
    let request;
    try {
      request = {
        rules: $('rules').value,
        robots: Number($('robots').value),
        level: Number($('level').value),
        timer: Number($('timer').value),
        options: changedOptions(),
      };
    } catch (e) { notice(e.message); return; }
    api('POST', '/api/tables', request)
      .then((t) => { notice(`Table ${t.table} created.`, true); refresh(); })
      .catch((e) => notice(e.message));
  });
  $('chat-form').addEventListener('submit', (event) => {
    event.preventDefault();
    api('POST', '/api/chat', { name: guestName(), text: $('chat-text').value })
      .then(() => { $('chat-text').value = ''; refresh(); })
      .catch((e) => notice(e.message));
  });
  await refresh();
  setInterval(() => refresh().catch(() => {}), 2000);
}

start().catch((e) => notice(e.message));
