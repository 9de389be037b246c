// Samples the metrics every few seconds while the tab is open, whatever page is shown, and keeps the last minutes
// for the live charts: put/get TPS per broker (the broker's own 10-second rate, with the broker's ten-minute history
// as the past) and the total lag per consumer group (from when the tab opened: brokers keep no lag history).

import * as api from './api.js';

export const SAMPLE_INTERVAL_MS = 2000;
export const WINDOW_MS = 10 * 60_000;
/** The spans a chart can show, ending now; every chart of the tab shows the one chosen last. */
export const VIEW_WINDOWS_MS = [60_000, 5 * 60_000, 10 * 60_000];
let viewWindowMs = 5 * 60_000;

export function viewWindow() {
  return viewWindowMs;
}

export function setViewWindow(ms) {
  viewWindowMs = ms;
  listeners.forEach(listener => { try { listener(latest); } catch (e) { console.error(e); } });
}
/** At most this many groups are sampled, so a large cluster does not get a request storm from one tab. */
const MAX_SAMPLED_GROUPS = 30;

const series = new Map();      // key -> [[t, v], ...]
const latest = {runtimes: new Map(), lags: new Map(), brokers: []};
const listeners = new Set();
const seeded = new Set();     // brokers whose TPS past came from their own ten-minute history
let timer = null;
let running = false;

function record(key, t, value) {
  let points = series.get(key);
  if (!points) series.set(key, points = []);
  points.push([t, value]);
  while (points.length && points[0][0] < t - WINDOW_MS) points.shift();
}

export function points(key) {
  return series.get(key) || [];
}

export function snapshot() {
  return latest;
}

/** Called after every sample with the latest figures; returns a function that unsubscribes. */
export function onSample(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Group name -> {totalLag, inflight, byBroker: [{broker, progress}]}, summed over the masters. */
export async function groupProgress(masters, groups) {
  const result = new Map();
  await Promise.all(groups.map(async group => {
    const byBroker = [];
    let totalLag = 0, inflight = 0;
    await Promise.all(masters.map(async broker => {
      try {
        const progress = await api.get(broker, `api/v1/groups/${api.enc(group)}/progress`);
        byBroker.push({broker, progress});
        totalLag += progress.totalLag;
        for (const topic of progress.topics) for (const queue of topic.queues) inflight += queue.inflight || 0;
      } catch (error) {
        if (error.status !== 404) throw error;
      }
    }));
    result.set(group, {totalLag, inflight, byBroker});
  }));
  return result;
}

async function sample() {
  const t = Date.now();
  const brokers = await api.brokers();
  latest.brokers = brokers;
  await Promise.all(brokers.filter(b => b.reachable).map(async broker => {
    try {
      if (!seeded.has(broker.brokerAddr)) {
        // The broker keeps ten minutes of once-a-second samples: the charts start with that past, not empty.
        const past = await api.get(broker, 'api/v1/broker/tps-history?stepMs=5000');
        series.set(`put:${broker.brokerAddr}`, past.putTps.filter(p => p[0] < t));
        series.set(`get:${broker.brokerAddr}`, past.getTps.filter(p => p[0] < t));
        seeded.add(broker.brokerAddr);
      }
      const runtime = await api.get(broker, 'api/v1/broker/runtime');
      latest.runtimes.set(broker.brokerAddr, runtime);
      record(`put:${broker.brokerAddr}`, t, runtime.putTps['10s']);
      record(`get:${broker.brokerAddr}`, t, runtime.getTps['10s']);
    } catch (error) {
      latest.runtimes.delete(broker.brokerAddr);
    }
  }));
  const masters = brokers.filter(b => b.reachable && b.brokerId === 0);
  const names = new Set();
  await Promise.all(masters.map(async broker => {
    try {
      const answer = await api.get(broker, 'api/v1/groups');
      answer.groups.forEach(group => names.add(group.group));
    } catch (error) { /* a broker that went away: the next sample tries again */ }
  }));
  const groups = [...names].sort().slice(0, MAX_SAMPLED_GROUPS);
  const lags = await groupProgress(masters, groups);
  latest.lags = lags;
  for (const [group, figures] of lags) record(`lag:${group}`, t, figures.totalLag);
}

async function tick() {
  if (running) return;
  running = true;
  try {
    await sample();
    listeners.forEach(listener => { try { listener(latest); } catch (e) { console.error(e); } });
  } catch (error) {
    console.warn('sample failed', error);
  } finally {
    running = false;
  }
}

export function start() {
  if (timer === null) {
    tick();
    timer = setInterval(tick, SAMPLE_INTERVAL_MS);
  }
}
