// The tiles: one SVG symbol per tile (built once into a hidden sprite), names, sort order.
//
// Every picture is made of shapes and stroked glyphs (glyphs.js), so the tiles need
// no font. A tile on the page is a small <svg> that uses its symbol.

import { CHINESE_NUMERALS, DIGITS, FA, LETTERS, WAN, WINDS, ZHONG, strokes } from './glyphs.js';

const BLUE = '#1f4fa0';
const RED = '#c0262d';
const GREEN = '#1d7a3a';
const INK = '#1b2a6b';

const SUIT_NAMES = { B: 'Bamboo', C: 'Character', D: 'Circle' };
const HONOUR_NAMES = {
  EW: 'East Wind', SW: 'South Wind', WW: 'West Wind', NW: 'North Wind',
  RD: 'Red Dragon', WD: 'White Dragon', GD: 'Green Dragon',
};
const SPECIAL_NAMES = {
  '1F': 'Plum (flower 1)', '2F': 'Orchid (flower 2)', '3F': 'Chrysanthemum (flower 3)', '4F': 'Bamboo (flower 4)',
  '1S': 'Spring (season 1)', '2S': 'Summer (season 2)', '3S': 'Autumn (season 3)', '4S': 'Winter (season 4)',
};
const HONOUR_ORDER = ['EW', 'SW', 'WW', 'NW', 'RD', 'WD', 'GD'];

/** The tile's name as a person says it ("3 Bamboo", "East Wind"). */
export function tileName(code) {
  if (!code || code === '--') return 'hidden tile';
  if (HONOUR_NAMES[code]) return HONOUR_NAMES[code];
  if (SPECIAL_NAMES[code]) return SPECIAL_NAMES[code];
  return `${code[0]} ${SUIT_NAMES[code[1]] || code}`;
}

/**
 * A text from the gateway as the page shows it, each tile it names in words ("7 Character", not "7C"):
 * ``parts`` is ``text`` cut at its tiles (text and tile codes in turn), empty or absent when it names none.
 */
export function namedText({ text, parts }) {
  return parts && parts.length ? parts.map((part, i) => (i % 2 ? tileName(part) : part)).join('') : text;
}

/** The original's sort order: bamboos, characters, circles, winds, dragons, flowers, seasons. */
export function tileValue(code) {
  const suit = { B: 10, C: 20, D: 30, F: 60, S: 70 }[code[1]];
  if (suit && /[1-9]/.test(code[0])) return suit + Number(code[0]);
  const honour = HONOUR_ORDER.indexOf(code);
  return honour >= 0 ? (honour < 4 ? 41 + honour : 51 + honour - 4) : 0;
}

export function isSpecial(code) {
  return code[1] === 'F' || code[1] === 'S';
}

// ------------------------------------------------------------------ pictures

function circle(cx, cy, r, colour) {
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#fff" stroke="${colour}" stroke-width="${(r / 3.2).toFixed(1)}"/>`
    + `<circle cx="${cx}" cy="${cy}" r="${(r * 0.42).toFixed(1)}" fill="${colour}"/>`;
}

const CIRCLES = {
  1: [[30, 38, 19, GREEN]],
  2: [[30, 21, 11, GREEN], [30, 55, 11, BLUE]],
  3: [[15, 15, 9, BLUE], [30, 38, 9, RED], [45, 61, 9, GREEN]],
  4: [[18, 24, 10, BLUE], [42, 24, 10, GREEN], [18, 52, 10, GREEN], [42, 52, 10, BLUE]],
  5: [[16, 17, 9, BLUE], [44, 17, 9, GREEN], [30, 38, 9, RED], [16, 59, 9, GREEN], [44, 59, 9, BLUE]],
  6: [[19, 15, 9, GREEN], [41, 15, 9, GREEN], [19, 39, 9, RED], [41, 39, 9, RED], [19, 61, 9, RED], [41, 61, 9, RED]],
  7: [[13, 11, 7, GREEN], [30, 19, 7, GREEN], [47, 27, 7, GREEN],
    [19, 46, 8, RED], [41, 46, 8, RED], [19, 63, 8, RED], [41, 63, 8, RED]],
  8: [[19, 11, 8, BLUE], [41, 11, 8, BLUE], [19, 30, 8, BLUE], [41, 30, 8, BLUE],
    [19, 48, 8, BLUE], [41, 48, 8, BLUE], [19, 66, 8, BLUE], [41, 66, 8, BLUE]],
  9: [[14, 16, 7.5, BLUE], [30, 16, 7.5, BLUE], [46, 16, 7.5, BLUE], [14, 38, 7.5, RED], [30, 38, 7.5, RED],
    [46, 38, 7.5, RED], [14, 60, 7.5, GREEN], [30, 60, 7.5, GREEN], [46, 60, 7.5, GREEN]],
};

function stick(cx, cy, length, colour, width = 7) {
  const x = cx - width / 2;
  const y = cy - length / 2;
  const node = (ny) => `<line x1="${x - 0.6}" y1="${ny}" x2="${x + width + 0.6}" y2="${ny}" stroke="${colour}" stroke-width="1.6"/>`;
  return `<rect x="${x}" y="${y}" width="${width}" height="${length}" rx="3" fill="${colour}" opacity="0.9"/>`
    + `<line x1="${cx}" y1="${y + 2}" x2="${cx}" y2="${y + length - 2}" stroke="#fff" stroke-width="1" opacity="0.6"/>`
    + node(y + 1) + node(cy) + node(y + length - 1);
}

const BAMBOOS = {
  2: [[30, 22, 22], [30, 54, 22]],
  3: [[30, 21, 22], [18, 55, 22], [42, 55, 22]],
  4: [[18, 22, 22], [42, 22, 22], [18, 54, 22], [42, 54, 22]],
  5: [[14, 22, 22], [46, 22, 22], [30, 38, 22, RED], [14, 54, 22], [46, 54, 22]],
  6: [[14, 22, 22], [30, 22, 22], [46, 22, 22], [14, 54, 22], [30, 54, 22], [46, 54, 22]],
  7: [[30, 13, 15, RED], [14, 37, 17], [30, 37, 17], [46, 37, 17], [14, 61, 17], [30, 61, 17], [46, 61, 17]],
  8: [[12, 22, 22], [24, 22, 22], [36, 22, 22], [48, 22, 22], [12, 54, 22], [24, 54, 22], [36, 54, 22], [48, 54, 22]],
  9: [[14, 15, 17], [30, 15, 17, RED], [46, 15, 17], [14, 38, 17], [30, 38, 17, RED], [46, 38, 17],
    [14, 61, 17], [30, 61, 17, RED], [46, 61, 17]],
};

const BIRD = '<ellipse cx="29" cy="42" rx="13" ry="10" fill="' + GREEN + '"/>'
  + '<circle cx="40" cy="27" r="6.5" fill="' + RED + '"/><circle cx="42" cy="26" r="1.4" fill="#fff"/>'
  + '<path d="M46 27 L53 29 L46 31 Z" fill="#d9a300"/>'
  + '<path d="M35 32 Q38 36 36 40" stroke="' + GREEN + '" stroke-width="5" fill="none"/>'
  + '<path d="M18 46 L6 62 M20 48 L12 68 M24 50 L22 70" stroke="' + BLUE + '" stroke-width="3" stroke-linecap="round"/>'
  + '<path d="M26 38 Q30 46 38 44" stroke="#9fd39c" stroke-width="2.5" fill="none"/>'
  + '<path d="M28 52 L26 62 M33 51 L34 62" stroke="' + RED + '" stroke-width="1.8"/>';

const FLOWER_COLOURS = { 1: '#d94d7a', 2: '#8e4fc2', 3: '#e0a100', 4: '#2f8f4e' };

function flower(n) {
  const colour = FLOWER_COLOURS[n];
  let petals = '';
  for (let i = 0; i < 5; i += 1) {
    const a = (i * 2 * Math.PI) / 5 - Math.PI / 2;
    petals += `<circle cx="${(32 + 8 * Math.cos(a)).toFixed(1)}" cy="${(32 + 8 * Math.sin(a)).toFixed(1)}" r="7" fill="${colour}"/>`;
  }
  return `<path d="M32 40 Q30 56 32 70" stroke="${GREEN}" stroke-width="2.5" fill="none"/>`
    + `<path d="M31 56 Q20 50 16 58 Q24 62 31 58 Z M33 62 Q44 54 48 62 Q40 66 33 64 Z" fill="${GREEN}"/>`
    + petals + '<circle cx="32" cy="32" r="4.5" fill="#f7d54a" stroke="#b07a00" stroke-width="1"/>'
    + strokes(DIGITS[n], 3, 3, 10, 13, RED, 2.2);
}

function season(n) {
  let picture = '';
  if (n === 1) { // spring: a sprout
    picture = `<path d="M32 70 L32 38" stroke="${GREEN}" stroke-width="3"/>`
      + `<path d="M32 46 Q16 42 14 26 Q30 28 32 46 Z M32 40 Q46 32 50 18 Q34 20 32 40 Z" fill="#58b04a"/>`
      + '<circle cx="32" cy="30" r="4" fill="#f2a1c0"/>';
  } else if (n === 2) { // summer: the sun
    for (let i = 0; i < 12; i += 1) {
      const a = (i * Math.PI) / 6;
      picture += `<line x1="${(32 + 15 * Math.cos(a)).toFixed(1)}" y1="${(40 + 15 * Math.sin(a)).toFixed(1)}" `
        + `x2="${(32 + 22 * Math.cos(a)).toFixed(1)}" y2="${(40 + 22 * Math.sin(a)).toFixed(1)}" stroke="#e36b00" stroke-width="3" stroke-linecap="round"/>`;
    }
    picture += '<circle cx="32" cy="40" r="12" fill="#f5a623" stroke="#e36b00" stroke-width="2"/>';
  } else if (n === 3) { // autumn: a maple leaf
    picture = '<path d="M32 18 L36 30 L46 24 L43 36 L54 38 L44 46 L48 56 L36 52 L33 66 L31 66 L28 52 L16 56 L20 46 L10 38 L21 36 L18 24 L28 30 Z" fill="#c4561b" stroke="#8a3410" stroke-width="1.2"/>'
      + '<path d="M32 66 L32 72" stroke="#8a3410" stroke-width="2"/>';
  } else { // winter: a snowflake
    for (let i = 0; i < 3; i += 1) {
      const a = (i * Math.PI) / 3;
      const dx = (20 * Math.cos(a)).toFixed(1);
      const dy = (20 * Math.sin(a)).toFixed(1);
      picture += `<line x1="${32 - dx}" y1="${40 - dy}" x2="${32 + Number(dx)}" y2="${40 + Number(dy)}" stroke="${BLUE}" stroke-width="3" stroke-linecap="round"/>`;
    }
    picture += `<circle cx="32" cy="40" r="5" fill="#fff" stroke="${BLUE}" stroke-width="2"/>`;
  }
  return picture + strokes(DIGITS[n], 3, 3, 10, 13, BLUE, 2.2);
}

function picture(code) {
  const n = Number(code[0]);
  if (HONOUR_NAMES[code]) return honour(code);
  switch (code[1]) {
    case 'D': return CIRCLES[n].map(([cx, cy, r, c]) => circle(cx, cy, r, c)).join('');
    case 'B': return n === 1 ? BIRD : BAMBOOS[n].map(([cx, cy, len, c]) => stick(cx, cy, len, c || GREEN, n === 8 ? 6 : 7)).join('');
    case 'C': return strokes(CHINESE_NUMERALS[n], 14, 6, 36, 28, INK, 3.4) + strokes(WAN, 12, 38, 36, 34, RED, 2.8)
      + strokes(DIGITS[n], 3, 3, 8, 11, INK, 1.8);
    case 'F': return flower(n);
    case 'S': return season(n);
    default: return '';
  }
}

function honour(code) {
  if (code[1] === 'W') {
    return strokes(WINDS[code[0]], 10, 14, 40, 50, INK, 3.6) + strokes(LETTERS[code[0]], 3, 3, 9, 11, RED, 2);
  }
  if (code === 'RD') return strokes(ZHONG, 10, 10, 40, 58, RED, 5);
  if (code === 'GD') return strokes(FA, 7, 10, 46, 58, GREEN, 3.6);
  if (code === 'WD') {
    return `<rect x="11" y="9" width="38" height="58" rx="3" fill="none" stroke="${BLUE}" stroke-width="3.5"/>`
      + `<rect x="17" y="15" width="26" height="46" rx="2" fill="none" stroke="${BLUE}" stroke-width="1.5"/>`;
  }
  return '';
}

const FACE = '<rect x="1" y="5" width="58" height="74" rx="7" fill="#c9b47a"/>'
  + '<rect x="1" y="1" width="58" height="74" rx="7" fill="#fbf7e9" stroke="#b3a578" stroke-width="1"/>';
const BACK = '<rect x="1" y="5" width="58" height="74" rx="7" fill="#1d4a3c"/>'
  + '<rect x="1" y="1" width="58" height="74" rx="7" fill="#2f7a62" stroke="#1d4a3c" stroke-width="1"/>'
  + '<rect x="7" y="7" width="46" height="62" rx="4" fill="none" stroke="#5fae90" stroke-width="1.5"/>';

export const ALL_TILES = [
  ...['B', 'C', 'D'].flatMap((s) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `${n}${s}`)),
  ...HONOUR_ORDER,
  ...['F', 'S'].flatMap((s) => [1, 2, 3, 4].map((n) => `${n}${s}`)),
];

/** Put the hidden sprite with every tile's symbol into the page (once). */
export function installSprite() {
  if (document.getElementById('tile-sprite')) return;
  const symbols = ALL_TILES.map((code) => `<symbol id="t-${code}" viewBox="0 0 60 80">${FACE}<g transform="translate(0,0)">${picture(code)}</g></symbol>`);
  symbols.push(`<symbol id="t-back" viewBox="0 0 60 80">${BACK}</symbol>`);
  const holder = document.createElement('div');
  holder.innerHTML = `<svg id="tile-sprite" xmlns="http://www.w3.org/2000/svg" style="position:absolute;width:0;height:0" aria-hidden="true"><defs>${symbols.join('')}</defs></svg>`;
  document.body.prepend(holder.firstChild);
}

/** A tile picture: ``code`` face up, or the back for '--' / null. */
export function tileSvg(code) {
  const id = code && code !== '--' ? code : 'back';
  return `<svg viewBox="0 0 60 80" aria-hidden="true"><use href="#t-${id}"/></svg>`;
}

// Marks a rule system puts on every tile of a code (wild tiles), from the latest snapshot.
let marks = {};

/** Take the snapshot's marks: {code: [mark names]}. */
export function setMarks(value) {
  marks = value && typeof value === 'object' ? value : {};
}

/** Show ``code``'s marks (if any) on a tile element: a badge in its corner, named for screen readers. */
export function markTile(el, code) {
  const names = (code && marks[code]) || [];
  el.classList.toggle('marked', names.length > 0);
  if (names.length) {
    el.dataset.marks = names.join(' ');
    el.setAttribute('aria-description', names.join(', '));
  } else {
    delete el.dataset.marks;
    el.removeAttribute('aria-description');
  }
}

/** An element showing one tile (not interactive); ``extra`` adds classes. */
export function tileElement(code, extra = '') {
  const el = document.createElement('span');
  el.className = `tile ${extra}`.trim();
  el.innerHTML = tileSvg(code);
  markTile(el, code);
  if (code && code !== '--') {
    el.setAttribute('role', 'img');
    el.setAttribute('aria-label', tileName(code));
    el.dataset.tile = code;
  } else {
    el.classList.add('back');
  }
  return el;
}
