// The menu bar: Game, Show and Options, as xmj's, and Help. Alt with the underlined letter opens a menu;
// in an open menu, an item's underlined letter chooses it.

function labelWithKey(label, key) {
  const span = document.createElement('span');
  const at = label.toLowerCase().indexOf(key);
  if (at < 0) {
    span.textContent = label;
  } else {
    const u = document.createElement('u');
    u.textContent = label[at];
    span.append(label.slice(0, at), u, label.slice(at + 1));
  }
  return span;
}

/** ``menus``: [{label, key, items: [{label, key, action, enabled?}]}]. */
export function buildMenus(menus) {
  const bar = document.getElementById('menubar');
  bar.innerHTML = '';
  const lists = [];
  const closeAll = () => {
    lists.forEach(({ list, button }) => { list.classList.remove('open'); button.setAttribute('aria-expanded', 'false'); });
  };
  for (const menu of menus) {
    const holder = document.createElement('div');
    holder.className = 'menu';
    const button = document.createElement('button');
    button.type = 'button';
    button.setAttribute('aria-haspopup', 'true');
    button.setAttribute('aria-expanded', 'false');
    button.setAttribute('role', 'menuitem');
    button.appendChild(labelWithKey(menu.label, menu.key));
    const list = document.createElement('ul');
    list.setAttribute('role', 'menu');
    list.setAttribute('aria-label', menu.label);
    for (const item of menu.items) {
      const li = document.createElement('li');
      li.setAttribute('role', 'none');
      const entry = document.createElement('button');
      entry.type = 'button';
      entry.setAttribute('role', 'menuitem');
      entry.appendChild(labelWithKey(item.label, item.key));
      entry.setAttribute('aria-keyshortcuts', item.key.toUpperCase());
      entry.addEventListener('click', () => {
        closeAll();
        item.action();
      });
      li.appendChild(entry);
      list.appendChild(li);
      item.element = entry;
    }
    button.addEventListener('click', () => {
      const opening = !list.classList.contains('open');
      closeAll();
      if (opening) {
        menu.items.forEach((item) => { item.element.disabled = item.enabled ? !item.enabled() : false; });
        list.classList.add('open');
        button.setAttribute('aria-expanded', 'true');
        const first = list.querySelector('button:not(:disabled)');
        if (first) first.focus();
      }
    });
    list.addEventListener('keydown', (event) => {
      const entries = [...list.querySelectorAll('button:not(:disabled)')];
      const at = entries.indexOf(document.activeElement);
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const next = entries[(at + (event.key === 'ArrowDown' ? 1 : -1) + entries.length) % entries.length];
        if (next) next.focus();
      } else if (event.key === 'Escape') {
        closeAll();
        button.focus();
      } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey) {
        const item = menu.items.find((i) => i.key === event.key.toLowerCase() && !i.element.disabled);
        if (item) {
          event.preventDefault();
          item.element.click();
        }
      }
      event.stopPropagation();
    });
    holder.append(button, list);
    bar.appendChild(holder);
    lists.push({ list, button, menu });
  }
  const title = document.createElement('span');
  title.className = 'title';
  title.id = 'title';
  bar.appendChild(title);
  document.addEventListener('mousedown', (event) => { if (!bar.contains(event.target)) closeAll(); });
  return {
    /** Alt+letter: open that menu; true if one was opened. */
    openByKey(letter) {
      const found = lists.find(({ menu }) => menu.key === letter.toLowerCase());
      if (!found) return false;
      found.button.click();
      return true;
    },
    close: closeAll,
  };
}
