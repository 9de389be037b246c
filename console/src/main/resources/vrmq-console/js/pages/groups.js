// Consumer groups: the list with live total lag and POP in-flight counts, a lag chart per group, and per group its
// members, subscriptions, lag per queue, and reset offset by time.

import * as api from '../api.js';
import * as history from '../history.js';
import {h, fill, table, num, time, toast} from '../dom.js';
import {lineChart, windowPicker} from '../chart.js';

export function show(root) {
  const search = h('input', {type: 'search', id: 'group-search', placeholder: 'Search groups…'});
  const listBox = h('div', {id: 'group-list'}, h('p', {class: 'muted'}, 'Waiting for the first sample…'));
  const chartBox = h('div', {id: 'chart-group-lag'});
  const detailBox = h('div', {id: 'group-detail'});
  const picker = windowPicker(history.VIEW_WINDOWS_MS, history.viewWindow(), history.setViewWindow);
  fill(root, h('div', {class: 'row spread'}, h('h2', null, 'Consumer groups'), picker),
    h('div', {class: 'grid2'},
      h('div', {class: 'panel'}, search, listBox),
      h('div', {class: 'panel'}, h('h3', null, 'Lag per group (messages)'), chartBox)),
    detailBox);
  let selected = null;
  const render = latest => {
    const query = search.value.trim().toLowerCase();
    const groups = [...latest.lags.keys()].filter(group => group.toLowerCase().includes(query));
    fill(listBox, groupTable(groups, latest.lags, group => {
      selected = group;
      showDetail(detailBox, group);
    }));
    lineChart(chartBox, groups.slice(0, 8).map(group => ({name: group, points: history.points(`lag:${group}`)})),
      {windowMs: history.viewWindow(), title: 'lag per group'});
    if (selected && latest.lags.has(selected)) updateQueues(detailBox, latest.lags.get(selected));
  };
  search.addEventListener('input', () => render(history.snapshot()));
  render(history.snapshot());
  return history.onSample(render);
}

function groupTable(groups, lags, onSelect) {
  const rows = groups.map(group => {
    const figures = lags.get(group);
    return h('tr', {class: 'clickable', dataset: {group}, onclick: () => onSelect(group)},
      h('td', null, group),
      h('td', {class: 'num', dataset: {field: 'lag'}}, num(figures.totalLag)),
      h('td', {class: 'num', dataset: {field: 'inflight'}}, num(figures.inflight)),
      h('td', null, figures.byBroker.map(b => b.broker.brokerName).join(', ')));
  });
  if (rows.length === 0) rows.push(h('tr', null, h('td', {colspan: 4, class: 'muted'}, 'No consumer group.')));
  return table(['Group', 'Lag#', 'POP in flight#', 'Brokers'], rows, {id: 'group-table'});
}

async function showDetail(box, group) {
  fill(box, h('div', {class: 'panel'}, h('p', {class: 'muted'}, `Loading ${group}…`)));
  const masters = await api.masters();
  const details = [];
  await Promise.all(masters.map(async broker => {
    try {
      details.push({broker, detail: await api.get(broker, `api/v1/groups/${api.enc(group)}`)});
    } catch (error) {
      if (error.status !== 404) toast(`${broker.brokerName}: ${error.message}`, true);
    }
  }));
  const members = details.flatMap(({broker, detail}) => detail.connections.map(member =>
    h('tr', null, h('td', null, member.clientId), h('td', null, member.clientAddr), h('td', null, member.language),
      h('td', null, String(member.version)), h('td', null, broker.brokerName))));
  const subscriptions = new Map();
  details.forEach(({detail}) => Object.entries(detail.subscriptions || {}).forEach(([topic, data]) =>
    subscriptions.set(topic, data)));
  const first = details.length ? details[0].detail : {};
  const topics = [...new Set(details.flatMap(({detail}) => [...(detail.topicsWithOffsets || []),
    ...Object.keys(detail.subscriptions || {})]))].filter(t => !t.startsWith('%RETRY%')).sort();
  fill(box, h('div', {class: 'panel', id: 'group-panel', dataset: {group}},
    h('h2', null, group),
    h('p', {class: 'muted'}, `${first.consumeType || 'not online'} · ${first.messageModel || '–'} · `
      + `${first.consumeFromWhere || ''}`),
    h('h3', null, 'Members'),
    table(['Client id', 'Address', 'Language', 'Version', 'Broker'], members.length ? members
      : [h('tr', null, h('td', {colspan: 5, class: 'muted'}, 'No member online.'))]),
    h('h3', null, 'Subscriptions'),
    table(['Topic', 'Expression', 'Type'], [...subscriptions].map(([topic, data]) => h('tr', null,
      h('td', null, topic), h('td', null, data.subString || data.subscription || JSON.stringify(data)),
      h('td', null, data.expressionType || 'TAG')))),
    h('h3', null, 'Lag per queue'),
    h('div', {id: 'group-queues'}, h('p', {class: 'muted'}, 'Waiting for the next sample…')),
    h('h3', null, 'Reset offset by time'),
    resetForm(group, topics, masters)));
  const lags = history.snapshot().lags.get(group);
  if (lags) updateQueues(box, lags);
}

function updateQueues(box, figures) {
  const target = box.querySelector('#group-queues');
  if (!target) return;
  const rows = [];
  for (const {broker, progress} of figures.byBroker) {
    for (const topic of progress.topics) {
      for (const queue of topic.queues) {
        rows.push(h('tr', null, h('td', null, broker.brokerName), h('td', null, topic.topic),
          h('td', {class: 'num'}, queue.queueId), h('td', {class: 'num'}, num(queue.brokerOffset)),
          h('td', {class: 'num'}, num(queue.consumerOffset)), h('td', {class: 'num'}, num(queue.lag)),
          h('td', {class: 'num'}, num(queue.inflight)), h('td', null, time(queue.lastTimestamp))));
      }
    }
  }
  fill(target, h('p', null, 'Total lag ', h('strong', {id: 'group-total-lag'}, num(figures.totalLag))),
    table(['Broker', 'Topic', 'Queue#', 'Broker offset#', 'Consumer offset#', 'Lag#', 'In flight#',
      'Last consumed message'], rows));
}

function resetForm(group, topics, masters) {
  const now = new Date(Date.now() - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  const topic = h('select', {name: 'topic', id: 'reset-topic'}, topics.map(t => h('option', {value: t}, t)));
  const when = h('input', {type: 'datetime-local', name: 'time', id: 'reset-time', value: now});
  const form = h('form', {class: 'inline'}, h('label', null, 'Topic', topic), h('label', null, 'Time', when),
    h('button', {type: 'submit', id: 'reset-submit'}, 'Reset offsets'));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    const timestamp = new Date(when.value).getTime();
    if (!topic.value || Number.isNaN(timestamp)) { toast('Choose a topic and a time', true); return; }
    if (!confirm(`Move ${group} on ${topic.value} to the first message stored at or after ${when.value}?`)) return;
    try {
      const answers = await Promise.allSettled(masters.map(broker => api.post(broker,
        `api/v1/groups/${api.enc(group)}/reset-offset`, {topic: topic.value, timestamp, force: true})));
      const done = answers.filter(a => a.status === 'fulfilled').flatMap(a => a.value.offsets);
      const failed = answers.filter(a => a.status === 'rejected' && a.reason.status !== 404);
      if (failed.length) throw failed[0].reason;
      toast(`Reset ${done.length} queue${done.length === 1 ? '' : 's'} of ${topic.value}`);
    } catch (error) {
      toast(`Could not reset: ${error.message}`, true);
    }
  });
  return form;
}
