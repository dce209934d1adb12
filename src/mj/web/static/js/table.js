// Drawing the table from a snapshot: four players around the edges (us at the bottom),
// their concealed and exposed sets, flowers and seasons, the tong box, the discards in the
// middle with the latest highlighted, the wall when there is room, and claim announcements.

import { WINDS, strokes } from './glyphs.js';
import { tileElement, tileName, tileSvg } from './tiles.js';

const WIND_NAMES = { E: 'East', S: 'South', W: 'West', N: 'North' };

/** Size the square board to the space it has: --S is its side, --tw a tile's width. */
export function fitBoard() {
  const area = document.getElementById('table-area');
  const board = document.getElementById('board');
  const side = Math.max(320, Math.floor(Math.min(area.clientWidth, area.clientHeight) - 24));
  board.style.setProperty('--S', `${side}px`);
  board.style.setProperty('--tw', `${(side / 27.5).toFixed(2)}px`);
  return side;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function tongBox(round) {
  const box = el('span', 'tong');
  box.setAttribute('role', 'img');
  box.setAttribute('aria-label', `tong box: ${WIND_NAMES[round]} round`);
  box.innerHTML = '<svg viewBox="0 0 40 40" aria-hidden="true"><rect x="1" y="1" width="38" height="38" rx="5" fill="#8e1b1f" stroke="#4a0c0e" stroke-width="2"/>'
    + `<circle cx="20" cy="20" r="14" fill="#fff"/>${strokes(WINDS[round], 10, 10, 20, 20, '#1b2a6b', 2.2)}</svg>`;
  return box;
}

function meldElement(meld, hideConcealedKong) {
  const set = el('span', `set ${meld.kind}`);
  set.setAttribute('aria-label', `${meld.concealed ? 'concealed' : 'exposed'} ${meld.kind}: ${meld.tiles.map(tileName).join(', ')}`);
  meld.tiles.forEach((code, i) => {
    const hidden = hideConcealedKong && meld.kind === 'kong' && meld.kong === 'concealed' && (i === 0 || i === 3);
    set.appendChild(tileElement(hidden ? '--' : code));
  });
  return set;
}

function handRow(player, hand, interactive) {
  const row = el('div', 'row concealed');
  if (interactive) {
    row.setAttribute('role', 'listbox');
    row.setAttribute('aria-label', 'Your tiles');
    row.setAttribute('aria-orientation', 'horizontal');
    hand.order.forEach((code, index) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'tile mine';
      button.innerHTML = tileSvg(code);
      button.dataset.index = String(index);
      button.dataset.tile = code;
      button.draggable = true;
      button.setAttribute('aria-label', tileName(code));
      button.setAttribute('aria-pressed', index === hand.selected ? 'true' : 'false');
      button.tabIndex = -1;
      row.appendChild(button);
    });
    return row;
  }
  if (player.shown) {
    player.shown.forEach((code) => row.appendChild(tileElement(code)));
  } else {
    for (let i = 0; i < player.concealed; i += 1) row.appendChild(tileElement('--'));
  }
  return row;
}

function seatElement(state, player, hand, tiletips) {
  const seat = el('div', `seat rel${player.rel}`);
  seat.dataset.player = String(player.id);
  seat.setAttribute('aria-label', `${player.name}, ${WIND_NAMES[player.wind]}`);
  const mine = player.id === state.me;
  seat.appendChild(handRow(player, hand, mine && !player.shown));
  const exposed = el('div', 'row exposed');
  const sets = el('span', 'sets');
  const hideKongs = state.game.phase === 'playing' || state.game.phase === 'declaring specials';
  player.melds.forEach((meld) => sets.appendChild(meldElement(meld, hideKongs && !mine)));
  const specials = el('span', 'specials');
  player.specials.forEach((code) => specials.appendChild(tileElement(code, 'small')));
  if (player.wind === 'E') specials.appendChild(tongBox(state.game.round));
  exposed.append(sets, specials);
  seat.appendChild(exposed);
  if (tiletips) {
    seat.querySelectorAll('[data-tile]').forEach((node) => { node.title = tileName(node.dataset.tile); });
  }
  return seat;
}

function labelElement(state, player, turn) {
  const label = el('div', `label rel${player.rel}${player.wind === 'E' ? ' east' : ''}${turn ? ' turn' : ''}`);
  label.dataset.player = String(player.id);
  const wind = el('span', 'wind', player.wind);
  wind.title = `${WIND_NAMES[player.wind]} wind`;
  label.append(wind, el('span', 'name', player.name), el('span', 'score', String(player.score)));
  const flags = [];
  if (player.calling) flags.push('calling');
  if (state.game.winner === player.id) flags.push('Mah Jong!');
  if (state.game.paused && player.ready) flags.push('ready');
  if (flags.length) label.appendChild(el('span', 'flag', flags.join(' · ')));
  return label;
}

function discardsElement(state, player, tiletips) {
  const zone = el('div', `discards rel${player.rel}`);
  zone.setAttribute('aria-label', `${player.name}'s discards`);
  const latest = state.last_discard;
  player.discards.forEach((code, index) => {
    const isLatest = latest && latest.player === player.id && latest.index === index;
    const tile = tileElement(code, `small${isLatest ? ' latest' : ''}`);
    if (tiletips) tile.title = tileName(code);
    zone.appendChild(tile);
  });
  return zone;
}

/** The wall as a ring of stacks: live tiles light, the dead wall tinted, drawn tiles gone. */
function drawWall(svg, state, mySeat) {
  const wall = state.wall;
  const perSide = wall.size / 8;
  const stacks = new Array(perSide * 4).fill(2);
  const dead = new Array(perSide * 4).fill(false);
  const base = ((wall.start_wall % 4) * perSide + Math.min(wall.start_stack, perSide - 1)) * 2;
  const position = (i) => Math.floor((((base + i) % wall.size) + wall.size) % wall.size / 2);
  for (let i = 0; i < wall.live_drawn; i += 1) stacks[position(i)] -= 1;
  for (let j = 0; j < wall.loose_drawn; j += 1) stacks[position(-1 - j)] -= 1;
  const liveEnd = wall.live_drawn + wall.live;
  for (let i = liveEnd; i < wall.size - wall.loose_drawn; i += 1) dead[position(i)] = true;
  const width = 74 / perSide;
  let parts = '';
  for (let side = 0; side < 4; side += 1) {
    const rel = (side - mySeat + 4) % 4;
    const angle = [0, -90, 180, 90][rel];
    let row = '';
    for (let k = 0; k < perSide; k += 1) {
      const s = side * perSide + k;
      const count = stacks[s];
      if (count <= 0) continue;
      const x = 13 + k * width;
      const fill = dead[s] ? '#e7c3a6' : '#f3ead0';
      const y = count === 2 ? 86 : 88;
      row += `<rect x="${x.toFixed(2)}" y="${y}" width="${(width - 0.5).toFixed(2)}" height="${count === 2 ? 8 : 6}" rx="0.8" fill="${fill}" stroke="#6d6247" stroke-width="0.3"/>`;
    }
    parts += `<g transform="rotate(${angle} 50 50)">${row}</g>`;
  }
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.innerHTML = parts;
}

function roundInfo(state) {
  const info = document.getElementById('round-info');
  const game = state.game;
  if (!game.started) {
    const waiting = 4 - (state.lobby.length + (state.me ? 1 : 0));
    info.innerHTML = '';
    info.append(el('div', 'big', 'Waiting for players'), el('div', '', waiting > 0 ? `${waiting} more to join` : ''));
    return;
  }
  info.innerHTML = '';
  info.append(el('div', 'big', `${WIND_NAMES[game.round]} round`));
  if (game.hand) info.append(el('div', '', `Hand ${game.hand}`));
  if (state.wall.dealt && game.phase !== 'between hands') info.append(el('div', '', `Wall: ${state.wall.live} tiles`));
  if (game.washout) info.append(el('div', '', `Wash-out: ${game.washout}`));
  if (game.over) info.append(el('div', 'big', 'Game over'));
}

/** Redraw the whole table from ``state``. */
export function renderTable(state, hand, prefs) {
  const board = document.getElementById('board');
  board.style.setProperty('--table', prefs.tableColour);
  const seats = document.getElementById('seats');
  const discards = document.getElementById('discards');
  seats.innerHTML = '';
  discards.innerHTML = '';
  const me = state.players.find((p) => p.id === state.me);
  const turn = state.dialog ? state.me : null;
  for (const player of state.players) {
    seats.appendChild(seatElement(state, player, hand, prefs.tiletips));
    seats.appendChild(labelElement(state, player, player.id === turn));
    discards.appendChild(discardsElement(state, player, prefs.tiletips));
  }
  const wallSvg = document.getElementById('wall');
  const side = board.clientWidth;
  const showWall = state.players.length === 4 && state.wall.dealt && state.game.phase !== 'between hands'
    && (prefs.showWall === 'always' || (prefs.showWall === 'when-room' && side >= 520));
  wallSvg.classList.toggle('hidden', !showWall);
  if (showWall) drawWall(wallSvg, state, me ? me.seat : 0);
  roundInfo(state);
}

/** "Pung!" in big letters over the claimer for a couple of seconds. */
export function announce(state, playerId, text) {
  const player = state && state.players.find((p) => p.id === playerId);
  if (!player) return;
  const holder = document.getElementById('announcements');
  const bubble = el('div', `announce rel${player.rel}`, text);
  bubble.dataset.player = String(playerId);
  holder.appendChild(bubble);
  setTimeout(() => bubble.remove(), 2000);
}
