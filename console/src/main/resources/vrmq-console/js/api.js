// The console's view of the cluster. Served by a NameServer, it learns the live brokers and their admin addresses
// there and reaches each broker through the NameServer's /proxy/{brokerAddr}/ (one origin: no CORS, the token goes
// only to the broker). Served by a broker, it sees that broker alone.

import {authorization, askForToken} from './token.js';

export class ApiError extends Error {
  constructor(status, message, scheme) { super(message); this.status = status; this.scheme = scheme; }
}

let mode = null;          // 'namesrv' or 'broker'
let selfBroker = null;    // broker mode: this broker's identity

async function request(method, url, body) {
  const headers = {...authorization()};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store', credentials: 'omit'});
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
  if (!response.ok) {
    throw new ApiError(response.status, (json && json.error) || `${method} ${url}: HTTP ${response.status}`,
      response.headers.get('WWW-Authenticate'));
  }
  return json;
}

/** A write; on 401 asks for the credentials the broker named (token or Super user) once and retries. */
async function write(method, url, body) {
  try {
    return await request(method, url, body);
  } catch (error) {
    if (error.status === 401 && await askForToken(error.scheme)) return request(method, url, body);
    throw error;
  }
}

/** Which kind of server served the page; called once at start. */
export async function detectMode() {
  try {
    await request('GET', 'api/v1/console/brokers');
    mode = 'namesrv';
  } catch (error) {
    selfBroker = await request('GET', 'api/v1/console/broker');
    mode = 'broker';
  }
  return mode;
}

export function isNameServer() { return mode === 'namesrv'; }
export function self() { return selfBroker; }

function base(broker) {
  return mode === 'namesrv' ? `proxy/${encodeURIComponent(broker.brokerAddr)}/` : '';
}

/** Live brokers: {clusterName, brokerName, brokerId, brokerAddr, adminAddr, reachable}. */
export async function brokers() {
  if (mode === 'broker') {
    return [{...selfBroker, adminAddr: location.host, reachable: true}];
  }
  const answer = await request('GET', 'api/v1/console/brokers');
  return answer.brokers.map(broker => ({...broker, reachable: !!broker.adminAddr}));
}

/** The reachable masters (brokerId 0), where topics and groups are created and offsets live. */
export async function masters() {
  return (await brokers()).filter(broker => broker.reachable && broker.brokerId === 0);
}

export const get = (broker, path) => request('GET', base(broker) + path);
export const post = (broker, path, body) => write('POST', base(broker) + path, body);
export const put = (broker, path, body) => write('PUT', base(broker) + path, body);
export const del = (broker, path) => write('DELETE', base(broker) + path);
export const namesrv = path => request('GET', path);

export const enc = encodeURIComponent;
