// A small SVG line chart: several named series of [timeMs, value] points over a shared time axis.

const SVG = 'http://www.w3.org/2000/svg';
const COLORS = ['#2563eb', '#db2777', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#dc2626', '#4b5563'];
const WIDTH = 640, HEIGHT = 200, LEFT = 52, RIGHT = 10, TOP = 10, BOTTOM = 22;

function svg(tag, attrs) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  return element;
}

export function colorOf(index) {
  return COLORS[index % COLORS.length];
}

/** A "nice" upper bound for the y axis: 1, 2 or 5 times a power of ten, at least the largest value. */
function niceMax(value) {
  if (value <= 0) return 1;
  const power = Math.pow(10, Math.floor(Math.log10(value)));
  for (const step of [1, 2, 5, 10]) if (value <= step * power) return step * power;
  return 10 * power;
}

function label(value) {
  if (value >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(1)}k`;
  return value % 1 === 0 ? String(value) : value.toFixed(1);
}

/**
 * Draws into container (replacing what was there). series: [{name, points: [[t, v], ...]}]; windowMs: the time span
 * shown, ending now. The chart element carries data-series-count and data-last-values for tests and tools.
 */
export function lineChart(container, series, {windowMs = 5 * 60_000, title = ''} = {}) {
  const now = Date.now();
  const start = now - windowMs;
  const maxValue = niceMax(Math.max(0, ...series.flatMap(s => s.points.map(p => p[1]))));
  const x = t => LEFT + (t - start) / windowMs * (WIDTH - LEFT - RIGHT);
  const y = v => TOP + (1 - v / maxValue) * (HEIGHT - TOP - BOTTOM);
  const root = svg('svg', {viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': title});
  for (let tick = 0; tick <= 4; tick++) {
    const value = maxValue * tick / 4;
    root.append(svg('line', {class: 'grid', x1: LEFT, x2: WIDTH - RIGHT, y1: y(value), y2: y(value)}));
    const text = svg('text', {x: LEFT - 6, y: y(value) + 3, 'text-anchor': 'end'});
    text.textContent = label(value);
    root.append(text);
  }
  const tickMs = windowMs <= 60_000 ? 10_000 : 60_000;
  for (let tick = 0; tick * tickMs <= windowMs; tick++) {
    const t = now - tick * tickMs;
    const text = svg('text', {x: x(t), y: HEIGHT - 6, 'text-anchor': 'middle'});
    text.textContent = tick === 0 ? 'now' : tickMs < 60_000 ? `-${tick * tickMs / 1000}s` : `-${tick}m`;
    root.append(text);
  }
  root.append(svg('line', {class: 'axis', x1: LEFT, x2: LEFT, y1: TOP, y2: HEIGHT - BOTTOM}));
  root.append(svg('line', {class: 'axis', x1: LEFT, x2: WIDTH - RIGHT, y1: HEIGHT - BOTTOM, y2: HEIGHT - BOTTOM}));
  series.forEach((line, index) => {
    const points = line.points.filter(p => p[0] >= start);
    if (points.length === 0) return;
    const path = points.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    root.append(svg('polyline', {class: 'line', points: path, stroke: colorOf(index)}));
  });
  const legend = document.createElement('div');
  legend.className = 'legend';
  series.forEach((line, index) => {
    const item = document.createElement('span');
    const swatch = document.createElement('i');
    swatch.style.background = colorOf(index);
    const last = line.points.length ? line.points[line.points.length - 1][1] : null;
    item.append(swatch, `${line.name}${last === null ? '' : ': ' + label(Math.round(last * 10) / 10)}`);
    legend.append(item);
  });
  container.classList.add('chart');
  container.dataset.seriesCount = String(series.length);
  container.dataset.lastValues = series.map(s => s.points.length ? s.points[s.points.length - 1][1] : '').join(',');
  container.replaceChildren(root, legend);
}

/** A select of the chart spans (1, 5, 10 minutes); onChange(ms) when another is chosen. */
export function windowPicker(choicesMs, currentMs, onChange) {
  const select = document.createElement('select');
  select.className = 'window-picker';
  select.setAttribute('aria-label', 'chart span');
  for (const ms of choicesMs) {
    const option = document.createElement('option');
    option.value = String(ms);
    option.textContent = `last ${ms / 60_000} min`;
    option.selected = ms === currentMs;
    select.append(option);
  }
  select.addEventListener('change', () => onChange(Number(select.value)));
  return select;
}
