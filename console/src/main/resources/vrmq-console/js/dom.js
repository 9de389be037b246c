// Small DOM helpers. Every value from the server goes in as text (textContent), never as HTML.

/** h('tr', {class: 'x', onclick: fn, dataset: {k: v}}, child, ...): an element; strings become text nodes. */
export function h(tag, attrs, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else if (name === 'value') element.value = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces the children of element. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

export function table(headers, rows, attrs) {
  return h('table', attrs,
    h('thead', null, h('tr', null, headers.map(header =>
      h('th', {class: header.endsWith('#') ? 'num' : null}, header.replace(/#$/, ''))))),
    h('tbody', null, rows));
}

export function num(value, digits = 0) {
  if (value === undefined || value === null || Number.isNaN(value)) return '–';
  return Number(value).toLocaleString('en-US', {maximumFractionDigits: digits, minimumFractionDigits: digits});
}

export function bytes(value) {
  if (value === undefined || value === null) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let size = value, unit = 0;
  while (size >= 1024 && unit < units.length - 1) { size /= 1024; unit++; }
  return `${size.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

export function time(ms) {
  if (!ms || ms <= 0) return '–';
  return new Date(ms).toLocaleString('sv-SE');
}

let toastTimer;
/** A short message at the bottom right; errors stay longer. */
export function toast(message, isError = false) {
  const box = document.getElementById('toast');
  box.textContent = message;
  box.className = isError ? 'toast error' : 'toast';
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, isError ? 8000 : 3000);
}

/** A form's named fields as an object of strings. */
export function formValues(form) {
  return Object.fromEntries(new FormData(form).entries());
}
