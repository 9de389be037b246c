// Messages: find by message id, by key, or by queue and offset; browse a group's dead letters; show properties and
// the body as text or hex; resend a message to one consumer group.

import * as api from '../api.js';
import {h, fill, table, time, toast, formValues} from '../dom.js';

const TABS = [['key', 'By key'], ['id', 'By message id'], ['place', 'By queue and offset'], ['dlq', 'Dead letters']];

export function show(root) {
  const formBox = h('div', {class: 'panel'});
  const resultBox = h('div', {id: 'message-results'});
  const detailBox = h('div', {id: 'message-detail'});
  const tabs = h('div', {class: 'tabs'}, TABS.map(([id, text]) => h('button', {type: 'button', dataset: {tab: id},
    id: `tab-${id}`, onclick: () => select(id)}, text)));
  fill(root, h('h2', null, 'Messages'), tabs, formBox, resultBox, detailBox);
  const context = {resultBox, detailBox};
  const select = async id => {
    tabs.querySelectorAll('button').forEach(b => b.classList.toggle('active', b.dataset.tab === id));
    fill(resultBox);
    fill(detailBox);
    fill(formBox, await FORMS[id](context));
  };
  select('key');
  return () => {};
}

const FORMS = {
  async key(context) {
    const form = h('form', {class: 'inline', id: 'key-form'},
      h('label', null, 'Topic', h('input', {name: 'topic', id: 'key-topic', required: true})),
      h('label', null, 'Key', h('input', {name: 'key', id: 'key-key', required: true})),
      h('button', {type: 'submit', id: 'key-submit'}, 'Search'));
    form.addEventListener('submit', submit(form, context, async values => {
      const brokers = await brokersOf(values.topic);
      const answers = await Promise.all(brokers.map(async broker => (await api.get(broker,
        `api/v1/messages?topic=${api.enc(values.topic)}&key=${api.enc(values.key)}&maxNum=32`)).messages
        .map(message => ({broker, message}))));
      return answers.flat();
    }));
    return form;
  },
  async id(context) {
    const form = h('form', {class: 'inline', id: 'id-form'},
      h('label', null, 'Message id (offset id, or unique key with a topic)', h('input', {name: 'msgId', size: 40,
        id: 'id-msgid', required: true})),
      h('label', null, 'Topic (for a unique key)', h('input', {name: 'topic', id: 'id-topic'})),
      h('button', {type: 'submit', id: 'id-submit'}, 'Find'));
    form.addEventListener('submit', submit(form, context, async values => {
      const brokers = values.topic ? await brokersOf(values.topic) : await candidatesForId(values.msgId.trim());
      const query = values.topic ? `?topic=${api.enc(values.topic)}` : '';
      const found = await Promise.allSettled(brokers.map(async broker => ({broker,
        message: await api.get(broker, `api/v1/messages/${api.enc(values.msgId.trim())}${query}`)})));
      return found.filter(f => f.status === 'fulfilled').map(f => f.value);
    }));
    return form;
  },
  async place(context) {
    const masters = await api.masters();
    const form = h('form', {class: 'inline', id: 'place-form'},
      h('label', null, 'Broker', h('select', {name: 'broker'}, masters.map(b =>
        h('option', {value: b.brokerAddr}, b.brokerName)))),
      h('label', null, 'Topic', h('input', {name: 'topic', required: true})),
      h('label', null, 'Queue', h('input', {name: 'queueId', type: 'number', min: 0, value: 0})),
      h('label', null, 'Offset', h('input', {name: 'offset', type: 'number', min: 0, value: 0})),
      h('button', {type: 'submit'}, 'Show'));
    form.addEventListener('submit', submit(form, context, async values => {
      const broker = masters.find(b => b.brokerAddr === values.broker);
      return [{broker, message: await api.get(broker, `api/v1/messages?topic=${api.enc(values.topic)}`
        + `&queueId=${api.enc(values.queueId)}&offset=${api.enc(values.offset)}`)}];
    }));
    return form;
  },
  async dlq(context) {
    const form = h('form', {class: 'inline', id: 'dlq-form'},
      h('label', null, 'Consumer group', h('input', {name: 'group', id: 'dlq-group', required: true})),
      h('button', {type: 'submit', id: 'dlq-submit'}, 'Browse dead letters'));
    form.addEventListener('submit', submit(form, context, async values => {
      const topic = `%DLQ%${values.group.trim()}`;
      const found = [];
      for (const broker of await api.masters()) {
        try {
          const page = await api.get(broker, `api/v1/topics/${api.enc(topic)}/queues/0/messages?maxNum=32`);
          page.messages.forEach(message => found.push({broker, message}));
        } catch (error) {
          if (error.status !== 404) throw error;
        }
      }
      return found.reverse();
    }, values => values.group.trim()));
    return form;
  },
};

let searchNumber = 0;

/**
 * A submit handler: runs find(values), lists what it found; resendTo(values) preselects the resend group. Only the
 * latest search may draw: an earlier one that answers late must not replace what the user is looking at.
 */
function submit(form, {resultBox, detailBox}, find, resendTo = () => '') {
  return async event => {
    event.preventDefault();
    const number = ++searchNumber;
    const values = formValues(form);
    fill(resultBox, h('div', {class: 'panel'}, h('p', {class: 'muted'}, 'Searching…')));
    fill(detailBox);
    try {
      const found = await find(values);
      if (number !== searchNumber) return;
      fill(resultBox, h('div', {class: 'panel'}, h('p', {class: 'muted'}, `${found.length} message`
        + `${found.length === 1 ? '' : 's'}`), resultTable(found, item => showMessage(detailBox, item,
        resendTo(values)))));
      if (found.length === 1) showMessage(detailBox, found[0], resendTo(values));
    } catch (error) {
      if (number !== searchNumber) return;
      fill(resultBox, h('div', {class: 'panel'}, h('p', {class: 'muted'}, `Not found: ${error.message}`)));
    }
  };
}

function resultTable(found, onSelect) {
  return table(['Message id', 'Topic', 'Queue#', 'Offset#', 'Tags', 'Keys', 'Stored', 'Broker'],
    found.map(item => h('tr', {class: 'clickable', dataset: {msgid: item.message.msgId},
        onclick: () => onSelect(item)},
      h('td', null, item.message.msgId), h('td', null, item.message.topic),
      h('td', {class: 'num'}, item.message.queueId), h('td', {class: 'num'}, item.message.queueOffset),
      h('td', null, item.message.tags || ''), h('td', null, (item.message.keys || []).join(' ')),
      h('td', null, time(item.message.storeTimestamp)), h('td', null, item.broker.brokerName))),
    {id: 'message-table'});
}

function showMessage(box, {broker, message}, resendGroup) {
  const bodyBox = h('pre', {class: 'body', id: 'message-body'});
  const asText = () => bodyBox.textContent = message.bodyEncoding === 'utf-8' ? message.body
    : `(not UTF-8: ${message.bodyBytes} bytes, shown as hex)\n${hex(bodyBytes(message))}`;
  const asHex = () => bodyBox.textContent = hex(bodyBytes(message));
  asText();
  const group = h('input', {name: 'group', id: 'resend-group', placeholder: 'consumer group', value: resendGroup,
    required: true});
  const resend = h('form', {class: 'inline'}, h('label', null, 'Resend to group', group),
    h('button', {type: 'submit', id: 'resend-submit'}, 'Resend'));
  resend.addEventListener('submit', async event => {
    event.preventDefault();
    try {
      const answer = await api.post(broker, `api/v1/messages/${api.enc(message.msgId)}/resend`,
        {group: group.value.trim()});
      toast(`Resent to ${answer.topic} (queue ${answer.queueId}, offset ${answer.queueOffset})`);
    } catch (error) {
      toast(`Could not resend: ${error.message}`, true);
    }
  });
  const facts = [['Message id', message.msgId], ['Unique key', message.uniqKey], ['Topic', message.topic],
    ['Queue / offset', `${message.queueId} / ${message.queueOffset}`], ['Commit-log offset', message.commitLogOffset],
    ['Tags', message.tags], ['Keys', (message.keys || []).join(' ')], ['Born', `${time(message.bornTimestamp)} from `
      + message.bornHost], ['Stored', `${time(message.storeTimestamp)} on ${broker.brokerName}`],
    ['Reconsume times', message.reconsumeTimes], ['Body', `${message.bodyBytes} bytes${message.compressed
      ? ', compressed' : ''}`]];
  fill(box, h('div', {class: 'panel', id: 'message-panel'},
    h('h3', null, 'Message'),
    table(['Field', 'Value'], facts.map(([name, value]) => h('tr', null, h('td', null, name),
      h('td', null, value === undefined || value === null ? '–' : String(value)))), {class: 'kv'}),
    h('h3', null, 'Body'),
    h('div', {class: 'row'}, h('button', {type: 'button', class: 'quiet', id: 'body-text', onclick: asText}, 'Text'),
      h('button', {type: 'button', class: 'quiet', id: 'body-hex', onclick: asHex}, 'Hex')),
    bodyBox,
    h('h3', null, 'Properties'),
    table(['Name', 'Value'], Object.entries(message.properties || {}).map(([name, value]) =>
      h('tr', null, h('td', null, name), h('td', null, value))), {class: 'kv'}),
    h('h3', null, 'Resend'), resend));
}

function bodyBytes(message) {
  if (message.bodyEncoding === 'utf-8') return new TextEncoder().encode(message.body);
  return Uint8Array.from(atob(message.body), c => c.charCodeAt(0));
}

/** Classic hex dump: offset, 16 bytes, their ASCII. */
export function hex(bytes) {
  const lines = [];
  for (let at = 0; at < bytes.length; at += 16) {
    const chunk = bytes.slice(at, at + 16);
    const hexPart = [...chunk].map(b => b.toString(16).padStart(2, '0')).join(' ').padEnd(47);
    const text = [...chunk].map(b => b >= 32 && b < 127 ? String.fromCharCode(b) : '.').join('');
    lines.push(`${at.toString(16).padStart(8, '0')}  ${hexPart}  ${text}`);
  }
  return lines.join('\n');
}

/** The masters that have the topic. */
async function brokersOf(topic) {
  const masters = await api.masters();
  const has = await Promise.all(masters.map(async broker => {
    try {
      await api.get(broker, `api/v1/topics/${api.enc(topic)}/status`);
      return true;
    } catch (error) {
      return false;
    }
  }));
  const found = masters.filter((broker, index) => has[index]);
  if (found.length === 0) throw new Error(`no broker has topic ${topic}`);
  return found;
}

/** An offset id names the storing broker's address (IPv4: 8 hex digits of address, 8 of port): try it first. */
async function candidatesForId(msgId) {
  const all = (await api.brokers()).filter(b => b.reachable);
  if (/^[0-9a-fA-F]{32}$/.test(msgId)) {
    const ip = [0, 2, 4, 6].map(i => parseInt(msgId.slice(i, i + 2), 16)).join('.');
    const port = parseInt(msgId.slice(8, 16), 16);
    const owner = all.filter(b => b.brokerAddr === `${ip}:${port}`);
    if (owner.length) return owner;
  }
  return all;
}
