// The windows of xmj's menus: scoring, game info, messages, starting and joining games,
// saving, and the three preference panels. One modal at a time; Escape or Cancel closes it.

import { DEFAULTS, prefs, setPrefs } from './prefs.js';
import { namedText, tileElement, tileName } from './tiles.js';

const WIND_NAMES = { E: 'East', S: 'South', W: 'West', N: 'North' };
const RULE_NAMES = { classical: 'Chinese Classical', ims: 'IMS (Internet MahJong Server)', beijing: 'Beijing' };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, '');
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

function field(label, input) {
  return el('label', {}, `${label} `, input);
}

function checkbox(label, checked, name) {
  const input = el('input', { type: 'checkbox', name });
  input.checked = Boolean(checked);
  return el('label', {}, input, ` ${label}`);
}

let open = null;

export function panelOpen() {
  return open !== null;
}

export function closePanel() {
  if (open) {
    open.backdrop.remove();
    const { restore } = open;
    open = null;
    if (restore && restore.focus) restore.focus();
  }
}

/** Show a modal window; ``buttons``: [{label, action, primary}] (an action returning false keeps it open). */
export function openPanel(id, title, body, buttons = [{ label: 'Close' }]) {
  closePanel();
  const restore = document.activeElement;
  const panel = el('div', { class: 'panel', role: 'dialog', 'aria-modal': 'true', 'aria-label': title, id: `panel-${id}` });
  const header = el('header', {}, el('span', { text: title }),
    el('button', { class: 'close', type: 'button', 'aria-label': 'Close window', onclick: closePanel, text: '×' }));
  const content = el('div', { class: 'body' }, body);
  const row = el('div', { class: 'buttons' });
  for (const spec of buttons) {
    const button = el('button', { type: 'button', text: spec.label });
    button.addEventListener('click', () => {
      if (!spec.action || spec.action(panel) !== false) closePanel();
    });
    if (spec.primary) button.classList.add('default');
    row.appendChild(button);
  }
  panel.append(header, content, row);
  const backdrop = el('div', { class: 'panel-backdrop' }, panel);
  backdrop.addEventListener('mousedown', (event) => { if (event.target === backdrop) closePanel(); });
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && event.target.tagName === 'INPUT' && event.target.type !== 'checkbox') {
      const primary = buttons.findIndex((b) => b.primary);
      if (primary >= 0) {
        event.preventDefault();
        row.children[primary].click();
      }
    }
  });
  document.getElementById('panels').appendChild(backdrop);
  open = { id, backdrop, restore, content };
  const first = panel.querySelector('input, select, textarea') || row.querySelector('button');
  if (first) first.focus();
  return panel;
}

export function openPanelId() {
  return open ? open.id : null;
}

/** Re-fill an open panel (game info, messages) when a new snapshot arrives. */
export function refreshPanel(id, body) {
  if (open && open.id === id) {
    open.content.replaceChildren(body);
  }
}

// ------------------------------------------------------------------ what the game shows

export function scoringBody(state) {
  const scoring = state && state.scoring;
  if (!scoring) return el('p', { text: 'No hand has been scored yet.' });
  const grid = el('div', { class: 'scoring' });
  for (const row of scoring.players) {
    const change = row.change === null || row.change === undefined ? '' : `${row.change >= 0 ? '+' : ''}${row.change}`;
    const card = el('section', { class: state.game.winner === row.id || row.figures ? 'winner' : '' },
      el('h3', { text: `${WIND_NAMES[row.wind]}: ${row.name}`, 'data-won': state.game.mahjong || 'Mah Jong!' }),
      row.figures ? figuresTable(row)
        : el('pre', { class: 'score', text: row.text || (scoring.payments && scoring.payments.length ? '(only winners are scored)' : '(not scored yet)') }),
      el('div', { class: `change ${row.change >= 0 ? 'plus' : 'minus'}`, text: change ? `Change: ${change}` : '' }));
    grid.appendChild(card);
  }
  const payments = (scoring.payments || []).length
    ? el('div', { class: 'payments' }, el('h3', { text: 'Payments' }),
      el('ul', {}, ...scoring.payments.map((p) => el('li', { text: `${p.payer} \u2192 ${p.payee}: ${p.amount}` }))))
    : '';
  const revealed = (scoring.revealed || []).length
    ? el('div', { class: 'revealed' }, el('h3', { text: 'Concealed quadruplets revealed' }),
      el('ul', {}, ...scoring.revealed.map((r) => el('li', {}, `${r.name}: `, tileElement(r.tile), ` ${tileName(r.tile)}`))))
    : '';
  // a rule system that settles payment by payment says so itself: its payments replace the settlement text
  const settlement = scoring.settlement && !payments ? el('div', {}, el('h3', { text: 'Settlement' }), el('pre', { class: 'score', text: scoring.settlement })) : '';
  const rule = scoring.rule && scoring.players.some((row) => row.figures) ? el('p', { class: 'score-rule', text: scoring.rule }) : '';
  return el('div', {}, el('p', { text: `Hand ${scoring.hand}` }), grid, rule, revealed, payments, settlement);
}

// How a kind of figure reads beside its name (Beijing's rare events are points paid undoubled).
const FIGURE_KINDS = { rare: 'points, undoubled' };
const TOTAL_NAMES = { kongs: 'Kong points' };

/** A winner's figures (IMS: each fan and bonus element, the fan, the bonus, the score; Beijing: the
 * doubles every payer shares, then what each payer owes and for which doubles). */
function figuresTable(row) {
  const table = el('table', { class: 'figures' });
  const line = (name, value, cls = '') => table.appendChild(el('tr', { class: cls }, el('td', { text: name }), el('td', { text: String(value) })));
  for (const e of row.figures.elements) line(`${e.name} (${FIGURE_KINDS[e.kind] || e.kind})`, e.value);
  for (const [name, value] of Object.entries(row.figures.totals)) line(TOTAL_NAMES[name] || name[0].toUpperCase() + name.slice(1), value, 'total');
  line('Score', row.score, 'total');
  const payers = row.figures.payers || [];
  if (!payers.length) return table;
  const owed = el('table', { class: 'figures payers' },
    el('tr', {}, el('th', { text: 'Payer' }), el('th', { text: 'Doubles' }), el('th', { text: 'Owes' })));
  for (const p of payers) {
    const doubles = p.doubles.map((d) => (d.value > 1 ? `${d.name} \u00d7${d.value}` : d.name));
    const count = p.doubles.reduce((sum, d) => sum + d.value, 0);
    owed.appendChild(el('tr', { 'data-wind': p.wind },
      el('td', { text: `${WIND_NAMES[p.wind] || p.wind}: ${p.name}` }),
      el('td', { class: 'doubles', text: doubles.length ? `${doubles.join(', ')} (${count})` : 'none' }),
      el('td', { class: 'num', text: p.amount === null ? '' : String(p.amount) })));
  }
  return el('div', {}, table, owed);
}

/** What the keyboard and the mouse do: the same keys wireKeyboard (main.js) reads. */
const KEYS = [
  ['← →', 'select the tile to the left or right in your hand'],
  ['Shift + ← →', 'move the selected tile within your hand'],
  ['Enter or Space', 'press the outlined button of the dialog'],
  ['the underlined letter', 'press that button of the dialog (Discard: d, ...)'],
  ['Alt + underlined letter', 'open that menu; then ↑ ↓ and Enter, or the item\'s underlined letter'],
  ['Escape', 'close a window or a menu'],
  ['click a tile', 'select it (or choose it in a dialog)'],
  ['double-click a tile', 'discard it in your turn (a wild tile only with the Discard button)'],
  ['drag a tile', 'move it within your hand'],
  ['hover a greyed-out button', 'see why it cannot be pressed now'],
];

export function keysBody() {
  const table = el('table', { class: 'keys' });
  for (const [keys, what] of KEYS) table.appendChild(el('tr', {}, el('th', { text: keys }), el('td', { text: what })));
  return table;
}

export function infoBody(state) {
  if (!state) return el('p', { text: 'Not connected.' });
  const game = state.game;
  const table = el('table', {}, el('tr', {}, el('th', { text: 'Seat' }), el('th', { text: 'Player' }), el('th', { text: 'Id' }), el('th', { text: 'Score' })));
  for (const p of state.players) {
    table.appendChild(el('tr', {}, el('td', { text: WIND_NAMES[p.wind] }), el('td', { text: p.name + (p.id === state.me ? ' (you)' : '') }),
      el('td', { class: 'num', text: String(p.id) }), el('td', { class: 'num', text: String(p.score) })));
  }
  const lines = [
    `${state.connection.local ? 'Local game' : `Server: ${state.connection.server}`} (${state.connection.status})`,
    `Rules: ${RULE_NAMES[game.rules] || game.rules}`,
    // (East's run ends with the game: the last hand's loss does not count it down, as no new hand follows)
    !game.started ? 'Waiting for four players' : game.over ? `Last hand: ${WIND_NAMES[game.round]} round, hand ${game.hand}`
      : `Round: ${WIND_NAMES[game.round]}, hand ${game.hand}; East has won ${game.hands_as_east} in a row`,
    `Phase: ${game.phase}${game.paused ? ' (paused)' : ''}${game.over ? ' — the game is over' : ''}`,
    game.started && state.wall.dealt ? `Live wall: ${state.wall.live} tiles` : '',
    `Manager: ${game.manager === 0 ? 'anybody' : game.manager === -1 ? 'nobody' : `player ${game.manager}`}`,
  ].filter(Boolean);
  return el('div', {}, table, ...lines.map((line) => el('div', { text: line })));
}

/** The record of play (who drew, claimed, discarded, won; claim timeouts), notices and chat, oldest first. */
export function messagesBody(state, send) {
  const log = el('div', { class: 'chatlog', role: 'log', 'aria-label': 'Messages' });
  for (const entry of (state && state.moves) || []) {
    log.appendChild(el('div', { class: `line ${entry.kind}`, text: namedText(entry) }));
  }
  const input = el('input', { type: 'text', 'aria-label': 'Message to send', placeholder: 'Message to all players', maxlength: '400' });
  const form = el('form', { class: 'chatform' }, input, el('button', { type: 'submit', text: 'Send' }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (input.value.trim()) send({ type: 'chat', text: input.value });
    input.value = '';
  });
  setTimeout(() => { log.scrollTop = log.scrollHeight; }, 0);
  return el('div', { style: 'display:flex;flex-direction:column;min-height:0;flex:1' }, log, form);
}

/** Ask before doing something that ends the game in progress; ``action`` runs on "yes". */
export function confirmPanel(title, question, yes, action) {
  openPanel('confirm', title, el('p', { text: question }), [
    // closed before the action, which may open a window of its own
    { label: yes, primary: true, action: () => { closePanel(); action(); return false; } },
    { label: 'Cancel' },
  ]);
}

// ------------------------------------------------------------------ starting and joining

function localGameFields(caps, withFile) {
  const values = JSON.parse(localStorage.getItem('xmj.localgame') || '{}');
  const form = el('form', { class: 'localgame' });
  if (withFile) form.appendChild(field('Saved game file', el('input', { type: 'text', name: 'file', value: values.file || '', size: '32' })));
  form.appendChild(field('Player ID', el('input', { type: 'number', name: 'id', value: '0', min: '0', style: 'width:6em' })));
  form.appendChild(field('Name', el('input', { type: 'text', name: 'name', value: values.name || caps.name || '' })));
  const robots = el('fieldset', {}, el('legend', { text: 'Computer players' }));
  for (let i = 0; i < 3; i += 1) {
    const r = (values.robots || [])[i] || { enabled: true, name: `Robot${i + 1}` };
    robots.appendChild(el('div', {}, checkbox('start a computer player', r.enabled, `robot${i}`),
      el('input', { type: 'text', name: `robotname${i}`, value: r.name, 'aria-label': `Name of computer player ${i + 1}` })));
  }
  form.appendChild(robots);
  const level = String(values.level || caps.level || 3);
  form.appendChild(field('Computer players\' level', select('level', level, [
    ['1', '1: plays for speed'], ['2', '2: also defends'], ['3', '3: also weighs its score (mj-player\'s default)']])));
  const systems = caps.rule_systems || [];
  if (systems.length > 1) {  // resuming too: a saved game does not say its rules, the server must be told
    const chosen = systems.some((r) => r.name === values.rules) ? values.rules : caps.rules;
    const menu = select('rules', chosen, systems.map((r) => [r.name, RULE_NAMES[r.name] || r.name]));
    const table = el('fieldset', { class: 'table-options' });
    const fill = () => {
      const system = systems.find((r) => r.name === menu.value);
      table.replaceChildren(el('legend', { text: 'Table options' }));
      for (const o of system ? system.options : []) {
        const saved = ((values.table_options || {})[menu.value] || {})[o.name];
        const value = saved === undefined ? o.value : saved;
        table.appendChild(o.type === 'bool'
          ? checkbox(o.description, value, `opt-${o.name}`)
          : field(o.description, el('input', { type: 'number', name: `opt-${o.name}`, value: String(value), min: '0', style: 'width:5em' })));
      }
      table.hidden = withFile || !system || !system.options.length;  // a saved game keeps its own options
    };
    menu.addEventListener('change', fill);
    fill();
    form.append(field('Rules', menu), table);
  }
  form.append(
    checkbox('allow disconnection', values.allow_disconnect, 'allow_disconnect'),
    checkbox('save game state on exit', values.save_on_exit, 'save_on_exit'),
    checkbox('seat players randomly', values.random_seats, 'random_seats'),
    field('Time limit for claims (seconds, 0 = none)', el('input', { type: 'number', name: 'timeout', value: String(values.timeout ?? 15), min: '0', style: 'width:6em' })),
  );
  return form;
}

function readLocalGame(form) {
  const get = (name) => form.elements[name];
  const values = {
    name: get('name').value,
    id: Number(get('id').value) || 0,
    robots: [0, 1, 2].map((i) => ({ enabled: get(`robot${i}`).checked, name: get(`robotname${i}`).value })),
    allow_disconnect: get('allow_disconnect').checked,
    save_on_exit: get('save_on_exit').checked,
    random_seats: get('random_seats').checked,
    timeout: Number(get('timeout').value) || 0,
    level: Number(get('level').value) || 3,
  };
  if (get('file')) values.file = get('file').value;
  const saved = JSON.parse(localStorage.getItem('xmj.localgame') || '{}');
  values.table_options = saved.table_options || {};
  if (get('rules')) {
    values.rules = get('rules').value;
    const chosen = {};
    for (const input of form.querySelectorAll('.table-options input')) {
      const name = input.name.slice('opt-'.length);
      chosen[name] = input.type === 'checkbox' ? input.checked : Number(input.value) || 0;
    }
    values.table_options[values.rules] = chosen;
  }
  localStorage.setItem('xmj.localgame', JSON.stringify(values));
  // the server is sent the chosen system's options only, and none for a saved game (it has its own)
  return { ...values, table_options: values.rules && !values.file ? values.table_options[values.rules] : undefined };
}

export function newLocalGame(caps, send) {
  const form = localGameFields(caps, false);
  openPanel('newgame', 'New local game', form, [
    { label: 'Start Game', primary: true, action: () => { send({ type: 'new_game', ...readLocalGame(form) }); } },
    { label: 'Cancel' },
  ]);
}

export function resumeGame(caps, send) {
  const form = localGameFields(caps, true);
  openPanel('resume', 'Resume game', form, [
    { label: 'Resume Game', primary: true, action: () => { send({ type: 'resume', ...readLocalGame(form) }); } },
    { label: 'Cancel' },
  ]);
}

export function joinServer(caps, send) {
  const saved = JSON.parse(localStorage.getItem('xmj.join') || '{}');
  const server = caps.join_any
    ? el('input', { type: 'text', name: 'server', value: saved.server || 'localhost:5000' })
    : el('input', { type: 'text', name: 'server', value: caps.server, readonly: true });
  const form = el('form', {},
    field('Server (HOST:PORT or socket file)', server),
    field('Player ID', el('input', { type: 'number', name: 'id', value: String(saved.id || 0), min: '0', style: 'width:6em' })),
    field('Name', el('input', { type: 'text', name: 'name', value: saved.name || caps.name || '' })),
    field('Password (if the server asks one)', el('input', { type: 'password', name: 'password', autocomplete: 'current-password' })));
  openPanel('join', 'Join server', form, [
    {
      label: 'Connect',
      primary: true,
      action: () => {
        const values = { server: form.elements.server.value, id: Number(form.elements.id.value) || 0, name: form.elements.name.value };
        localStorage.setItem('xmj.join', JSON.stringify(values)); // the password is never kept
        send({ type: 'join', ...values, password: form.elements.password.value });
      },
    },
    { label: 'Cancel' },
  ]);
}

export function saveAs(send, folder) {
  const input = el('input', { type: 'text', name: 'filename', size: '30', 'aria-label': 'File name' });
  const where = folder ? `The file is written in ${folder} (.mjs is added).` : 'The file is written in the game server\'s folder (.mjs is added).';
  openPanel('saveas', 'Save as', el('div', {}, field('Save the game as', input), el('p', { class: 'folder', text: where })), [
    { label: 'Save', primary: true, action: () => { send({ type: 'save', filename: input.value }); } },
    { label: 'Cancel' },
  ]);
}

// ------------------------------------------------------------------ preferences

function select(name, value, options) {
  const node = el('select', { name });
  for (const [v, label] of options) {
    const option = el('option', { value: v, text: label });
    option.selected = v === value;
    node.appendChild(option);
  }
  return node;
}

// The preferences a form shows, read back by name: a checkbox gives its state, any other input its value.
function formPrefs(form, names) {
  const read = {};
  for (const name of names) {
    const input = form.elements[name];
    read[name] = input.type === 'checkbox' ? input.checked : input.value;
  }
  return read;
}

function prefButtons(read) {
  return [
    { label: 'Save & Apply', primary: true, action: () => setPrefs(read(), true) },
    { label: 'Apply (no save)', action: () => setPrefs(read(), false) },
    { label: 'Cancel' },
  ];
}

export function displayPrefs() {
  const p = prefs();
  const form = el('form', {},
    field('Theme', select('theme', p.theme, [['light', 'light'], ['dark', 'dark']])),
    field('Table colour', el('input', { type: 'color', name: 'tableColour', value: p.tableColour })),
    el('button', { type: 'button', class: 'action-button', text: 'Dark green', onclick: () => { form.elements.tableColour.value = DEFAULTS.tableColour; } }),
    field('Dialog position', select('dialogPlace', p.dialogPlace, [['side', 'beside (or below) the table'], ['centre', 'in the middle of the table'], ['float', 'floating (drag it by its title)']])),
    field('Sort tiles in hand', select('sortTiles', p.sortTiles, [['always', 'always'], ['deal', 'on deal'], ['never', 'never']])),
    field('Show the wall', select('showWall', p.showWall, [['always', 'always'], ['when-room', 'when room'], ['never', 'never']])),
    checkbox('Tiletips always shown', p.tiletips, 'tiletips'),
    checkbox('Don\'t popup scoring/message windows', p.noPopups, 'noPopups'),
    checkbox('Display status and messages in main window', p.infoInMain, 'infoInMain'),
    checkbox('Sound when it is my turn or I may claim', p.sound, 'sound'));
  openPanel('display', 'Display options', form, prefButtons(() => formPrefs(form,
    ['theme', 'tableColour', 'dialogPlace', 'sortTiles', 'showWall', 'tiletips', 'noPopups', 'infoInMain', 'sound'])));
}

/**
 * What the client may do by itself, only what applies at this table (``state``: the latest snapshot, or
 * null before any): flowers where the players declare them, hands where the rules have a declaring phase.
 * Away from a table all are offered, as xmj offers them.
 */
export function playingPrefs(state) {
  const p = prefs();
  const course = state && state.game.course;
  const declares = [
    ['autoFlowers', 'flowers and seasons', !course || !course.reveals_flowers],
    ['autoLosing', 'losing hands', !course || course.declares_hands],
    ['autoWinning', 'winning hands', !course || course.declares_hands],
  ].filter(([, , applies]) => applies);
  const form = el('form', {});
  if (declares.length) form.appendChild(el('p', { text: 'Declare automatically:' }));
  for (const [name, label] of declares) form.appendChild(checkbox(label, p[name], name));
  form.appendChild(checkbox('pass on discards I cannot claim', p.autoPass, 'autoPass'));
  openPanel('playing', 'Playing preferences', form, prefButtons(() => formPrefs(form,
    [...declares.map(([name]) => name), 'autoPass'])));
}

function optionInput(option, value) {
  const name = `opt-${option.name}`;
  if (option.type === 'bool') {
    const input = el('input', { type: 'checkbox', name, 'aria-label': option.name });
    input.checked = Boolean(value);
    return input;
  }
  return el('input', { type: option.type === 'string' ? 'text' : 'number', name, value: String(value), 'aria-label': option.name, style: 'width:8em' });
}

function optionValue(option, form) {
  const input = form.elements[`opt-${option.name}`];
  if (option.type === 'bool') return input.checked ? 1 : 0;
  return option.type === 'string' ? input.value : Number(input.value);
}

function optionsTable(options, values, withPrefCheckbox) {
  const table = el('table', {});
  for (const option of options) {
    const has = Object.prototype.hasOwnProperty.call(values, option.name);
    const row = el('tr', {});
    if (withPrefCheckbox) {
      const use = el('input', { type: 'checkbox', name: `use-${option.name}`, 'aria-label': `Prefer a value for ${option.name}` });
      use.checked = has;
      row.appendChild(el('td', {}, use));
    }
    row.append(el('td', { text: option.name }), el('td', {}, optionInput(option, has ? values[option.name] : option.value)),
      el('td', { text: option.description }));
    table.appendChild(row);
  }
  return table;
}

export function gameOptionPrefs(state) {
  const options = (state && state.options) || [];
  const form = el('form', {}, el('p', { text: 'Preferred game options, sent to the server when a game starts (if we may set options).' }),
    optionsTable(options, prefs().gameOptions, true));
  openPanel('gameprefs', 'Game option preferences', form, [
    {
      label: 'Save Changes',
      primary: true,
      action: () => {
        const chosen = {};
        for (const option of options) {
          if (form.elements[`use-${option.name}`].checked) chosen[option.name] = optionValue(option, form);
        }
        setPrefs({ gameOptions: chosen }, true);
      },
    },
    { label: 'Cancel' },
  ]);
}

export function currentOptions(state, send) {
  const options = (state && state.options) || [];
  const values = Object.fromEntries(options.map((o) => [o.name, o.value]));
  const mayChange = state && (state.game.manager === 0 || state.game.manager === state.me);
  const form = el('form', {}, el('p', { text: mayChange ? 'Options of the current game.' : 'Options of the current game (only the manager may change them).' }),
    optionsTable(options, values, false));
  const apply = (chosen) => {
    for (const [name, value] of Object.entries(chosen)) send({ type: 'set_option', name, value });
  };
  openPanel('options', 'Current game options', form, [
    {
      label: 'Apply changes',
      primary: true,
      action: () => {
        const changed = {};
        for (const option of options) {
          const value = optionValue(option, form);
          if (String(value) !== String(option.type === 'bool' ? Number(option.value) : option.value)) changed[option.name] = value;
        }
        apply(changed);
      },
    },
    { label: 'Apply prefs', action: () => apply(prefs().gameOptions) },
    { label: 'Cancel' },
  ]);
}
