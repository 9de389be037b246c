// Topics: the list with search, create/update (queue counts, permission, order) on chosen masters, delete, and
// per topic its route (NameServer) and per-queue min/max offsets (each broker).

import * as api from '../api.js';
import {h, fill, table, num, time, toast, formValues} from '../dom.js';

const PERMS = [[6, 'RW- (read and write)'], [4, 'R-- (read only)'], [2, '-W- (write only)']];

export function show(root) {
  const search = h('input', {type: 'search', id: 'topic-search', placeholder: 'Search topics…'});
  const showSystem = h('input', {type: 'checkbox', id: 'topic-show-system'});
  const listBox = h('div', {id: 'topic-list'}, h('p', {class: 'muted'}, 'Loading…'));
  const detailBox = h('div', {id: 'topic-detail'});
  const formBox = h('div', {class: 'panel'});
  fill(root, h('h2', null, 'Topics'), formBox,
    h('div', {class: 'panel'}, h('div', {class: 'row'}, search, h('label', null, h('span', null,
      showSystem, ' system topics'))), listBox),
    detailBox);
  let topics = [];
  const renderList = () => fill(listBox, topicTable(topics, search.value.trim().toLowerCase(), showSystem.checked,
    topic => showDetail(detailBox, topic, reload)));
  const reload = async () => {
    try {
      topics = await loadTopics();
      renderList();
    } catch (error) {
      fill(listBox, h('p', {class: 'muted'}, `Could not load topics: ${error.message}`));
    }
  };
  search.addEventListener('input', renderList);
  showSystem.addEventListener('change', renderList);
  createForm(formBox, reload);
  reload();
  return () => {};
}

/** [{topic, system, order, byBroker: [{broker, config}]}], one entry per topic name over all masters. */
async function loadTopics() {
  const masters = await api.masters();
  const byName = new Map();
  await Promise.all(masters.map(async broker => {
    const answer = await api.get(broker, 'api/v1/topics');
    for (const config of answer.topics) {
      if (!byName.has(config.topic)) byName.set(config.topic, {topic: config.topic, system: config.system,
        order: config.order, byBroker: []});
      byName.get(config.topic).byBroker.push({broker, config});
    }
  }));
  return [...byName.values()].sort((a, b) => a.topic.localeCompare(b.topic));
}

function topicTable(topics, query, withSystem, onSelect) {
  const shown = topics.filter(t => (withSystem || !t.system) && t.topic.toLowerCase().includes(query));
  const rows = shown.map(topic => h('tr', {class: 'clickable', dataset: {topic: topic.topic},
      onclick: () => onSelect(topic)},
    h('td', null, topic.topic, topic.system ? h('span', {class: 'muted'}, ' (system)') : null),
    h('td', null, topic.byBroker.map(b => b.broker.brokerName).join(', ')),
    h('td', {class: 'num'}, topic.byBroker.map(b => b.config.readQueueNums).join(' / ')),
    h('td', {class: 'num'}, topic.byBroker.map(b => b.config.writeQueueNums).join(' / ')),
    h('td', null, topic.byBroker.map(b => b.config.permText).join(' / ')),
    h('td', null, topic.order ? 'ordered' : '')));
  if (rows.length === 0) rows.push(h('tr', null, h('td', {colspan: 6, class: 'muted'}, 'No topic matches.')));
  return h('div', null, h('p', {class: 'muted'}, `${shown.length} of ${topics.length} topics`),
    table(['Topic', 'Brokers', 'Read queues#', 'Write queues#', 'Perm', ''], rows, {id: 'topic-table'}));
}

async function createForm(box, reload) {
  const masters = await api.masters();
  const form = h('form', {class: 'inline', id: 'topic-form'},
    h('label', null, 'Topic', h('input', {name: 'topic', id: 'topic-name', required: true,
      pattern: '[%|a-zA-Z0-9_-]{1,127}', placeholder: 'OrderEvents'})),
    h('label', null, 'Read queues', h('input', {name: 'readQueueNums', type: 'number', min: 1, max: 1024,
      value: 8, id: 'topic-read-queues'})),
    h('label', null, 'Write queues', h('input', {name: 'writeQueueNums', type: 'number', min: 1, max: 1024,
      value: 8, id: 'topic-write-queues'})),
    h('label', null, 'Permission', h('select', {name: 'perm'},
      PERMS.map(([value, text]) => h('option', {value}, text)))),
    h('label', null, 'Order', h('input', {name: 'order', type: 'checkbox'})),
    h('label', null, 'On brokers', h('span', null, masters.map(broker => h('span', null,
      h('input', {type: 'checkbox', name: `broker:${broker.brokerAddr}`, checked: true}), ` ${broker.brokerName} `)))),
    h('button', {type: 'submit', id: 'topic-submit'}, 'Create / update'));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    const values = formValues(form);
    const targets = masters.filter(broker => values[`broker:${broker.brokerAddr}`]);
    if (targets.length === 0) { toast('Choose at least one broker', true); return; }
    const body = {topic: values.topic.trim(), readQueueNums: Number(values.readQueueNums),
      writeQueueNums: Number(values.writeQueueNums), perm: Number(values.perm), order: !!values.order};
    try {
      await Promise.all(targets.map(broker => api.post(broker, 'api/v1/topics', body)));
      toast(`Topic ${body.topic} saved on ${targets.map(b => b.brokerName).join(', ')}`);
      await reload();
    } catch (error) {
      toast(`Could not save topic: ${error.message}`, true);
    }
  });
  fill(box, h('h3', null, 'Create or update a topic'), form);
}

async function showDetail(box, topic, reload) {
  fill(box, h('div', {class: 'panel'}, h('p', {class: 'muted'}, `Loading ${topic.topic}…`)));
  const sections = [];
  if (api.isNameServer()) {
    try {
      const route = await api.namesrv(`api/v1/topics/${api.enc(topic.topic)}/route`);
      sections.push(h('h3', null, 'Route (NameServer)'), table(['Broker', 'Read queues#', 'Write queues#', 'Perm#',
        'Addresses'], route.queueDatas.map(queue => {
        const data = route.brokerDatas.find(b => b.brokerName === queue.brokerName) || {brokerAddrs: {}};
        return h('tr', null, h('td', null, queue.brokerName), h('td', {class: 'num'}, queue.readQueueNums),
          h('td', {class: 'num'}, queue.writeQueueNums), h('td', {class: 'num'}, queue.perm),
          h('td', null, Object.entries(data.brokerAddrs).map(([id, addr]) => `${id}: ${addr}`).join(', ')));
      })));
    } catch (error) {
      sections.push(h('p', {class: 'muted'}, `No route: ${error.message}`));
    }
  }
  for (const {broker} of topic.byBroker) {
    try {
      const status = await api.get(broker, `api/v1/topics/${api.enc(topic.topic)}/status`);
      sections.push(h('h3', null, `Queues on ${broker.brokerName} (${num(status.totalMessages)} messages)`),
        table(['Queue#', 'Min offset#', 'Max offset#', 'Messages#', 'Last stored'], status.queues.map(queue =>
          h('tr', null, h('td', {class: 'num'}, queue.queueId), h('td', {class: 'num'}, num(queue.minOffset)),
            h('td', {class: 'num'}, num(queue.maxOffset)), h('td', {class: 'num'},
              num(queue.maxOffset - queue.minOffset)), h('td', null, time(queue.lastUpdateTimestamp))))));
    } catch (error) {
      sections.push(h('p', {class: 'muted'}, `${broker.brokerName}: ${error.message}`));
    }
  }
  const deleteButton = h('button', {type: 'button', class: 'danger', id: 'topic-delete'}, `Delete ${topic.topic}`);
  deleteButton.addEventListener('click', async () => {
    if (!confirm(`Delete topic ${topic.topic} on ${topic.byBroker.map(b => b.broker.brokerName).join(', ')}?`)) return;
    try {
      await Promise.all(topic.byBroker.map(({broker}) => api.del(broker, `api/v1/topics/${api.enc(topic.topic)}`)));
      toast(`Topic ${topic.topic} deleted`);
      fill(box);
      await reload();
    } catch (error) {
      toast(`Could not delete: ${error.message}`, true);
    }
  });
  fill(box, h('div', {class: 'panel'}, h('h2', null, topic.topic), sections,
    topic.system ? null : h('div', {class: 'row'}, deleteButton)));
}
