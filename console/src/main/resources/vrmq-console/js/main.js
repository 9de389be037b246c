// The console's entry: finds out who served it, starts the metrics sampler, and shows the page named by the URL
// hash (#/cluster, #/topics, #/groups, #/messages, #/acl) without reloading.

import * as api from './api.js';
import * as history from './history.js';
import {wireTokenButton} from './token.js';
import {h, fill} from './dom.js';
import * as cluster from './pages/cluster.js';
import * as topics from './pages/topics.js';
import * as groups from './pages/groups.js';
import * as messages from './pages/messages.js';
import * as acl from './pages/acl.js';

const PAGES = {cluster, topics, groups, messages, acl};
let leave = () => {};

function route() {
  const name = (location.hash.replace(/^#\/?/, '') || 'cluster').split('/')[0];
  const page = PAGES[name] || cluster;
  document.querySelectorAll('header nav a').forEach(link =>
    link.classList.toggle('active', link.dataset.page === name));
  leave();
  const root = document.getElementById('page');
  root.dataset.page = name;
  leave = page.show(root) || (() => {});
}

async function start() {
  wireTokenButton();
  try {
    const mode = await api.detectMode();
    const self = api.self();
    document.getElementById('where').textContent = mode === 'namesrv' ? `NameServer console · ${location.host}`
      : `broker ${self.brokerName} (${self.brokerAddr}) · ${location.host}`;
  } catch (error) {
    fill(document.getElementById('page'), h('p', null, `This server has no console API: ${error.message}`));
    return;
  }
  history.start();
  window.addEventListener('hashchange', route);
  route();
  document.body.dataset.ready = 'true';
}

start();
