// The replay viewer: a stored game hand by hand and move by move, forward and back, every hand shown.
// Frames come from the lobby (/api/games/ID/hands/N): after each public line, each player's tiles,
// and the wild indicator and wild tile where the game's rules turn one up. The winners' figures and the
// payments are read from the hand's lines up to the move shown, as a spectator's board reads them.
import { Scores, WIND_NAMES, figureRows, paymentRow, tileRow, wildLine } from './board.js';

const $ = (id) => document.getElementById(id);
const game = new URL(window.location.href).searchParams.get('game');
let hands = [];
let handIndex = 0;
let frames = [];
let frame = 0;

async function get(path) {
  const response = await fetch(path);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function meld(m) {
  return m.tiles.join('-') + (m.concealed ? ' (concealed)' : '');
}

function render() {
  const current = frames[frame];
  $('position').textContent = `hand ${hands[handIndex].number} of ${hands.length}, move ${frame + 1} of ${frames.length}`;
  $('slider').max = Math.max(0, frames.length - 1);
  $('slider').value = frame;
  $('line').textContent = current ? current.line : '';
  const wild = current ? current.wild : null;
  const wilds = current ? wildLine(current.indicator, wild) : null;
  $('wilds').replaceChildren(...(wilds ? [wilds] : []));
  const scores = new Scores();
  for (const shown of frames.slice(0, frame + 1)) scores.apply(shown.line);
  const players = current ? current.players : [];
  const winds = new Map(players.map((p) => [p.id, WIND_NAMES['ESWN'.indexOf(p.wind)] || p.wind]));
  $('board').replaceChildren(...players.map((p) => {
    const div = document.createElement('div');
    div.className = 'seat';
    div.dataset.player = p.id;
    const rows = [
      `${winds.get(p.id)} — ${p.name} — score ${p.score}${p.hand_score === null ? '' : `, hand score ${p.hand_score}`}`,
      `Hand: ${(p.hand || []).join(' ')}`,
      p.shown ? `Shown: ${p.shown.join(' ')}` : '',
      p.melds.length ? `Sets: ${p.melds.map(meld).join(' | ')}` : '',
      p.specials.length ? `Flowers: ${p.specials.join(' ')}` : '',
      `Discards: ${p.discards.join(' ')}`,
    ].filter(Boolean);
    div.append(tileRow(rows[0], wild), ...figureRows(scores, p.id));
    for (const text of rows.slice(1)) div.appendChild(tileRow(text, wild));
    return div;
  }));
  const payments = paymentRow(scores, (id) => winds.get(id) || `player ${id}`);
  if (payments) $('board').appendChild(payments);
}

async function showHand(index, atEnd = false) {
  handIndex = Math.max(0, Math.min(hands.length - 1, index));
  frames = (await get(`/api/games/${game}/hands/${hands[handIndex].number}`)).frames;
  frame = atEnd ? frames.length - 1 : 0;
  render();
}

function step(delta) {
  const next = frame + delta;
  if (next >= 0 && next < frames.length) { frame = next; render(); return; }
  if (next < 0 && handIndex > 0) showHand(handIndex - 1, true).catch(notice);
  else if (next >= frames.length && handIndex < hands.length - 1) showHand(handIndex + 1).catch(notice);
}

function notice(error) { $('notice').textContent = error.message; }

async function start() {
  $('game-id').textContent = game;
  const record = await get(`/api/games/${game}`);
  hands = record.hands;
  const names = record.players.map((p) => `${p.name}${p.score === null ? '' : ` ${p.score}`}`).join(', ');
  const counted = `${hands.length} hand${hands.length === 1 ? '' : 's'}`;
  $('summary').textContent = `${record.rules}, ${counted}${record.finished ? '' : ' so far'}: ${names}`;
  $('download-json').href = `/api/games/${game}?download=1`;
  $('download-log').href = `/api/games/${game}/log`;
  $('hands').replaceChildren(...hands.map((h, i) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = `${h.number}${h.winner ? '' : ' (wash-out)'}`;
    b.addEventListener('click', () => showHand(i).catch(notice));
    return b;
  }));
  $('prev').addEventListener('click', () => step(-1));
  $('next').addEventListener('click', () => step(1));
  $('prev-hand').addEventListener('click', () => showHand(handIndex - 1).catch(notice));
  $('next-hand').addEventListener('click', () => showHand(handIndex + 1).catch(notice));
  $('slider').addEventListener('input', () => { frame = Number($('slider').value); render(); });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowLeft') step(-1);
    else if (event.key === 'ArrowRight') step(1);
    else if (event.key === 'PageUp') showHand(handIndex - 1).catch(notice);
    else if (event.key === 'PageDown') showHand(handIndex + 1).catch(notice);
  });
  if (hands.length) await showHand(0);
  else $('notice').textContent = 'No hand of this game is in the record yet.';
}

start().catch(notice);
