// Cluster: brokers by group with role, address, version, live put/get TPS, disk use and HA or controller state;
// live charts of put and get TPS per broker.

import * as api from '../api.js';
import * as history from '../history.js';
import {h, fill, table, num, bytes} from '../dom.js';
import {lineChart, windowPicker} from '../chart.js';

export function show(root) {
  const brokersBox = h('div', {class: 'panel', id: 'cluster-brokers'}, h('p', {class: 'muted'}, 'Loading…'));
  const putChart = h('div', {id: 'chart-put-tps'});
  const getChart = h('div', {id: 'chart-get-tps'});
  const picker = windowPicker(history.VIEW_WINDOWS_MS, history.viewWindow(), history.setViewWindow);
  fill(root,
    h('div', {class: 'row spread'}, h('h2', null, 'Cluster'), picker),
    brokersBox,
    h('div', {class: 'grid2'},
      h('div', {class: 'panel'}, h('h3', null, 'Put TPS per broker (messages/s, 10 s average)'), putChart),
      h('div', {class: 'panel'}, h('h3', null, 'Get TPS per broker (messages/s, 10 s average)'), getChart)));
  const details = new Map();
  const render = async latest => {
    await Promise.all(latest.brokers.filter(b => b.reachable).map(async broker => {
      try {
        const [identity, ha] = await Promise.all([api.get(broker, 'api/v1/console/broker'),
          api.get(broker, 'api/v1/broker/ha')]);
        details.set(broker.brokerAddr, {identity, ha});
      } catch (error) {
        details.delete(broker.brokerAddr);
      }
    }));
    fill(brokersBox, brokerTable(latest, details));
    const names = latest.brokers.map(b => ({name: `${b.brokerName}/${b.brokerId}`, addr: b.brokerAddr}));
    lineChart(putChart, names.map(b => ({name: b.name, points: history.points(`put:${b.addr}`)})),
      {windowMs: history.viewWindow(), title: 'put TPS'});
    lineChart(getChart, names.map(b => ({name: b.name, points: history.points(`get:${b.addr}`)})),
      {windowMs: history.viewWindow(), title: 'get TPS'});
  };
  render(history.snapshot());
  return history.onSample(render);
}

function brokerTable(latest, details) {
  const byGroup = new Map();
  for (const broker of latest.brokers) {
    const key = `${broker.clusterName} / ${broker.brokerName}`;
    if (!byGroup.has(key)) byGroup.set(key, []);
    byGroup.get(key).push(broker);
  }
  const rows = [];
  for (const [group, members] of [...byGroup].sort()) {
    rows.push(h('tr', {class: 'group-head'}, h('td', {colspan: 9}, group)));
    members.sort((a, b) => a.brokerId - b.brokerId).forEach(broker => {
      const runtime = latest.runtimes.get(broker.brokerAddr);
      const detail = details.get(broker.brokerAddr);
      rows.push(h('tr', {dataset: {broker: broker.brokerAddr}},
        h('td', null, roleBadge(broker, detail)),
        h('td', null, broker.brokerAddr, h('div', {class: 'muted'}, broker.adminAddr ? `admin ${broker.adminAddr}`
          : 'no admin address announced')),
        h('td', null, detail ? detail.identity.version : '–'),
        h('td', {class: 'num', dataset: {field: 'putTps'}}, runtime ? num(runtime.putTps['10s'], 1) : '–'),
        h('td', {class: 'num', dataset: {field: 'getTps'}}, runtime ? num(runtime.getTps['10s'], 1) : '–'),
        h('td', null, runtime ? diskUse(runtime.store) : '–'),
        h('td', {class: 'num'}, runtime ? num(runtime.connections) : '–'),
        h('td', null, detail ? haSummary(detail) : '–'),
        h('td', {class: 'num'}, runtime ? uptime(runtime.uptimeMs) : '–')));
    });
  }
  if (rows.length === 0) rows.push(h('tr', null, h('td', {colspan: 9, class: 'muted'}, 'No live broker.')));
  return table(['Role', 'Address', 'Version', 'Put TPS#', 'Get TPS#', 'Disk', 'Connections#', 'HA / controller',
    'Uptime#'], rows, {id: 'broker-table'});
}

function roleBadge(broker, detail) {
  const role = detail ? detail.identity.brokerRole : (broker.brokerId === 0 ? 'MASTER' : 'SLAVE');
  const isSlave = role === 'SLAVE';
  return h('span', null, h('span', {class: `badge ${isSlave ? 'slave' : 'master'}`}, role),
    ' ', h('span', {class: 'muted'}, `id ${broker.brokerId}`),
    detail && detail.identity.fenced ? h('span', {class: 'badge bad'}, 'fenced') : null);
}

function diskUse(store) {
  const ratio = store.diskUsedRatio || 0;
  const level = ratio > 0.9 ? 'bad' : ratio > 0.75 ? 'warn' : '';
  const fillBar = h('span', {class: level});
  fillBar.style.width = `${Math.min(100, ratio * 100).toFixed(0)}%`;
  return h('span', null, h('span', {class: 'bar'}, fillBar), `${(ratio * 100).toFixed(0)}%`,
    h('div', {class: 'muted'}, `${bytes(store.storedBytes)} stored${store.readOnly ? ', READ-ONLY' : ''}`));
}

function haSummary({identity, ha}) {
  if (identity.controllerMode) {
    const controller = ha.controller || {};
    return h('span', null, `controller mode, epoch ${identity.masterEpoch}`,
      h('div', {class: 'muted'}, `leader ${controller.controllerLeader || '?'}, SyncStateSet `
        + JSON.stringify(controller.syncStateSet || [])));
  }
  if (ha.slaves) {
    return `${ha.slaves.length} slave${ha.slaves.length === 1 ? '' : 's'}`
      + (ha.slaves.length ? ': ' + ha.slaves.map(s => s.address || s.slaveAddr || JSON.stringify(s)).join(', ') : '');
  }
  if (ha.masterAddr !== undefined) {
    return h('span', null, `following ${ha.masterAddr || '(no master yet)'} `,
      h('span', {class: `badge ${ha.connected ? 'good' : 'bad'}`}, ha.connected ? 'connected' : 'disconnected'));
  }
  return '–';
}

function uptime(ms) {
  const minutes = Math.floor(ms / 60_000);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
