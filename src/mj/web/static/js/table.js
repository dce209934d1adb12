// Drawing the table from a snapshot: four players around the edges (us at the bottom),
// their concealed and exposed sets, flowers and seasons with the tong box beside each
// player's own label, the discards in orderly rows in front of each player with the latest
// highlighted, the wall when there is room, and claim announcements.
//
// Every size on the board follows one variable, --S (the board's side), set here on resize;
// the style sheet derives tiles, labels and seat depth from it. Our own tiles are buttons
// kept from one drawing to the next (keyed by tile), so that the two clicks of a double
// click land on the same element.

import { WINDS, strokes } from './glyphs.js';
import { markTile, tileElement, tileName, tileSvg } from './tiles.js';

const WIND_NAMES = { E: 'East', S: 'South', W: 'West', N: 'North' };

/** Size the board to the space it has and put the side column beside it (below in a tall window). */
export function fitBoard() {
  const main = document.getElementById('main');
  const board = document.getElementById('board');
  const width = main.clientWidth;
  const height = main.clientHeight;
  const area = getComputedStyle(document.getElementById('table-area'));
  const pad = parseFloat(area.paddingLeft) + parseFloat(area.paddingRight);
  const wide = width >= height;
  // the side column (dialog, game info, messages) needs this much room beside or below the board
  const side = wide ? Math.max(200, Math.min(300, width * 0.24)) : Math.max(150, height * 0.3);
  const S = Math.max(240, Math.floor(wide ? Math.min(height - pad, width - side - pad) : Math.min(width - pad, height - side - pad)));
  main.classList.toggle('tall', !wide);
  board.style.setProperty('--S', `${S}px`);
  return S;
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

/** Our hand's buttons, updated in place: a tile keeps its element while it stays in the hand. */
function updateOwnRow(row, hand) {
  row.classList.add('concealed');
  row.setAttribute('role', 'listbox');
  row.setAttribute('aria-label', 'Your tiles');
  row.setAttribute('aria-orientation', 'horizontal');
  const spare = new Map(); // key -> button
  for (const button of row.querySelectorAll('button.tile.mine')) spare.set(button.dataset.key, button);
  const seen = {};
  const wanted = hand.order.map((code, index) => {
    seen[code] = (seen[code] || 0) + 1;
    const key = `${code}#${seen[code]}`;
    let button = spare.get(key);
    spare.delete(key);
    if (!button) {
      button = document.createElement('button');
      button.type = 'button';
      button.className = 'tile mine';
      button.innerHTML = tileSvg(code);
      button.dataset.tile = code;
      button.dataset.key = key;
      button.draggable = true;
      button.tabIndex = -1;
      button.setAttribute('aria-label', tileName(code));
    }
    button.dataset.index = String(index);
    button.setAttribute('aria-pressed', index === hand.selected ? 'true' : 'false');
    markTile(button, code);
    return button;
  });
  spare.forEach((button) => button.remove());
  // move only the buttons out of place (a moved element would lose a click in progress)
  wanted.forEach((button, i) => {
    if (row.children[i] !== button) row.insertBefore(button, row.children[i] || null);
  });
}

function otherRow(player) {
  const row = el('div', 'row concealed');
  if (player.shown) {
    player.shown.forEach((code) => row.appendChild(tileElement(code)));
  } else {
    for (let i = 0; i < player.concealed; i += 1) row.appendChild(tileElement('--'));
  }
  return row;
}

/** The seat element of a relative position, made once and kept. */
function seatHolder(rel) {
  const id = `seat-rel${rel}`;
  let seat = document.getElementById(id);
  if (!seat) {
    seat = el('div', `seat rel${rel}`);
    seat.id = id;
    document.getElementById('seats').appendChild(seat);
  }
  return seat;
}

function fillSeat(state, player, hand, tiletips) {
  const seat = seatHolder(player.rel);
  seat.dataset.player = String(player.id);
  seat.setAttribute('aria-label', `${player.name}, ${WIND_NAMES[player.wind]}`);
  const mine = player.id === state.me && !player.shown;
  let row = seat.querySelector(':scope > .row.concealed');
  if (mine) {
    if (!row || !row.classList.contains('own')) {
      if (row) row.remove();
      row = el('div', 'row concealed own');
      seat.prepend(row);
    }
    updateOwnRow(row, hand);
  } else {
    const fresh = otherRow(player);
    if (row) row.replaceWith(fresh);
    else seat.prepend(fresh);
  }
  const exposed = el('div', 'row exposed');
  // flowers, seasons and the tong box at the player's own left end, beside their label
  const specials = el('span', 'specials');
  specials.setAttribute('aria-label', `${player.name}'s flowers and seasons`);
  if (player.wind === 'E' && state.game.started) specials.appendChild(tongBox(state.game.round));
  player.specials.forEach((code) => specials.appendChild(tileElement(code, 'special')));
  const sets = el('span', 'sets');
  const hideKongs = state.game.phase === 'playing' || state.game.phase === 'declaring specials';
  player.melds.forEach((meld) => sets.appendChild(meldElement(meld, hideKongs && player.id !== state.me)));
  exposed.append(specials, sets);
  const old = seat.querySelector(':scope > .row.exposed');
  if (old) old.replaceWith(exposed);
  else seat.appendChild(exposed);
  seat.querySelectorAll('[data-tile]').forEach((node) => {
    if (tiletips) node.title = tileName(node.dataset.tile);
    else node.removeAttribute('title');
  });
}

function labelElement(state, player) {
  const turn = state.game.turn === player.id;
  const label = el('div', `label rel${player.rel}${player.wind === 'E' ? ' east' : ''}${turn ? ' turn' : ''}${player.id === state.me ? ' me' : ''}`);
  label.dataset.player = String(player.id);
  const wind = el('span', 'wind', player.wind);
  wind.title = `${WIND_NAMES[player.wind]} wind`;
  const top = el('span', 'top');
  top.append(wind, el('span', 'score', String(player.score)));
  label.append(top, el('span', 'name', player.name));
  const flags = [];
  if (turn) flags.push(player.id === state.me ? 'your turn' : 'to play');
  if (player.calling) flags.push('calling');
  if (player.dead) flags.push('cannot win');
  if (state.game.winner === player.id || (state.game.winners || []).includes(player.id)) flags.push(state.game.mahjong || 'Mah Jong!');
  if (state.game.paused && player.ready) flags.push('ready');
  // one line each, so that a narrow label wraps between them rather than cutting them off
  if (flags.length) {
    const shown = el('span', 'flags');
    shown.append(...flags.map((flag) => el('span', 'flag', flag)));
    label.appendChild(shown);
  }
  if (turn) label.setAttribute('aria-current', 'true');
  return label;
}

function discardsElement(state, player, tiletips) {
  const zone = el('div', `discards rel${player.rel}`);
  zone.setAttribute('aria-label', `${player.name}'s discards`);
  zone.dataset.player = String(player.id);
  const latest = state.last_discard;
  player.discards.forEach((code, index) => {
    const isLatest = latest && latest.player === player.id && latest.index === index;
    const tile = tileElement(code, isLatest ? 'latest' : '');
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
    parts += `<g transform="rotate(${angle} 50 50)">${row}${indicatorOn(wall, side, perSide, position, width)}</g>`;
  }
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.innerHTML = parts;
}

/** The wild indicator face up on the wall, just inside the stack at its tail (as the seed places it), on ``side``. */
function indicatorOn(wall, side, perSide, position, width) {
  if (!wall.indicator) return '';
  const tail = position(wall.size - 1 - wall.loose_drawn);
  if (Math.floor(tail / perSide) !== side) return '';
  const w = width - 0.5;
  const x = 13 + (tail % perSide) * width;
  return `<svg class="wall-indicator" x="${x.toFixed(2)}" y="${(85.5 - w * 4 / 3).toFixed(2)}" width="${w.toFixed(2)}" height="${(w * 4 / 3).toFixed(2)}" viewBox="0 0 60 80"><use href="#t-${wall.indicator}"/></svg>`;
}

function roundInfo(state) {
  const info = document.getElementById('round-info');
  const game = state.game;
  info.innerHTML = '';
  if (!game.started) {
    const waiting = 4 - (state.lobby.length + (state.me ? 1 : 0));
    info.append(el('div', 'big', 'Waiting for players'), el('div', '', waiting > 0 ? `${waiting} more to join` : ''));
    return;
  }
  info.append(el('div', 'big', `${WIND_NAMES[game.round]} round`));
  if (game.hand) info.append(el('div', 'hand-no', `Hand ${game.hand}`));
  if (state.wall.dealt && game.phase !== 'between hands') info.append(el('div', 'wall-count', `Wall: ${state.wall.live} tiles`));
  if (state.wall.indicator) info.append(wildIndicator(state.wall.indicator, state.wall.wild));
  if (game.washout) info.append(el('div', '', `Wash-out: ${game.washout}`));
  if (game.over) info.append(el('div', 'big', 'Game over'));
}

/** The wild indicator turned up from the wall (Beijing), and the wild tile it names, marked as every wild is. */
function wildIndicator(indicator, wild) {
  const box = el('div', 'wild-indicator');
  box.id = 'wild-indicator';
  box.dataset.tile = indicator;
  box.title = `The wild indicator is ${tileName(indicator)}${wild ? `: every ${tileName(wild)} is wild` : ''}`;
  box.append(el('span', 'caption', 'Indicator'), tileElement(indicator, 'indicator'));
  if (wild) box.append(el('span', 'caption', 'wild'), tileElement(wild, 'wild'));
  return box;
}

/** Redraw the table from ``state``; our hand's tiles keep their elements. */
export function renderTable(state, hand, prefs) {
  const board = document.getElementById('board');
  board.style.setProperty('--table', prefs.tableColour);
  const seats = document.getElementById('seats');
  const discards = document.getElementById('discards');
  const present = new Set(state.players.map((p) => `seat-rel${p.rel}`));
  [...seats.querySelectorAll('.seat')].forEach((seat) => { if (!present.has(seat.id)) seat.remove(); });
  seats.querySelectorAll('.label').forEach((label) => label.remove());
  discards.innerHTML = '';
  const me = state.players.find((p) => p.id === state.me);
  for (const player of state.players) {
    fillSeat(state, player, hand, prefs.tiletips);
    seats.appendChild(labelElement(state, player));
    discards.appendChild(discardsElement(state, player, prefs.tiletips));
  }
  // a hand with many discards gets smaller tiles rather than running out of its zone
  discards.querySelectorAll('.discards').forEach((zone) => {
    zone.classList.remove('dense');
    if (zone.scrollHeight > zone.clientHeight + 1 || zone.scrollWidth > zone.clientWidth + 1) zone.classList.add('dense');
  });
  const wallSvg = document.getElementById('wall');
  const side = board.clientWidth;
  const showWall = state.players.length === 4 && state.wall.dealt && state.game.phase !== 'between hands'
    && (prefs.showWall === 'always' || (prefs.showWall === 'when-room' && side >= 520));
  wallSvg.classList.toggle('hidden', !showWall);
  if (showWall) drawWall(wallSvg, state, me ? me.seat : 0);
  roundInfo(state);
}

/** Nothing to draw (not at a table). */
export function clearTable() {
  document.getElementById('seats').replaceChildren();
  document.getElementById('discards').replaceChildren();
}

/** A new hand began: take the announcements of every other hand off the table (``hand``'s own, made in
 * the same breath as its deal, stay). */
export function clearAnnouncements(hand) {
  document.querySelectorAll(`#announcements .announce:not([data-hand="${hand}"])`).forEach((bubble) => bubble.remove());
}

/** "Pung!" in big letters over the claimer for a couple of seconds: a newer one replaces it (robots
 * claim again sooner, and the older words, piled under, stuck out around the newer ones), and so does
 * the next hand (Ready pressed at once: the winner's "Mah Jong!" belongs to the hand it ended, hence ``hand``). */
export function announce(state, { player: playerId, text, hand }) {
  const player = state && state.players.find((p) => p.id === playerId);
  if (!player) return;
  const holder = document.getElementById('announcements');
  for (const older of holder.querySelectorAll(`.announce[data-player="${playerId}"]`)) older.remove();
  const bubble = el('div', `announce rel${player.rel}`, text);
  bubble.dataset.player = String(playerId);
  bubble.dataset.hand = String(hand);
  holder.appendChild(bubble);
  setTimeout(() => bubble.remove(), 2000);
}
