// ACL 2.0: the users and ACLs of one broker (chosen among the masters; each broker keeps its own), listed, created,
// updated and deleted through the broker's /api/v1/users and /api/v1/acls. Passwords are never shown (only whether
// one is set); writes ask for the admin token or a Super user like every other write. A broker without ACL (no such
// API) says so.

import * as api from '../api.js';
import {h, fill, table, toast, formValues} from '../dom.js';

const ACTIONS = ['All', 'Pub', 'Sub', 'Create', 'Update', 'Delete', 'Get', 'List'];

export function show(root) {
  const brokerBox = h('div', {class: 'row'});
  const usersBox = h('div', {id: 'acl-users'}, h('p', {class: 'muted'}, 'Loading…'));
  const aclsBox = h('div', {id: 'acl-acls'});
  const userFormBox = h('div');
  const aclFormBox = h('div');
  fill(root, h('h2', null, 'ACL users and policies'), h('div', {class: 'panel'}, brokerBox),
    h('div', {class: 'panel'}, h('h3', null, 'Users'), usersBox, userFormBox),
    h('div', {class: 'panel'}, h('h3', null, 'ACLs'), aclsBox, aclFormBox));
  const state = {broker: null};
  const reload = async () => {
    if (!state.broker) return;
    try {
      const [users, acls] = await Promise.all([api.get(state.broker, 'api/v1/users'),
        api.get(state.broker, 'api/v1/acls')]);
      fill(usersBox, userTable(state.broker, users.users, reload));
      fill(aclsBox, aclTable(state.broker, acls.acls, reload));
      userForm(userFormBox, state.broker, users.users, reload);
      aclForm(aclFormBox, state.broker, users.users, reload);
    } catch (error) {
      const text = error.status === 404 ? `${state.broker.brokerName} has no ACL 2.0 (authenticationEnabled or `
        + 'authorizationEnabled is off, or its admin API has no users)' : `Could not load: ${error.message}`;
      fill(usersBox, h('p', {class: 'muted', id: 'acl-unavailable'}, text));
      fill(aclsBox);
      fill(userFormBox);
      fill(aclFormBox);
    }
  };
  api.masters().then(masters => {
    if (masters.length === 0) { fill(usersBox, h('p', {class: 'muted'}, 'No reachable master broker.')); return; }
    const select = h('select', {id: 'acl-broker'}, masters.map(broker =>
      h('option', {value: broker.brokerAddr}, `${broker.brokerName} (${broker.brokerAddr})`)));
    select.addEventListener('change', () => {
      state.broker = masters.find(broker => broker.brokerAddr === select.value);
      reload();
    });
    fill(brokerBox, h('label', null, 'Broker (each keeps its own users and ACLs)', select));
    state.broker = masters[0];
    reload();
  }).catch(error => fill(usersBox, h('p', {class: 'muted'}, `Could not list brokers: ${error.message}`)));
  return () => {};
}

function userTable(broker, users, reload) {
  const rows = users.map(user => {
    const remove = h('button', {type: 'button', class: 'danger', id: `user-delete-${user.username}`}, 'Delete');
    remove.addEventListener('click', async () => {
      if (!confirm(`Delete user ${user.username} on ${broker.brokerName}?`)) return;
      await save(() => api.del(broker, `api/v1/users/${api.enc(user.username)}`), `User ${user.username} deleted`,
        reload);
    });
    return h('tr', {dataset: {user: user.username}}, h('td', null, user.username), h('td', null, user.userType),
      h('td', null, user.userStatus), h('td', null, user.passwordSet ? 'set' : 'none'), h('td', null, remove));
  });
  if (rows.length === 0) rows.push(h('tr', null, h('td', {colspan: 5, class: 'muted'}, 'No user.')));
  return table(['User', 'Type', 'Status', 'Password', ''], rows, {id: 'user-table'});
}

function aclTable(broker, acls, reload) {
  const rows = [];
  for (const acl of acls) {
    for (const policy of acl.policies || []) {
      for (const entry of policy.entries || []) {
        const remove = h('button', {type: 'button', class: 'danger'}, 'Delete');
        remove.addEventListener('click', async () => {
          if (!confirm(`Delete ${acl.subject}'s ${policy.policyType} entry on ${entry.resource}?`)) return;
          const query = `?resource=${api.enc(entry.resource)}&policyType=${api.enc(policy.policyType || 'Custom')}`;
          await save(() => api.del(broker, `api/v1/acls/${api.enc(acl.subject)}${query}`),
            `ACL entry ${entry.resource} of ${acl.subject} deleted`, reload);
        });
        rows.push(h('tr', {dataset: {subject: acl.subject, resource: entry.resource}},
          h('td', null, acl.subject), h('td', null, policy.policyType), h('td', null, entry.resource),
          h('td', null, (entry.actions || []).join(', ')), h('td', null, (entry.sourceIps || []).join(', ')),
          h('td', null, entry.decision), h('td', null, remove)));
      }
    }
  }
  if (rows.length === 0) rows.push(h('tr', null, h('td', {colspan: 7, class: 'muted'}, 'No ACL.')));
  return table(['Subject', 'Policy', 'Resource', 'Actions', 'Source IPs', 'Decision', ''], rows, {id: 'acl-table'});
}

function userForm(box, broker, users, reload) {
  const form = h('form', {class: 'inline', id: 'user-form'},
    h('label', null, 'User', h('input', {name: 'username', id: 'user-name', required: true, autocomplete: 'off'})),
    h('label', null, 'Password', h('input', {name: 'password', id: 'user-password', type: 'password',
      autocomplete: 'new-password', placeholder: 'unchanged when empty on update'})),
    h('label', null, 'Type', h('select', {name: 'userType', id: 'user-type'},
      h('option', {value: 'Normal'}, 'Normal'), h('option', {value: 'Super'}, 'Super'))),
    h('label', null, 'Status', h('select', {name: 'userStatus', id: 'user-status'},
      h('option', {value: 'enable'}, 'enable'), h('option', {value: 'disable'}, 'disable'))),
    h('button', {type: 'submit', id: 'user-submit'}, 'Create / update'));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    const values = formValues(form);
    const username = values.username.trim();
    const body = {username, userType: values.userType, userStatus: values.userStatus};
    if (values.password !== '') body.password = values.password;
    const exists = users.some(user => user.username === username);
    form.querySelector('#user-password').value = '';
    await save(() => exists ? api.put(broker, `api/v1/users/${api.enc(username)}`, body)
      : api.post(broker, 'api/v1/users', body), `User ${username} ${exists ? 'updated' : 'created'}`, reload);
  });
  fill(box, h('h3', null, 'Create or update a user'), form);
}

function aclForm(box, broker, users, reload) {
  const form = h('form', {class: 'inline', id: 'acl-form'},
    h('label', null, 'User', h('select', {name: 'username', id: 'acl-user'},
      users.map(user => h('option', {value: user.username}, user.username)))),
    h('label', null, 'Resource', h('input', {name: 'resource', id: 'acl-resource', required: true,
      placeholder: 'Topic:orders, Group:g1, Topic:*', pattern: '(Any|Cluster|Namespace|Topic|Group):.+|\\*'})),
    h('label', null, 'Actions', h('span', {id: 'acl-actions'}, ACTIONS.map(action => h('span', null,
      h('input', {type: 'checkbox', name: `action:${action}`, value: action}), ` ${action} `)))),
    h('label', null, 'Source IPs', h('input', {name: 'sourceIps', id: 'acl-ips', placeholder: '10.0.0.0/8, …'})),
    h('label', null, 'Decision', h('select', {name: 'decision', id: 'acl-decision'},
      h('option', {value: 'Allow'}, 'Allow'), h('option', {value: 'Deny'}, 'Deny'))),
    h('button', {type: 'submit', id: 'acl-submit', disabled: users.length === 0}, 'Add'));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    const values = formValues(form);
    const actions = ACTIONS.filter(action => values[`action:${action}`]);
    if (actions.length === 0) { toast('Choose at least one action', true); return; }
    const sourceIps = values.sourceIps.split(',').map(ip => ip.trim()).filter(ip => ip !== '');
    const entry = {resource: values.resource.trim(), actions, decision: values.decision};
    if (sourceIps.length > 0) entry.sourceIps = sourceIps;
    const body = {subject: `User:${values.username}`, policies: [{policyType: 'Custom', entries: [entry]}]};
    await save(() => api.post(broker, 'api/v1/acls', body), `ACL for ${values.username} on ${entry.resource} saved`,
      reload);
  });
  fill(box, h('h3', null, 'Add an ACL entry'), users.length === 0
    ? h('p', {class: 'muted'}, 'Create a user first.') : form);
}

async function save(write, done, reload) {
  try {
    await write();
    toast(done);
    await reload();
  } catch (error) {
    toast(`Could not save: ${error.message}`, true);
  }
}
