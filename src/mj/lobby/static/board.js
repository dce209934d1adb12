// A table drawn from protocol lines that everybody at it is sent (a spectator's feed, or a stored game's
// messages): names, winds, flowers, declared sets, discards and, once shown, hands. It interprets no
// rules: each line is shown as the table announced it, and the wild tile an indicator names is the
// table's to say (``wildOf``, indicator code -> wild code, from the lobby's rule system).

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

const SETS = /^(PlayerPungs|PlayerKongs|PlayerChows|PlayerDeclaresClosedKong|PlayerAddsToPung|PlayerFormsClosed\w+|PlayerPairs|PlayerSpecialSet|PlayerRobsKong|PlayerMahJongs)$/;

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
    else if (kind === 'Game') this.seats = words.slice(2, 6).map(Number);
    else if (kind === 'NewHand') {
      const east = Number(words[2]);
      this.reset();
      this.seats = this.seatsFrom(east);
    } else if (kind === 'PlayerDeclaresSpecial' && words[2] !== '--') this.player(id).flowers.push(words[2]);
    else if (kind === 'WildIndicator') this.indicator = words[1];
    else if (kind === 'PlayerDiscards') { this.player(id).discards.push(words[2]); this.turn = id; }
    else if (kind === 'PlayerDraws' || kind === 'PlayerDrawsLoose') {
      this.turn = id;
      if (words[2] && words[2] !== '--') this.player(id).hand.push(words[2]);
    } else if (SETS.test(kind)) this.player(id).sets.push(`${kind.replace('Player', '')} ${words.slice(2).join(' ')}`);
    else if (kind === 'PlayerShowsTiles') this.player(id).shown = words.slice(2).join(' ');
    else if (kind === 'HandScore') this.player(id).score = words[2];
    else if (kind === 'WashOut') this.result = 'Wash-out';
    else if (kind === 'Settlement') this.result = `Settlement: ${words.slice(1, 5).join(' ')}`;
    else if (kind === 'GameOver') this.result = 'Game over';
  }

  seatsFrom(east) {
    if (!this.allSeats) this.allSeats = this.seats.slice();
    const all = this.allSeats.length ? this.allSeats : [...this.names.keys()];
    const i = all.indexOf(east);
    return i < 0 ? all : [...all.slice(i), ...all.slice(0, i)];
  }

  render() {
    const winds = ['East', 'South', 'West', 'North'];
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
      for (const text of lines) div.appendChild(tileRow(text, this.wild));
      return div;
    }));
    const wilds = wildLine(this.indicator, this.wild);
    if (wilds) this.element.prepend(wilds);
    if (this.result) {
      const div = document.createElement('div');
      div.textContent = this.result;
      this.element.appendChild(div);
    }
  }
}
