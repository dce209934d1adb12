// Preferences, remembered in the browser (localStorage) as xmj keeps them in ~/.xmjrc.
//
// Display: theme, table colour, where the dialog sits, tile sorting, the wall, tile tips, popups,
// status in the main window, the turn sound.
// Playing: what the client declares on our behalf. Game options: sent when a game starts
// and we may set them (we are the manager, or there is none).

const KEY = 'xmj.prefs';

export const DEFAULTS = Object.freeze({
  theme: 'light', // light | dark
  tableColour: '#1e5b3a',
  dialogPlace: 'side', // side (beside or below the table) | centre | float
  dialogAt: null, // where a floating dialog was dragged: {x, y}
  sound: true, // a short tone when it is our turn or a discard may be claimed
  sortTiles: 'always', // always | deal | never
  showWall: 'when-room', // always | when-room | never
  tiletips: false,
  noPopups: false,
  infoInMain: true,
  autoFlowers: true,
  autoLosing: true,
  autoWinning: false,
  autoPass: true,
  gameOptions: {},
});

let current = load();
const listeners = [];

function load() {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) || '{}');
    return { ...DEFAULTS, ...(stored && typeof stored === 'object' ? stored : {}) };
  } catch {
    return { ...DEFAULTS };
  }
}

export function prefs() {
  return current;
}

/** Apply new values; ``save`` also remembers them for the next visit ("Save & Apply"). */
export function setPrefs(values, save = true) {
  current = { ...current, ...values };
  if (save) {
    const stored = JSON.parse(localStorage.getItem(KEY) || '{}');
    localStorage.setItem(KEY, JSON.stringify({ ...stored, ...values }));
  }
  listeners.forEach((fn) => fn(current));
}

export function onPrefs(fn) {
  listeners.push(fn);
}
