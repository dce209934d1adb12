// Our concealed tiles as we arrange them: order, selection, moving tiles (Shift-arrows, drag).
//
// The server keeps the hand in the order tiles arrived; how they lie on screen is ours.
// "Sort tiles in hand": always (each new tile goes to its sorted place), on deal (sorted
// once the deal is over, then new tiles go to the right) or never.

import { tileValue } from './tiles.js';

export class Hand {
  constructor() {
    this.order = [];
    this.selected = -1;
    this.handKey = null;
    this.sortedThisHand = false;
  }

  /** Take the tiles the server says we hold; keep our arrangement of those still held. */
  update(tiles, handKey, sortMode, dealt) {
    const selectedCode = this.selectedCode();
    let remaining = [...tiles];
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
    for (const code of remaining) {
      if (sortMode === 'always') {
        const at = kept.findIndex((other) => tileValue(other) > tileValue(code));
        kept.splice(at < 0 ? kept.length : at, 0, code);
      } else {
        kept.push(code);
      }
    }
    if (sortMode === 'deal' && dealt && !this.sortedThisHand) {
      kept = [...kept].sort((a, b) => tileValue(a) - tileValue(b));
      this.sortedThisHand = true;
    }
    remaining = null;
    this.order = kept;
    if (selectedCode && this.order[this.selected] !== selectedCode) {
      this.selected = this.order.indexOf(selectedCode);
    }
    if (this.selected >= this.order.length) this.selected = -1;
  }

  selectedCode() {
    return this.selected >= 0 ? this.order[this.selected] || null : null;
  }

  /** Select a tile by code (the rightmost copy: usually the one just drawn); null unselects. */
  selectCode(code) {
    this.selected = code ? this.order.lastIndexOf(code) : -1;
  }

  toggle(index) {
    this.selected = this.selected === index ? -1 : index;
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
  }
}
