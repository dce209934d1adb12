// The page: connects to the gateway, keeps the latest snapshot, and ties the table, the
// action dialog, the menus, the panels and the keyboard together. No rules live here:
// every move offered comes from the server's snapshot.

import { Connection, setToken, takeTokenFromAddress, token } from './connection.js';
import { ActionDialog, placeDialog } from './dialog.js';
import { Hand } from './hand.js';
import { buildMenus } from './menu.js';
import {
  closePanel, confirmPanel, currentOptions, displayPrefs, gameOptionPrefs, infoBody, joinServer, keysBody, messagesBody, newLocalGame,
  openPanel, openPanelId, panelOpen, playingPrefs, refreshPanel, resumeGame, saveAs, scoringBody,
} from './panels.js';
import { onPrefs, prefs, setPrefs } from './prefs.js';
import { beep } from './sound.js';
import { announce, clearAnnouncements, clearTable, fitBoard, renderTable } from './table.js';
import { installSprite, setMarks } from './tiles.js';

const app = {
  state: null,
  starting: null, // the request under way that takes the page to another game (the game in hand is held), else null
  caps: { local: false, join_any: false, server: '', name: '' },
  welcomed: false,
  shownScoring: null,
  lastDialog: null,
  appliedOptions: new Set(JSON.parse(sessionStorage.getItem('xmj.applied') || '[]')),
};

const hand = new Hand();
const connection = new Connection(onMessage, onConnection);
const send = (message) => connection.send(message);
const dialog = new ActionDialog(send, hand, prefs);
// a tone when the table waits for us: our turn, or a discard we may claim
dialog.local = () => app.caps.local;
dialog.onShow = (shown) => {
  if (prefs().sound && (shown.kind === 'turn' || shown.kind === 'claim' || shown.kind === 'rob')) beep();
};

function status(text, isError = false) {
  const bar = document.getElementById('statusbar');
  bar.replaceChildren();
  const span = document.createElement('span');
  if (isError) span.className = 'error';
  span.textContent = text;
  bar.appendChild(span);
}

// ------------------------------------------------------------------ starting a new game, joining a server

// Blocked while a new game starts: everything but the "starting" notice itself.
const BLOCKED_WHILE_STARTING = ['menubar', 'start-failed', 'main', 'statusbar', 'float-dock', 'panels'];

// The requests that take the page to another game, each with what the page says while it is under way,
// until when the game in hand waits, and what did not happen if it fails.
const STARTS = {
  new_game: { doing: () => 'Starting a new game…', until: 'the new one has started', undone: 'the new game was not started' },
  resume: { doing: () => 'Resuming the saved game…', until: 'the saved one has started', undone: 'the saved game was not resumed' },
  join: { doing: (m) => `Joining ${m.server || 'the server'}…`, until: 'you are seated there', undone: 'the server was not joined' },
};

/**
 * Ask for another game: a new local one, a resumed one, or a seat at a server. The gateway leaves the
 * game in hand only once the other has started, so until it answers (welcome: the other game; error:
 * it did not start) the page says so and takes no move for the old game: a press now could not be
 * meant for either game.
 */
function startGame(message) {
  const start = STARTS[message.type];
  if (!send(message)) {
    failedStart(`Not connected to xmj: ${start.undone}.`);
    return;
  }
  failedStart(null);
  setStarting(message.type, start.doing(message));
}

/** Hold the game in hand while the ``request`` said in ``text`` is under way (null: let it go again). */
function setStarting(request, text = '') {
  app.starting = request;
  const until = request ? STARTS[request].until : '';
  const cover = document.getElementById('starting');
  cover.hidden = !request;
  cover.querySelector('.text').textContent = text;
  const seated = Boolean(app.state && app.state.connection.status === 'connected');
  cover.querySelector('.sub').textContent = request && seated ? `Your game waits here until ${until}.` : '';
  if (request) cover.querySelector('.box').setAttribute('aria-label', text);
  for (const id of BLOCKED_WHILE_STARTING) document.getElementById(id).inert = Boolean(request);
  dialog.held = request ? `${text} Your game waits until ${until}.` : null;
  if (request) cover.querySelector('.box').focus();
  if (app.state) dialog.render(app.state);
}

/** Say in one line, until dismissed or the next start, why another game did not start (null: hide it). */
function failedStart(text) {
  const line = document.getElementById('start-failed');
  const was = !line.hidden;
  line.hidden = !text;
  line.querySelector('.text').textContent = text || '';
  if (was !== Boolean(text)) {
    fitBoard();
    render();
  }
}

function startRefused(reason) {
  setStarting(null);
  const seated = app.state && app.state.connection.status === 'connected';
  const said = reason.charAt(0).toUpperCase() + reason.slice(1);
  failedStart(`${said}${/[.!?]$/.test(said) ? '' : '.'}${seated ? ' Your game goes on.' : ''}`);
}

function onConnection(up) {
  if (!up && app.starting) startRefused(`the connection to xmj was lost: ${STARTS[app.starting].undone}`);
  const board = document.getElementById('board');
  board.classList.toggle('offline', !up);
  board.dataset.offline = 'Connection lost — reconnecting…';
  if (!up) status('Connection to xmj lost; reconnecting…', true);
  // nothing pressed while disconnected would arrive: the dialog's buttons are greyed out until the next snapshot
  dialog.offline = up ? null : 'Not connected to xmj: wait until it reconnects';
  if (app.state) dialog.render(app.state);
}

function onMessage(message) {
  switch (message.type) {
    case 'welcome': welcome(message); break;
    case 'state': update(message); break;
    case 'announce': announce(app.state, message); break;
    case 'error':
      if (app.starting && message.request === app.starting) {
        startRefused(message.message);
        return;
      }
      if (message.message === 'that dialog is out of date') return;
      status(message.message, true);
      dialog.refused();
      break;
    default: break;
  }
}

function welcome(message) {
  if (app.starting) setStarting(null); // the new game: the gateway has left the old one
  app.caps = message.caps;
  setToken(message.token);
  hand.useSeat(message.token);
  if (!message.token) {
    app.state = null;
    clearTable();
    dialog.render({ dialog: null });
    status(app.caps.local ? 'Not at a table: start a new local game or join a server (Game menu).' : 'Not at a table: join the game.');
    if (!panelOpen()) {
      if (app.caps.local) newLocalGame(app.caps, startGame);
      else joinServer(app.caps, startGame);
    }
  } else {
    closePanel();
  }
}

// A snapshot carries only the chat and move-log lines not sent before (all of them with chat_reset,
// moves_reset): kept here, numbered.
const KEPT_LINES = 200;

function mergeLines(state, key) {
  if (state[`${key}_reset`] || !app[key]) app[key] = [];
  const kept = app[key];
  const last = kept.length ? kept[kept.length - 1].n : 0;
  for (const line of state[key] || []) if (line.n > last) kept.push(line);
  if (kept.length > KEPT_LINES) kept.splice(0, kept.length - KEPT_LINES);
  state[key] = kept;
}

function update(state) {
  mergeLines(state, 'chat');
  mergeLines(state, 'moves');
  const previous = app.state;
  app.state = state;
  dialog.state = state;
  if (previous && previous.game.hand !== state.game.hand) clearAnnouncements(state.game.hand);
  setMarks(state.marks);
  const me = state.players.find((p) => p.id === state.me);
  const dealt = state.game.phase !== 'dealing' && state.game.phase !== 'between hands';
  hand.update((me && me.hand) || [], state.game.hand, prefs().sortTiles, dealt);
  const d = state.dialog;
  if (d && d.number !== app.lastDialog) {
    app.lastDialog = d.number;
    if (d.select) hand.selectCode(d.select);
  }
  scheduleRender();
  connectionStatus(state);
  popups(previous, state);
  applyOptionPrefs(state);
}

// Snapshots come in bursts (the robots answer at once): draw only the latest of those already received.
let renderPending = false;
function scheduleRender() {
  if (renderPending) return;
  renderPending = true;
  setTimeout(() => {
    renderPending = false;
    render();
  }, 0);
}

function render() {
  const state = app.state;
  if (!state) return;
  placeDialog(prefs().dialogPlace, prefs().dialogAt, (at) => setPrefs({ dialogAt: at }, true));
  renderTable(state, hand, prefs());
  dialog.render(state);
  renderSidebar();
  refreshPanel('info', infoBody(state));
  refreshPanel('messages', messagesBody(state, send));
  const c = state.connection;
  document.getElementById('title').textContent = c.name ? `${c.name} ${c.local ? 'in a local game' : `at ${c.server}`}` : '';
}

function connectionStatus(state) {
  const c = state.connection;
  const board = document.getElementById('board');
  const off = c.status !== 'connected' && c.status !== 'over';
  board.classList.toggle('offline', off);
  dialog.offline = off ? `Not connected to the game server (${c.detail || c.status})` : null;
  if (off) board.dataset.offline = c.detail || c.status;
  if (c.detail) status(c.detail, c.status !== 'over');
  else if (state.dialog) status(state.dialog.title);
  else if (state.game.over) status('The game is over.');
  else if (!state.game.started) status('Waiting for the other players to join…');
  else status(state.notices.length ? state.notices[state.notices.length - 1] : '');
}

function popups(previous, state) {
  const scoring = state.scoring;
  const key = scoring && scoring.settlement ? `${scoring.hand}:${scoring.settlement.length}` : null;
  if (key && key !== app.shownScoring) {
    const first = app.shownScoring === null && previous === null;
    app.shownScoring = key;
    if (!first && !prefs().noPopups) openPanel('scoring', 'Scoring', scoringBody(state));
    else refreshPanel('scoring', scoringBody(state));
  }
  if (state.game.over && previous && !previous.game.over && !prefs().noPopups && openPanelId() !== 'scoring') {
    openPanel('info', 'Game info', infoBody(state));
  }
}

/** Game option preferences go to the server once per game, when we may set options. */
function applyOptionPrefs(state) {
  const wanted = prefs().gameOptions || {};
  const game = state.game;
  const key = `${state.connection.server}#${token()}`;
  if (!Object.keys(wanted).length || !game.started || app.appliedOptions.has(key)) return;
  if (game.manager !== 0 && game.manager !== state.me) return;
  for (const [name, value] of Object.entries(wanted)) {
    const current = state.options.find((o) => o.name === name);
    if (current && String(Number(current.value)) !== String(Number(value)) && String(current.value) !== String(value)) {
      send({ type: 'set_option', name, value });
    }
  }
  app.appliedOptions.add(key);
  sessionStorage.setItem('xmj.applied', JSON.stringify([...app.appliedOptions]));
}

function renderSidebar() {
  const sidebar = document.getElementById('sidebar');
  sidebar.classList.toggle('no-info', !prefs().infoInMain);
  if (!prefs().infoInMain) return;
  const info = document.getElementById('side-info');
  const heading = document.createElement('h2');
  heading.textContent = 'Game';
  info.replaceChildren(heading, infoBody(app.state));
  const messages = document.getElementById('side-messages');
  const focused = messages.contains(document.activeElement) ? document.activeElement.value : null;
  const mHeading = document.createElement('h2');
  mHeading.textContent = 'Messages';
  messages.replaceChildren(mHeading, messagesBody(app.state, send));
  if (focused !== null) {
    const input = messages.querySelector('input');
    input.value = focused;
    input.focus();
  }
}

// ------------------------------------------------------------------ our hand: clicks, double clicks, dragging

function wireHand() {
  const seats = document.getElementById('seats');
  const tileIndex = (event) => {
    const button = event.target.closest('button.tile.mine');
    return button ? Number(button.dataset.index) : -1;
  };
  seats.addEventListener('click', (event) => {
    const index = tileIndex(event);
    if (index < 0) return;
    hand.select(index);
    render();
  });
  // our tiles keep their elements across drawings, so the second click reaches the same one
  seats.addEventListener('dblclick', (event) => {
    const index = tileIndex(event);
    if (index < 0) return;
    hand.select(index);
    if (!dialog.pressTile(hand.selectedCode())) render();
  });
  let dragging = -1;
  seats.addEventListener('dragstart', (event) => {
    dragging = tileIndex(event);
    if (dragging < 0) return;
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', String(dragging));
    event.target.classList.add('dragging');
  });
  seats.addEventListener('dragover', (event) => {
    if (dragging >= 0 && tileIndex(event) >= 0) event.preventDefault();
  });
  seats.addEventListener('drop', (event) => {
    const to = tileIndex(event);
    if (dragging < 0 || to < 0) return;
    event.preventDefault();
    hand.moveTo(dragging, to);
    dragging = -1;
    render();
  });
  seats.addEventListener('dragend', () => { dragging = -1; render(); });
}

// ------------------------------------------------------------------ keyboard

function typing(target) {
  return target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable);
}

function wireKeyboard(menus) {
  document.addEventListener('keydown', (event) => {
    if (app.starting) { // no key reaches the game in hand, nor the menus (the browser's own Ctrl keys do)
      if (!event.ctrlKey && !event.metaKey) event.preventDefault();
      return;
    }
    if (event.key === 'Escape') {
      closePanel();
      menus.close();
      return;
    }
    if (event.altKey && !event.ctrlKey && event.key.length === 1) {
      if (menus.openByKey(event.key)) event.preventDefault();
      return;
    }
    if (panelOpen() || typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest('.menu')) return;
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      const delta = event.key === 'ArrowLeft' ? -1 : 1;
      if (event.shiftKey) hand.shift(delta);
      else hand.step(delta);
      render();
      return;
    }
    const onDialogButton = event.target.closest && event.target.closest('.action button');
    if ((event.key === 'Enter' || event.key === ' ') && !onDialogButton) {
      event.preventDefault();
      if (dialog.pressDefault() === 'selected') render();
      return;
    }
    if (event.key.length === 1 && /[a-z]/i.test(event.key) && !event.shiftKey) {
      if (dialog.pressKey(event.key)) event.preventDefault();
    }
  });
}

// ------------------------------------------------------------------ start

function applyTheme() {
  document.documentElement.dataset.theme = prefs().theme === 'dark' ? 'dark' : 'light';
}

function start() {
  installSprite();
  takeTokenFromAddress();
  const localOnly = () => app.caps.local;
  const seated = () => Boolean(app.state && app.state.connection.status === 'connected');
  const playing = () => Boolean(seated() && app.state.game.started && !app.state.game.over);
  // leaving or joining elsewhere ends our part in the game in progress: ask first
  const unlessPlaying = (title, question, yes, action) => () => {
    if (playing()) confirmPanel(title, question, yes, action);
    else action();
  };
  const menus = buildMenus([
    {
      label: 'Game',
      key: 'g',
      items: [
        {
          label: 'New local game...', key: 'n', enabled: localOnly,
          action: unlessPlaying('New local game', 'A game is in progress. Starting a new one leaves it. Go on?', 'Leave and start',
            () => newLocalGame(app.caps, startGame)),
        },
        {
          label: 'Join server...', key: 'j',
          action: unlessPlaying('Join server', 'A game is in progress. Joining another server leaves it. Go on?', 'Leave and join',
            () => joinServer(app.caps, startGame)),
        },
        {
          label: 'Resume game...', key: 'r', enabled: localOnly,
          action: unlessPlaying('Resume game', 'A game is in progress. Resuming another leaves it. Go on?', 'Leave and resume',
            () => resumeGame(app.caps, startGame)),
        },
        { label: 'Save', key: 's', enabled: seated, action: () => send({ type: 'save', filename: '' }) },
        { label: 'Save as...', key: 'a', enabled: seated, action: () => saveAs(send, app.state && app.state.connection.save_folder) },
        {
          label: 'Leave game', key: 'l', enabled: () => Boolean(app.state),
          action: unlessPlaying('Leave game', 'Leave the game in progress? The others go on without you.', 'Leave',
            () => send({ type: 'leave' })),
        },
      ],
    },
    {
      label: 'Show',
      key: 's',
      items: [
        { label: 'Scoring', key: 's', action: () => openPanel('scoring', 'Scoring', scoringBody(app.state)) },
        { label: 'Game info', key: 'g', action: () => openPanel('info', 'Game info', infoBody(app.state)) },
        { label: 'Messages', key: 'm', action: () => openPanel('messages', 'Messages', messagesBody(app.state, send)) },
      ],
    },
    {
      label: 'Options',
      key: 'o',
      items: [
        { label: 'Display options...', key: 'd', action: displayPrefs },
        { label: 'Playing preferences...', key: 'p', action: () => playingPrefs(app.state) },
        { label: 'Game option preferences...', key: 'o', action: () => gameOptionPrefs(app.state) },
        { label: 'Current game options...', key: 'c', enabled: seated, action: () => currentOptions(app.state, send) },
      ],
    },
    {
      label: 'Help',
      key: 'h',
      items: [{ label: 'Keys and mouse', key: 'k', action: () => openPanel('keys', 'Keys and mouse', keysBody()) }],
    },
  ]);
  wireHand();
  wireKeyboard(menus);
  document.querySelector('#start-failed button').addEventListener('click', () => failedStart(null));
  onPrefs(() => { applyTheme(); render(); });
  applyTheme();
  fitBoard();
  window.addEventListener('resize', () => { fitBoard(); render(); });
  connection.start();
}

start();
