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
  const names = table.seats.map((s) => `${s.name}${s.robot ? ' (robot)' : ''}${s.connected ? '' : ' (away)'}`);
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
  if (table.status !== 'finished' && table.status !== 'failed') {
    const mine = table.seats.some((s) => !s.robot && !s.connected && s.name === guestName());
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
  body.replaceChildren(...tables.slice().reverse().map(tableRow));
  const gbody = $('games').querySelector('tbody');
  gbody.replaceChildren(...games.map((g) => {
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

function parseOptions(text) {
  const options = {};
  for (const part of text.split(/[,\s]+/).filter(Boolean)) {
    const [name, value] = part.split('=');
    if (!name || value === undefined) throw new Error(`options: expected NAME=VALUE, not ${part}`);
    options[name] = /^-?\d+$/.test(value) ? Number(value) : value;
  }
  return options;
}

async function start() {
  $('guest-name').value = localStorage.getItem('lobby.guest') || '';
  account = (await api('GET', '/api/me')).account;
  showAccount();
  const rules = await api('GET', '/api/rules');
  $('rules').replaceChildren(...rules.rules.map((r) => new Option(r, r, r === rules.default, r === rules.default)));
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
        options: parseOptions($('options').value),
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
