// Watching a table: the lobby's spectator WebSocket (/api/tables/ID/watch) drawn on a Board.
import { Board } from './board.js';

const $ = (id) => document.getElementById(id);
const table = new URL(window.location.href).searchParams.get('table');
const board = new Board($('board'));
$('table-id').textContent = table;
$('chat-name').value = localStorage.getItem('lobby.guest') || '';

function addLog(text) {
  const log = $('log');
  log.textContent += `${text}\n`;
  log.scrollTop = log.scrollHeight;
}

function connect(retries) {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${scheme}://${window.location.host}/api/tables/${table}/watch`);
  let lines = 0;
  ws.addEventListener('message', (event) => {
    const data = JSON.parse(event.data);
    if (data.type === 'rules') {
      board.wildOf = data.wild_of;
    } else if (data.type === 'public') {
      for (const line of data.lines) { board.apply(line); addLog(line); lines += 1; }
      board.render();
    } else if (data.type === 'chat') {
      const li = document.createElement('li');
      li.textContent = `${data.name}: ${data.text}`;
      $('chat').appendChild(li);
    }
  });
  ws.addEventListener('close', () => {
    if (lines === 0 && retries > 3) { $('notice').textContent = 'This table cannot be watched.'; return; }
    if (board.result === 'Game over') return;
    $('log').textContent = '';
    $('chat').replaceChildren();
    setTimeout(() => connect(retries + 1), 1000);
  });
}

$('chat-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const response = await fetch(`/api/tables/${table}/chat`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: $('chat-name').value, text: $('chat-text').value }),
  });
  const data = await response.json();
  if (!response.ok) $('notice').textContent = data.error;
  else $('chat-text').value = '';
});

connect(0);
