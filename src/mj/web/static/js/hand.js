// Our concealed tiles as we arrange them: order, selection, moving tiles (Shift-arrows, drag).
//
// The server keeps the hand in the order tiles arrived; how they lie on screen is ours.
// "Sort tiles in hand": always (each new tile goes to its sorted place), on deal (sorted
// once the deal is over, then new tiles go to the right) or never. The arrangement is
// remembered in the browser for the seat (its session token), so a reload keeps it; tiles
// it does not place (after a reload, a claim) go to the end, sorted unless sorting is "never".

import { tileValue } from './tiles.js';

const KEY = 'xmj.order';

function byValue(a, b) {
  return tileValue(a) - tileValue(b);
}

export class Hand {
  constructor() {
    this.order = [];
    this.selected = -1;
    this.handKey = null;
    this.sortedThisHand = false;
    this.seat = null; // whose arrangement is remembered: the seat's token
  }

  /** The seat (session token) whose hand this is: its remembered arrangement comes back. */
  useSeat(seat) {
    if (seat === this.seat) return;
    this.seat = seat;
    this.order = [];
    this.handKey = null;
    this.selected = -1;
    if (!seat) return;
    try {
      const stored = JSON.parse(localStorage.getItem(KEY) || '{}')[seat];
      if (stored && Array.isArray(stored.order)) {
        this.order = stored.order.filter((code) => typeof code === 'string');
        this.handKey = stored.hand;
        this.sortedThisHand = Boolean(stored.sorted);
      }
    } catch {
      // a damaged record: start from the server's order
    }
  }

  remember() {
    if (!this.seat) return;
    let all = {};
    try {
      all = JSON.parse(localStorage.getItem(KEY) || '{}') || {};
    } catch {
      all = {};
    }
    // keep only the latest few seats: old games' arrangements are of no use
    const entries = Object.entries(all).filter(([seat]) => seat !== this.seat).slice(-7);
    entries.push([this.seat, { hand: this.handKey, order: this.order, sorted: this.sortedThisHand }]);
    localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(entries)));
  }

  /** Take the tiles the server says we hold; keep our arrangement of those still held. */
  update(tiles, handKey, sortMode, dealt) {
    const selectedCode = this.selectedCode();
    const remaining = [...tiles];
    let kept = [];
    if (handKey !== this.handKey) {
      this.handKey = handKey;
      this.sortedThisHand = false;
      this.selected = -1;
    } else {
      for (const code of this.order) {
        const i = remaining.indexOf(code);
        if (i >= 0) {
          kept.push(code);
          remaining.splice(i, 1);
        }
      }
    }
    if (sortMode === 'always' && remaining.length === 1) {
      // a tile drawn or taken: to its sorted place among ours
      const code = remaining[0];
      const at = kept.findIndex((other) => tileValue(other) > tileValue(code));
      kept.splice(at < 0 ? kept.length : at, 0, code);
    } else if (sortMode !== 'never') {
      // the deal, or tiles our remembered arrangement does not place: at the end, sorted
      kept.push(...remaining.sort(byValue));
    } else {
      kept.push(...remaining);
    }
    if (sortMode === 'deal' && dealt && !this.sortedThisHand) {
      kept = [...kept].sort(byValue);
      this.sortedThisHand = true;
    }
    const changed = kept.join() !== this.order.join();
    this.order = kept;
    if (selectedCode && this.order[this.selected] !== selectedCode) {
      this.selected = this.order.indexOf(selectedCode);
    }
    if (this.selected >= this.order.length) this.selected = -1;
    if (changed) this.remember();
  }

  selectedCode() {
    return this.selected >= 0 ? this.order[this.selected] || null : null;
  }

  /** Select a tile by code (the rightmost copy: usually the one just drawn); null unselects. */
  selectCode(code) {
    this.selected = code ? this.order.lastIndexOf(code) : -1;
  }

  /** A click selects the tile; clicking it again leaves it selected (a second click may be a double click). */
  select(index) {
    if (index >= 0 && index < this.order.length) this.selected = index;
  }

  /** Arrow keys: move the selection along the row. */
  step(delta) {
    if (!this.order.length) return;
    if (this.selected < 0) this.selected = delta > 0 ? 0 : this.order.length - 1;
    else this.selected = (this.selected + delta + this.order.length) % this.order.length;
  }

  /** Shift-arrows: move the selected tile itself. */
  shift(delta) {
    const to = this.selected + delta;
    if (this.selected < 0 || to < 0 || to >= this.order.length) return;
    this.moveTo(this.selected, to);
  }

  moveTo(from, to) {
    if (from === to || from < 0 || from >= this.order.length) return;
    const [code] = this.order.splice(from, 1);
    const at = Math.max(0, Math.min(this.order.length, to));
    this.order.splice(at, 0, code);
    this.selected = at;
    this.remember();
  }
}
