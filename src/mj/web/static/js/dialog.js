// The action dialog in the middle of the board: the buttons the server offers, with the
// manual's names and underlined letters, the default ("shadowed") button, the tile being
// claimed and the claim timeout's progress bar. Pressing a button sends the server's own
// button id (and the selected tile); the browser never decides what is legal.

import { tileElement, tileName } from './tiles.js';

const WIND_NAMES = { E: 'East', S: 'South', W: 'West', N: 'North' };
// Buttons shown only when they can be used (the manual: "only shown when calling is allowed").
const HIDDEN_WHEN_DISABLED = new Set(['calling', 'declare']);

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

  enabled(button) {
    if (!button.enabled) return false;
    if (button.tiles === null) return true;
    return button.tiles.includes(this.hand.selectedCode());
  }

  press(buttonId, tile = undefined) {
    const dialog = this.current();
    if (!dialog) return false;
    const button = dialog.buttons.find((b) => b.id === buttonId);
    if (!button) return false;
    const chosen = tile !== undefined ? tile : (button.tiles === null ? null : this.hand.selectedCode());
    if (!button.enabled || (button.tiles !== null && !button.tiles.includes(chosen))) return false;
    this.send({ type: 'act', button: buttonId, tile: chosen, dialog: dialog.number });
    this.pressedFor = dialog.number;
    this.holder.innerHTML = '';
    return true;
  }

  pressDefault() {
    const dialog = this.current();
    return Boolean(dialog && dialog.default && this.press(dialog.default));
  }

  /** An underlined letter typed: the button it belongs to. */
  pressKey(letter) {
    const dialog = this.current();
    if (!dialog) return false;
    const button = dialog.buttons.find((b) => b.key === letter.toLowerCase() && this.enabled(b));
    return Boolean(button && this.press(button.id));
  }

  render(state) {
    this.state = state;
    clearInterval(this.timer);
    this.holder.innerHTML = '';
    const dialog = this.current();
    if (!dialog) return;
    if (this.automatic(dialog)) return;
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
      text.textContent = dialog.text;
      box.appendChild(text);
    }
    if (dialog.timeout > 0) box.appendChild(this.progress(dialog));
    const buttons = document.createElement('div');
    buttons.className = 'buttons';
    for (const spec of dialog.buttons) {
      if (HIDDEN_WHEN_DISABLED.has(spec.id) && !spec.enabled) continue;
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.id = spec.id;
      button.appendChild(labelWithKey(spec.label, spec.key));
      if (spec.shows.length) {
        const shows = document.createElement('span');
        shows.className = 'shows';
        spec.shows.forEach((code) => shows.appendChild(tileElement(code)));
        button.appendChild(shows);
      }
      button.setAttribute('aria-keyshortcuts', spec.key.toUpperCase());
      if (spec.id === dialog.default) button.classList.add('default');
      button.disabled = !this.enabled(spec);
      button.addEventListener('click', () => this.press(spec.id));
      buttons.appendChild(button);
    }
    box.appendChild(buttons);
    if (state.wall.dealt && document.getElementById('wall').classList.contains('hidden') && state.game.phase === 'playing') {
      const left = document.createElement('div');
      left.className = 'wall-left';
      left.textContent = `Live wall: ${state.wall.live} tiles`;
      box.appendChild(left);
    }
    this.holder.appendChild(box);
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
    else if (dialog.kind === 'rob') text.textContent = `${name} makes a kong of ${tile}: rob it?`;
    else if (dialog.kind === 'chowpos') text.textContent = `Chow with ${tile}`;
    else text.textContent = `Your winning tile: ${tile}`;
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
    } else if (prefs.autoPass && dialog.kind === 'claim' && dialog.buttons.every((b) => b.id === 'noclaim' || !b.enabled)) {
      done = this.press('noclaim');
    } else if ((prefs.autoLosing && dialog.kind === 'loser') || (prefs.autoWinning && dialog.kind === 'winner')) {
      const chosen = button(dialog.default);
      done = Boolean(chosen) && this.press(dialog.default, chosen.tiles === null ? null : dialog.select);
    }
    this.autoFor = dialog.number;
    return done;
  }
}
