// A table drawn from protocol lines that everybody at it is sent (a spectator's feed, or a stored game's
// messages): names, winds, flowers, declared sets, discards and, once shown, hands. It interprets no
// rules: each line is shown as the table announced it, and the wild tile an indicator names is the
// table's to say (``wildOf``, indicator code -> wild code, from the lobby's rule system). The figures
// behind a winner's score (``ScoreFigure``) and the hand's payments (``Payment``) are shown as sent:
// docs/protocol-extension.md says how their names read.

/** A row of tile codes (and words) with every ``wild`` code marked, as the xmj page marks wild tiles. */
export function tileRow(text, wild) {
  const row = document.createElement('div');
  row.className = 'tiles';
  text.split(' ').forEach((word, i) => {
    if (i) row.append(' ');
    if (wild && word === wild) {
      const mark = document.createElement('mark');
      mark.className = 'wild';
      mark.title = 'wild tile';
      mark.textContent = word;
      row.append(mark);
    } else row.append(word);
  });
  return row;
}

/** The line naming the wild indicator turned up and the wild tile, or null without one. */
export function wildLine(indicator, wild) {
  if (!indicator) return null;
  const row = tileRow(`Wild indicator ${indicator}${wild ? `: ${wild} is wild` : ''}`, wild);
  row.classList.add('wilds');
  return row;
}

export const WIND_NAMES = ['East', 'South', 'West', 'North'];

// How a total reads (Beijing's kong points), and a kind of figure sent without a total of its own.
const FIGURE_LABELS = { kongs: 'Kong points', rare: 'Rare (points, undoubled)' };
const label = (name) => FIGURE_LABELS[name] || name[0].toUpperCase() + name.slice(1);
const times = (name, value) => (value > 1 ? `${name} \u00d7${value}` : name);

/** A hand's ``ScoreFigure`` and ``Payment`` lines, and how they read: each winner's figures, then who
 * pays whom. ``windOf`` names a player's seat (East ...) in this hand. */
export class Scores {
  constructor() {
    this.figures = new Map();
    this.payments = [];
  }

  /** Takes the line if it is one of these (true), or leaves it (false). */
  apply(line) {
    const words = line.split(' ');
    if (words[0] === 'ScoreFigure') {
      const id = Number(words[1]);
      if (!this.figures.has(id)) this.figures.set(id, []);
      this.figures.get(id).push([words.slice(3).join(' '), Number(words[2])]);
    } else if (words[0] === 'Payment') this.payments.push(words.slice(1, 4).map(Number));
    else return false;
    return true;
  }

  /** The winner's figures, a line each: every total with its elements ("Fan 4: Pure Suit 3, Concealed 1"),
   * any other kind of element ("Rare (points, undoubled): ..."), and what each payer owes and for which
   * doubles ("East owes 16: Banker, Closed"). */
  lines(id) {
    const figures = this.figures.get(id) || [];
    const totals = new Map();
    const elements = new Map();
    const owed = new Map();
    for (const [name, value] of figures) {
      const [kind, ...rest] = name.split(':');
      if (!rest.length) totals.set(kind, value);
      else if (kind === 'owes' || kind === 'for') {
        const [seat, double] = rest;
        if (!owed.has(seat)) owed.set(seat, { amount: null, doubles: [] });
        if (kind === 'owes') owed.get(seat).amount = value;
        else if (double) owed.get(seat).doubles.push(times(double, value));
      } else {
        if (!elements.has(kind)) elements.set(kind, []);
        elements.get(kind).push(`${rest.join(':')} ${value}`);
      }
    }
    const lines = [];
    for (const [name, value] of totals) {
      const kind = elements.has(name) ? name : name.replace(/s$/, '');
      const parts = elements.get(kind) || [];
      elements.delete(kind);
      lines.push(`${label(name)} ${value}${parts.length ? `: ${parts.join(', ')}` : ''}`);
    }
    for (const [kind, parts] of elements) lines.push(`${label(kind)}: ${parts.join(', ')}`);
    for (const wind of WIND_NAMES) {
      const payer = owed.get(wind);
      if (!payer) continue;
      const amount = payer.amount === null ? '' : ` ${payer.amount}`;
      lines.push(`${wind} owes${amount}${payer.doubles.length ? `: ${payer.doubles.join(', ')}` : ''}`);
    }
    return lines;
  }

  /** The hand's payments in one line ("Payments: South pays East 8, West pays East 16"), or ''. */
  paymentLine(windOf) {
    if (!this.payments.length) return '';
    return `Payments: ${this.payments.map(([payer, payee, amount]) => `${windOf(payer)} pays ${windOf(payee)} ${amount}`).join(', ')}`;
  }
}

/** The payments' line as a row of the board (spanning it), or null without payments. */
export function paymentRow(scores, windOf) {
  const text = scores.paymentLine(windOf);
  if (!text) return null;
  const div = document.createElement('div');
  div.className = 'payments';
  div.textContent = text;
  return div;
}

/** A winner's figures as rows of its seat (none for a player with no figures). */
export function figureRows(scores, id) {
  return scores.lines(id).map((text) => {
    const div = document.createElement('div');
    div.className = 'figure';
    div.textContent = text;
    return div;
  });
}

const SETS = /^(PlayerPungs|PlayerKongs|PlayerChows|PlayerDeclaresClosedKong|PlayerRevealsConcealedKong|PlayerAddsToPung|PlayerFormsClosed\w+|PlayerPairs|PlayerSpecialSet|PlayerRobsKong|PlayerMahJongs)$/;

export class Board {
  constructor(element) {
    this.element = element;
    this.names = new Map();
    this.wildOf = {};
    this.reset();
  }

  reset() {
    this.seats = [];
    this.state = new Map();
    this.turn = null;
    this.result = '';
    this.indicator = null;
    this.scores = new Scores();
  }

  get wild() {
    return (this.indicator && this.wildOf[this.indicator]) || null;
  }

  player(id) {
    if (!this.state.has(id)) this.state.set(id, { flowers: [], sets: [], discards: [], shown: '', hand: [], score: '' });
    return this.state.get(id);
  }

  apply(line) {
    const words = line.split(' ');
    const kind = words[0];
    const id = Number(words[1]);
    if (kind === 'Player') this.names.set(id, words.slice(2).join(' '));
    else if (kind === 'Game') { this.allSeats = words.slice(1, 5).map(Number); this.seats = this.allSeats.slice(); }
    else if (kind === 'NewHand') {
      const seats = this.seatsFrom(Number(words[1]));  // read before the reset empties them
      this.reset();
      this.seats = seats;
    } else if (kind === 'PlayerDeclaresSpecial' && words[2] !== '--') this.player(id).flowers.push(words[2]);
    else if (kind === 'WildIndicator') this.indicator = words[1];
    else if (kind === 'PlayerDiscards') { this.player(id).discards.push(words[2]); this.turn = id; }
    else if (kind === 'PlayerDraws' || kind === 'PlayerDrawsLoose') {
      this.turn = id;
      if (words[2] && words[2] !== '--') this.player(id).hand.push(words[2]);
    } else if (SETS.test(kind)) this.player(id).sets.push(`${kind.replace('Player', '')} ${words.slice(2).join(' ')}`);
    else if (kind === 'PlayerShowsTiles') this.player(id).shown = words.slice(2).join(' ');
    else if (kind === 'HandScore') this.player(id).score = words[2];
    else if (this.scores.apply(line)) return;
    else if (kind === 'WashOut') this.result = 'Wash-out';
    else if (kind === 'Settlement') this.result = `Settlement: ${words.slice(1, 5).join(' ')}`;
    else if (kind === 'GameOver') this.result = 'Game over';
  }

  seatsFrom(east) {
    const all = this.allSeats || [...this.names.keys()];
    const i = all.indexOf(east);
    return i < 0 ? all : [...all.slice(i), ...all.slice(0, i)];
  }

  render() {
    const winds = WIND_NAMES;
    const seats = this.seats.length ? this.seats : [...this.names.keys()];
    this.element.replaceChildren(...seats.map((id, i) => {
      const p = this.player(id);
      const div = document.createElement('div');
      div.className = `seat${this.turn === id ? ' turn' : ''}`;
      const lines = [
        `${winds[i] || ''} — ${this.names.get(id) || id}${p.score ? ` — hand score ${p.score}` : ''}`,
        p.flowers.length ? `Flowers: ${p.flowers.join(' ')}` : '',
        p.sets.length ? `Sets: ${p.sets.join(' | ')}` : '',
        p.hand.length ? `Drawn: ${p.hand.join(' ')}` : '',
        p.shown ? `Shows: ${p.shown}` : '',
        `Discards: ${p.discards.join(' ')}`,
      ].filter(Boolean);
      div.append(tileRow(lines[0], this.wild), ...figureRows(this.scores, id));
      for (const text of lines.slice(1)) div.appendChild(tileRow(text, this.wild));
      return div;
    }));
    const wilds = wildLine(this.indicator, this.wild);
    if (wilds) this.element.prepend(wilds);
    const payments = paymentRow(this.scores, (id) => winds[seats.indexOf(id)] || `player ${id}`);
    if (payments) this.element.appendChild(payments);
    if (this.result) {
      const div = document.createElement('div');
      div.className = 'result';
      div.textContent = this.result;
      this.element.appendChild(div);
    }
  }
}
