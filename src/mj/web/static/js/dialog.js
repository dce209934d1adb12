// The action dialog: the buttons the server offers (any list: the manual's, or another rule
// system's), with their names and underlined letters, the default button, the tile being
// claimed, the claim timeout's progress bar, and a line saying what to do. Pressing a button
// sends the server's own button id (and the selected tile); the browser never decides what
// is legal: a button that takes a tile lists the tiles it takes.
//
// Where the dialog sits is the player's choice (Display options): beside the table (the
// default: it covers nothing), in the middle of the table, or floating where it was dragged.

import { namedText, tileElement, tileName } from './tiles.js';

const WIND_NAMES = { E: 'East', S: 'South', W: 'West', N: 'North' };
// Buttons shown only when they can be used (the manual: "only shown when calling is allowed"), or
// when the server says why they cannot be (Calling on a first discard that leaves no ready hand).
const HIDDEN_WHEN_DISABLED = new Set(['calling', 'declare']);

/** The dialog's message line: why the last press did nothing. */
function whyLine(text) {
  const line = document.createElement('div');
  line.className = 'why';
  line.setAttribute('role', 'status');
  line.textContent = text;
  return line;
}

function labelWithKey(label, key) {
  const at = label.toLowerCase().indexOf(key);
  const span = document.createElement('span');
  if (at < 0) {
    span.textContent = label;
    return span;
  }
  const u = document.createElement('u');
  u.textContent = label.slice(at, at + 1);
  span.append(label.slice(0, at), u, label.slice(at + 1));
  return span;
}

export class ActionDialog {
  constructor(send, hand, prefs) {
    this.send = send;
    this.hand = hand;
    this.prefs = prefs;
    this.holder = document.getElementById('dialog-holder');
    this.state = null;
    this.pressedFor = null; // the dialog number we answered: hidden until the next one
    this.autoFor = null;
    this.timer = null;
    this.offline = null; // why nothing can be pressed now (the connection is down), else null
    this.held = null; // why nothing can be pressed while a new game starts (the game in hand waits), else null
    this.said = null; // why the last press did nothing: { number, text } of the dialog it was said in
    this.onShow = null; // called with each new dialog put on screen (the turn sound)
    this.local = () => false; // whether Game ▸ New local game is offered (said at the end of the game)
    this.shownFor = null;
  }

  /** The dialog now on screen (null when hidden or answered). */
  current() {
    const dialog = this.state && this.state.dialog;
    return dialog && dialog.number !== this.pressedFor ? dialog : null;
  }

  /** Our answer was refused (by the gateway or the server): show the dialog again. */
  refused() {
    this.pressedFor = null;
    if (this.state) this.render(this.state);
  }

  /** Why no button can be pressed now (a new game starting, the connection down), else null. */
  blocked() {
    return this.held || this.offline;
  }

  /** Whether ``button`` can be pressed now (with the selected tile, if it takes one). */
  enabled(button, code = this.hand.selectedCode()) {
    if (!button.enabled || this.blocked()) return false;
    if (button.tiles === null) return true;
    return button.tiles.includes(code);
  }

  /** The button Enter presses: the default if it can be, else the one that takes the selected tile. */
  effectiveDefault(dialog) {
    const byId = (id) => dialog.buttons.find((b) => b.id === id);
    const preferred = byId(dialog.default);
    if (preferred && this.enabled(preferred)) return preferred;
    const code = this.hand.selectedCode();
    const takesIt = dialog.buttons.find((b) => b.tiles !== null && this.enabled(b, code));
    if (takesIt) return takesIt;
    return preferred && preferred.enabled ? preferred : null;
  }

  press(buttonId, tile = undefined) {
    const dialog = this.current();
    if (!dialog || this.refusedOffline()) return false;
    const button = dialog.buttons.find((b) => b.id === buttonId);
    if (!button) return false;
    const chosen = tile !== undefined ? tile : (button.tiles === null ? null : this.hand.selectedCode());
    if (!button.enabled || (button.tiles !== null && !button.tiles.includes(chosen))) return false;
    this.send({ type: 'act', button: buttonId, tile: chosen, dialog: dialog.number });
    this.pressedFor = dialog.number;
    this.holder.replaceChildren();
    return true;
  }

  /**
   * Enter: press the button that fits the selection. With no usable tile selected, the tile the
   * server suggests is selected instead (a second Enter then presses), so Enter never does nothing.
   */
  pressDefault() {
    const dialog = this.current();
    if (!dialog || this.refusedOffline()) return false;
    const button = this.effectiveDefault(dialog);
    if (button && this.enabled(button)) return this.press(button.id);
    const wanted = button || dialog.buttons.find((b) => b.id === dialog.default);
    if (wanted && wanted.tiles !== null && wanted.tiles.length) {
      this.hand.selectCode(wanted.tiles.includes(dialog.select) ? dialog.select : wanted.tiles[wanted.tiles.length - 1]);
      return 'selected';
    }
    return false;
  }

  /** A double click on one of our tiles: the button that takes it, the default first (Discard in our turn). */
  pressTile(code) {
    const dialog = this.current();
    if (!dialog || this.refusedOffline()) return false;
    if ((dialog.guarded || []).includes(code)) {
      const button = this.effectiveDefault(dialog);
      this.explain(`A double click does not throw away ${tileName(code)}: to do so all the same, press ${button ? button.label : 'the button'}.`);
      return false;
    }
    const preferred = dialog.buttons.find((b) => b.id === dialog.default);
    const button = preferred && preferred.tiles !== null && this.enabled(preferred, code)
      ? preferred : dialog.buttons.find((b) => b.tiles !== null && this.enabled(b, code));
    if (button) return this.press(button.id, code);
    const takers = dialog.buttons.filter((b) => b.tiles !== null && b.enabled);
    const reason = takers.map((b) => b.reason).find(Boolean);
    this.explain(takers.length
      ? `${tileName(code)} cannot be used for any of these${reason ? ` (${reason})` : ''}`
      : 'No tile is used here: answer with the buttons');
    return false;
  }

  /** While disconnected or starting a new game: say so on the dialog's message line (and press nothing). */
  refusedOffline() {
    const why = this.blocked();
    if (why) this.explain(why);
    return Boolean(why);
  }

  /** An underlined letter typed: the button it belongs to; one that cannot be pressed says why. */
  pressKey(letter) {
    const dialog = this.current();
    if (!dialog) return false;
    const button = dialog.buttons.find((b) => b.key === letter.toLowerCase() && this.shown(b));
    if (!button) return false;
    if (this.enabled(button)) return this.press(button.id);
    this.explain(this.why(button));
    return true;
  }

  /** Whether ``spec`` is drawn (Calling and Declare only when they can be used or say why not). */
  shown(spec) {
    return !(HIDDEN_WHEN_DISABLED.has(spec.id) && !spec.enabled && !spec.reason);
  }

  /** Say ``text`` on the dialog's message line (a button that cannot be pressed, a tile no button takes). */
  explain(text) {
    const dialog = this.current();
    if (!dialog) return;
    this.said = { number: dialog.number, text };
    const box = this.holder.querySelector('.action');
    if (!box) return;
    const line = box.querySelector('.why');
    if (line) line.textContent = text;
    else box.querySelector('.buttons').after(whyLine(text));
  }

  render(state) {
    this.state = state;
    clearInterval(this.timer);
    const dialog = this.current();
    if (!dialog && state.game && state.game.over && state.players && state.players.length) {
      this.holder.replaceChildren(this.result(state));
      return;
    }
    // (nothing is answered by itself while held: the preferences answer once the game in hand is back)
    if (!dialog || (!this.held && this.automatic(dialog))) {
      this.holder.replaceChildren();
      return;
    }
    const box = document.createElement('div');
    box.className = 'action';
    box.setAttribute('role', 'dialog');
    box.setAttribute('aria-label', dialog.title);
    box.dataset.kind = dialog.kind;
    const title = document.createElement('h2');
    title.textContent = dialog.title;
    box.appendChild(title);
    const about = this.about(state, dialog);
    if (about) box.appendChild(about);
    if (dialog.text) {
      const text = document.createElement('div');
      text.className = 'text';
      text.textContent = namedText(dialog);
      box.appendChild(text);
    }
    if (dialog.timeout > 0) box.appendChild(this.progress(dialog));
    const instruction = this.instruction(dialog);
    if (instruction) box.appendChild(instruction);
    const buttons = document.createElement('div');
    buttons.className = 'buttons';
    const outlined = this.effectiveDefault(dialog);
    const code = this.hand.selectedCode();
    for (const spec of dialog.buttons) {
      if (!this.shown(spec)) continue;
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.id = spec.id;
      button.appendChild(labelWithKey(spec.label, spec.key));
      if (spec.shows.length) {
        const shows = document.createElement('span');
        shows.className = 'shows';
        spec.shows.forEach((shown) => shows.appendChild(tileElement(shown)));
        button.appendChild(shows);
      }
      button.setAttribute('aria-keyshortcuts', spec.key.toUpperCase());
      if (outlined && spec.id === outlined.id) button.classList.add('default');
      button.disabled = !this.enabled(spec);
      if (button.disabled) button.title = this.why(spec, code);
      button.addEventListener('click', () => this.press(spec.id));
      // a disabled button gets no click, but the pointer's events still reach it
      button.addEventListener('pointerup', () => { if (button.disabled) this.explain(button.title); });
      buttons.appendChild(button);
    }
    box.appendChild(buttons);
    if (this.said && this.said.number === dialog.number) box.appendChild(whyLine(this.said.text));
    if (state.wall.dealt && document.getElementById('wall').classList.contains('hidden') && state.game.phase === 'playing') {
      const left = document.createElement('div');
      left.className = 'wall-left';
      left.textContent = `Live wall: ${state.wall.live} tiles`;
      box.appendChild(left);
    }
    this.holder.replaceChildren(box);
    if (this.shownFor !== dialog.number) {
      this.shownFor = dialog.number;
      if (this.onShow) this.onShow(dialog);
    }
  }

  /** Why ``spec`` cannot be pressed now (with the tile ``code`` selected): the server's reason, else the tile's. */
  why(spec, code = this.hand.selectedCode()) {
    if (this.blocked()) return this.blocked();
    if (!spec.enabled) return spec.reason ? `${spec.label}: ${spec.reason}` : `${spec.label} is not possible now`;
    if (!code) return 'Select a tile first';
    return `Not with ${tileName(code)}: ${spec.reason || 'select another tile'}`;
  }

  /** At the end of the game, where the dialog was: the final scores, best first, and how to play again. */
  result(state) {
    const box = document.createElement('div');
    box.className = 'action result';
    box.setAttribute('role', 'dialog');
    box.setAttribute('aria-label', 'Game over');
    box.dataset.kind = 'gameover';
    const title = document.createElement('h2');
    title.textContent = 'Game over';
    const ranked = [...state.players].sort((a, b) => b.score - a.score);
    const best = ranked.filter((p) => p.score === ranked[0].score);
    const who = (p) => (p.id === state.me ? `${p.name} (you)` : p.name);
    const verdict = document.createElement('div');
    verdict.className = 'text';
    verdict.textContent = best.length === 1 ? `${who(best[0])} wins.` : `${best.map(who).join(' and ')} share first place.`;
    const table = document.createElement('ol');
    table.className = 'ranking';
    for (const p of ranked) {
      const row = document.createElement('li');
      row.dataset.player = String(p.id);
      if (p.id === state.me) row.className = 'me';
      const name = document.createElement('span');
      name.textContent = `${who(p)}, ${WIND_NAMES[p.wind]}`;
      const score = document.createElement('span');
      score.className = 'score';
      score.textContent = String(p.score);
      row.append(name, score);
      table.appendChild(row);
    }
    const next = document.createElement('div');
    next.className = 'instruction';
    next.textContent = this.local() ? 'Game ▸ New local game starts another.' : 'Game ▸ Join server to play another.';
    box.append(title, verdict, table, next);
    return box;
  }

  /** "Select a tile and:" when a button takes a tile, and why the selected one fits none. */
  instruction(dialog) {
    const tileButtons = dialog.buttons.filter((b) => b.tiles !== null && b.enabled);
    if (!tileButtons.length) return null;
    const line = document.createElement('div');
    line.className = 'instruction';
    const code = this.hand.selectedCode();
    if (code && !tileButtons.some((b) => b.tiles.includes(code))) {
      line.classList.add('warn');
      const reason = tileButtons.map((b) => b.reason).find(Boolean);
      line.textContent = `${tileName(code)} cannot be used for any of these${reason ? ` (${reason})` : ''}: select another tile and:`;
    } else {
      line.textContent = dialog.kind === 'turn' ? 'Select a tile and: (or double-click it to discard)' : 'Select a tile and:';
    }
    return line;
  }

  about(state, dialog) {
    if (!dialog.tile) return null;
    const div = document.createElement('div');
    div.className = 'about';
    div.appendChild(tileElement(dialog.tile));
    const who = state.players.find((p) => p.id === dialog.player);
    const name = who ? `${who.name} (${WIND_NAMES[who.wind]})` : '';
    const text = document.createElement('div');
    const tile = tileName(dialog.tile);
    if (dialog.kind === 'claim') text.textContent = `${name} discards ${tile}`;
    else if (dialog.kind === 'rob') text.textContent = `${name} makes a ${dialog.set_name} of ${tile}: rob it?`;
    else if (dialog.kind === 'chowpos') text.textContent = `Chow with ${tile}`;
    else if (dialog.kind === 'winner') text.textContent = `Your winning tile: ${tile}`;
    else text.textContent = name ? `${tile} (${name})` : tile;
    div.appendChild(text);
    return div;
  }

  progress(dialog) {
    const bar = document.createElement('div');
    bar.className = 'progress';
    bar.setAttribute('role', 'progressbar');
    bar.setAttribute('aria-label', 'Time left to claim');
    const fill = document.createElement('div');
    bar.appendChild(fill);
    const ends = performance.now() + dialog.remaining * 1000;
    const update = () => {
      const left = Math.max(0, ends - performance.now()) / 1000;
      fill.style.width = `${(100 * left) / dialog.timeout}%`;
      bar.setAttribute('aria-valuenow', String(Math.round(left)));
      if (left <= 0) clearInterval(this.timer);
    };
    update();
    this.timer = setInterval(update, 100);
    return bar;
  }

  /** What the playing preferences let the client do by itself; true when it did. */
  automatic(dialog) {
    if (this.autoFor === dialog.number) return false;
    const prefs = this.prefs();
    const button = (id) => dialog.buttons.find((b) => b.id === id && b.enabled);
    let done = false;
    const declare = button('declare');
    if (prefs.autoFlowers && declare && (dialog.kind === 'declaring' || dialog.kind === 'turn')) {
      done = this.press('declare', declare.tiles[declare.tiles.length - 1]);
    } else if (prefs.autoFlowers && dialog.kind === 'declaring' && !button('kong')) {
      done = this.press('finish');
    } else if (prefs.autoPass && dialog.kind === 'claim' && dialog.buttons.every((b) => b.id === dialog.default || !b.enabled)) {
      done = this.press(dialog.default); // No claim, or a rule system's [Pass] / [Draw]
    } else if ((prefs.autoLosing && dialog.kind === 'loser') || (prefs.autoWinning && dialog.kind === 'winner')) {
      const chosen = button(dialog.default);
      done = Boolean(chosen) && this.press(dialog.default, chosen.tiles === null ? null : dialog.select);
    }
    this.autoFor = dialog.number;
    return done;
  }
}

/** Where the dialog sits: ``place`` is "side", "centre" or "float" (dragged by its title, remembered). */
export function placeDialog(place, floatAt, onMoved) {
  const holder = document.getElementById('dialog-holder');
  const dock = document.getElementById(place === 'centre' ? 'centre-dock' : place === 'float' ? 'float-dock' : 'side-dock');
  if (holder.parentElement !== dock) dock.appendChild(holder);
  const float = document.getElementById('float-dock');
  if (place !== 'float') return;
  // until dragged, it floats over the side column's top, clear of the table
  const side = document.getElementById('sidebar').getBoundingClientRect();
  const at = floatAt || { x: side.left + 8, y: side.top + 8 };
  const clamp = (v, max) => Math.max(0, Math.min(v, max));
  float.style.left = `${clamp(at.x, window.innerWidth - 120)}px`;
  float.style.top = `${clamp(at.y, window.innerHeight - 60)}px`;
  if (float.dataset.draggable) return;
  float.dataset.draggable = 'yes';
  float.addEventListener('pointerdown', (event) => {
    if (!event.target.closest('h2')) return;
    event.preventDefault();
    const start = { x: event.clientX, y: event.clientY, left: float.offsetLeft, top: float.offsetTop };
    const move = (e) => {
      float.style.left = `${clamp(start.left + e.clientX - start.x, window.innerWidth - 120)}px`;
      float.style.top = `${clamp(start.top + e.clientY - start.y, window.innerHeight - 60)}px`;
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      onMoved({ x: float.offsetLeft, y: float.offsetTop });
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  });
}
