// The WebSocket to the gateway: hello with our session token, reconnection with backoff.
//
// The token is the seat: it comes once in the page address (?session=...), is kept in
// localStorage, and every (re)connection says hello with it, so a reload or a dropped
// network puts us back in the same seat.

const TOKEN_KEY = 'xmj.token';

export function takeTokenFromAddress() {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('session');
  if (token) {
    localStorage.setItem(TOKEN_KEY, token);
    url.searchParams.delete('session');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
}

export function token() {
  return localStorage.getItem(TOKEN_KEY);
}

export function setToken(value) {
  if (value) localStorage.setItem(TOKEN_KEY, value);
  else localStorage.removeItem(TOKEN_KEY);
}

export class Connection {
  constructor(onMessage, onStatus) {
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.retries = 0;
  }

  start() {
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${window.location.host}/ws`);
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.retries = 0;
      this.onStatus(true);
      this.send({ type: 'hello', token: token() });
    });
    ws.addEventListener('message', (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(data);
    });
    ws.addEventListener('close', () => {
      if (this.ws !== ws) return;
      this.onStatus(false);
      const delay = Math.min(5000, 250 * 2 ** this.retries);
      this.retries += 1;
      setTimeout(() => this.start(), delay);
    });
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }
}
