// Interop checks driven by the JavaScript SDK's 0.3 client (@a2a-js/sdk
// 0.3.14): the 0.3 twin of interop/node/client_checks.mjs and
// interop/python03/client_checks.py, the same 24 checks in the same order
// under the same names, on the 0.3 shapes (`kind`-tagged parts, lower-case
// states, the Task as the push notification body, spec 0.3 section 9.5).
//
//   node client_checks.mjs --url URL --binding jsonrpc|rest [--bearer T] [--only a,b] [-v]
//
// ListTasks has no 0.3 method: that check prints SKIP with the reason.
// Prints PASS/FAIL/SKIP lines and `N passed, M failed[, K skipped]`.

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { parseArgs } from 'node:util';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/client';

const BINDINGS = { jsonrpc: 'JSONRPC', rest: 'HTTP+JSON' };
const TRANSPORTS = { JSONRPC: 'JsonRpcTransport', 'HTTP+JSON': 'RestTransport' };
const TERMINAL = new Set(['completed', 'failed', 'canceled', 'rejected']);
const CHECK_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 15_000;

class Skip extends Error {}
function assert(cond, why) {
  if (!cond) throw new assert.Failure(why);
}
assert.Failure = class extends Error {};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const textOf = (parts) => (parts ?? []).filter((p) => p.kind === 'text').map((p) => p.text).join('');
const copy = (v) => JSON.parse(JSON.stringify(v));
const finalState = (e) => (e.kind === 'status-update' || e.kind === 'task' ? e.status?.state : undefined);

function userMessage(text, { messageId, taskId, contextId } = {}) {
  return { kind: 'message', messageId: messageId ?? `js03-${randomUUID()}`, role: 'user', parts: [{ kind: 'text', text }], taskId, contextId };
}

// An SDK error's A2A identity: the typed error, or the JSON-RPC code / HTTP
// status in its message (the 0.3 transports throw plain Errors otherwise).
function errorIs(e, type, codes) {
  if (type && e instanceof type) return true;
  const m = String(e?.message ?? '');
  return codes.some((c) => m.includes(String(c)));
}

class Webhook {
  posts = [];
  async start() {
    this.server = http.createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        let json = null;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {}
        this.posts.push({ path: req.url, headers: req.headers, json });
        res.writeHead(200, { 'Content-Length': '0' }).end();
      });
    });
    await new Promise((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = this.server.address().port;
  }
  url(path) {
    return `http://127.0.0.1:${this.port}${path}`;
  }
  received(path) {
    return this.posts.filter((p) => p.path === path);
  }
  close() {
    this.server?.closeAllConnections?.();
    this.server?.close();
  }
}

class Checks {
  constructor({ url, binding, bearer, verbose }) {
    this.url = url.replace(/\/+$/, '');
    this.binding = BINDINGS[binding];
    this.bearer = bearer;
    this.verbose = verbose;
    this.state = {};
  }

  fetchWith(bearer) {
    return (input, init = {}) => {
      const headers = new Headers(init.headers);
      if (bearer) headers.set('Authorization', `Bearer ${bearer}`);
      return fetch(input, { ...init, headers, signal: init.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    };
  }

  async makeClient(bearer = this.bearer) {
    const fetchImpl = this.fetchWith(bearer);
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
      preferredTransports: [this.binding],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    });
    return factory.createFromUrl(this.url);
  }

  async setup() {
    this.client = await this.makeClient();
    this.publicCard = await new DefaultAgentCardResolver({ fetchImpl: this.fetchWith(this.bearer) }).resolve(this.url);
  }

  close() {
    this.webhook?.close();
  }

  log(...args) {
    if (this.verbose) console.error('   ', ...args);
  }

  params(text, { blocking = true, ...ids } = {}) {
    return { message: userMessage(text, ids), configuration: { blocking } };
  }

  async sendTask(text, opts) {
    const result = await this.client.sendMessage(this.params(text, opts));
    assert(result.kind === 'task', `expected a Task, got ${result.kind}`);
    return result;
  }

  async stream(gen) {
    const events = [];
    for await (const e of gen) events.push(copy(e));
    this.log('stream ->', events.map((e) => e.kind));
    return events;
  }

  async card() {
    const card = this.publicCard;
    assert(card.name, 'card has no name');
    const offered = { [card.preferredTransport ?? 'JSONRPC']: card.url };
    for (const i of card.additionalInterfaces ?? []) offered[i.transport] = i.url;
    assert(offered[this.binding], `card offers ${Object.keys(offered)}, not ${this.binding}`);
    assert(String(card.protocolVersion).startsWith('0.3'), `protocolVersion ${card.protocolVersion}`);
    assert(card.capabilities?.streaming, 'card does not declare streaming');
    assert(card.capabilities?.pushNotifications, 'card does not declare push notifications');
    const chosen = this.client.transport.constructor.name.replace(/^_+/, '');
    assert(chosen === TRANSPORTS[this.binding], `SDK chose ${chosen}, wanted ${TRANSPORTS[this.binding]}`);
  }

  async send_blocking() {
    const task = await this.sendTask('echo hello interop');
    assert(task.status.state === 'completed', task.status.state);
    assert(task.id && task.contextId, 'task id or context id missing');
    const texts = (task.artifacts ?? []).map((a) => textOf(a.parts));
    assert(JSON.stringify(texts) === '["hello interop"]', `artifacts ${JSON.stringify(texts)}`);
    this.state.completed = task;
  }

  async send_nonblocking_poll() {
    const task = await this.sendTask('slow 800', { blocking: false });
    assert(['submitted', 'working'].includes(task.status.state), `blocking=false: ${task.status.state}`);
    const seen = [task.status.state];
    let got = task;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !TERMINAL.has(got.status.state)) {
      await sleep(100);
      got = await this.client.getTask({ id: task.id });
      if (got.status.state !== seen.at(-1)) seen.push(got.status.state);
    }
    assert(seen.at(-1) === 'completed', `states seen ${seen}`);
    const names = (got.artifacts ?? []).map((a) => a.name);
    assert(JSON.stringify(names) === '["slow"]', `artifacts ${names}`);
  }

  async direct_message() {
    const msg = await this.client.sendMessage(this.params('message hi there'));
    assert(msg.kind === 'message', `expected a Message, got ${msg.kind}`);
    assert(msg.role === 'agent', `role ${msg.role}`);
    assert(textOf(msg.parts) === 'hi there', `text ${textOf(msg.parts)}`);
    assert(msg.messageId, 'message has no messageId');
  }

  async stream_chunks() {
    const events = await this.stream(this.client.sendMessageStream(this.params('stream 3')));
    assert(events[0]?.kind === 'task', `stream starts with ${events[0]?.kind}`);
    const chunks = events.filter((e) => e.kind === 'artifact-update');
    assert(chunks.length === 3, `${chunks.length} artifact updates`);
    assert(JSON.stringify(chunks.map((c) => Boolean(c.append))) === '[false,true,true]', 'append');
    assert(JSON.stringify(chunks.map((c) => Boolean(c.lastChunk))) === '[false,false,true]', 'lastChunk');
    assert(new Set(chunks.map((c) => c.artifact.artifactId)).size === 1, 'chunks of different artifacts');
    const text = chunks.map((c) => textOf(c.artifact.parts)).join('');
    assert(text === 'chunk 1 chunk 2 chunk 3 ', `text ${JSON.stringify(text)}`);
    const last = events.at(-1);
    assert(last.kind === 'status-update' && last.final && last.status.state === 'completed', `stream ends ${JSON.stringify(last).slice(0, 200)}`);
    assert(chunks.every((c) => c.taskId === events[0].id), 'artifact update for another task');
  }

  async multi_turn() {
    const task = await this.sendTask('input');
    assert(task.status.state === 'input-required', task.status.state);
    assert(textOf(task.status.message?.parts) === 'need input', 'status message');
    const done = await this.sendTask('more please', { taskId: task.id, contextId: task.contextId });
    assert(done.id === task.id && done.contextId === task.contextId, 'follow-up landed elsewhere');
    assert(done.status.state === 'completed', done.status.state);
    const texts = (done.artifacts ?? []).map((a) => textOf(a.parts));
    assert(texts.includes('got: more please'), `artifacts ${texts}`);
    this.state.multiTurn = done;
  }

  async auth_required() {
    const task = await this.sendTask('auth');
    assert(task.status.state === 'auth-required', task.status.state);
    assert(textOf(task.status.message?.parts), 'auth-required without a status message');
    const done = await this.sendTask('here are my credentials', { taskId: task.id, contextId: task.contextId });
    assert(done.id === task.id && done.status.state === 'completed', `follow-up ${done.status.state}`);
    assert((done.artifacts ?? []).map((a) => textOf(a.parts)).includes('got: here are my credentials'), 'artifacts');
  }

  async get_history_length() {
    const task = this.state.multiTurn;
    if (!task) throw new Skip('needs multi_turn');
    const full = await this.client.getTask({ id: task.id });
    const users = (full.history ?? []).filter((m) => m.role === 'user');
    assert(users.length >= 2, `full history has ${users.length} user messages`);
    const one = await this.client.getTask({ id: task.id, historyLength: 1 });
    assert((one.history ?? []).length === 1, `historyLength=1 gave ${(one.history ?? []).length} messages`);
    assert(one.history[0].messageId === full.history.at(-1).messageId, 'historyLength=1 is not the latest');
  }

  async list_paging() {
    throw new Skip('ListTasks has no A2A 0.3 method (tasks/list is 1.0 only)');
  }

  async cancel() {
    const task = await this.sendTask('slow 5000', { blocking: false });
    const canceled = await this.client.cancelTask({ id: task.id });
    assert(canceled.id === task.id, 'cancel answered another task');
    assert(canceled.status.state === 'canceled', canceled.status.state);
    const got = await this.client.getTask({ id: task.id });
    assert(got.status.state === 'canceled', `get after cancel: ${got.status.state}`);
  }

  async subscribe() {
    const task = await this.sendTask('slow 1500', { blocking: false });
    const events = await this.stream(this.client.resubscribeTask({ id: task.id }));
    assert(events.length, 'resubscribe streamed nothing');
    assert((events[0].id ?? events[0].taskId) === task.id, 'first event is another task');
    assert(finalState(events.at(-1)) === 'completed', `ends ${finalState(events.at(-1))}`);
  }

  async push_create() {
    this.webhook = new Webhook();
    await this.webhook.start();
    const task = await this.sendTask('slow 2000', { blocking: false });
    const a = await this.client.setTaskPushNotificationConfig({
      taskId: task.id,
      pushNotificationConfig: {
        url: this.webhook.url('/hook/a'),
        token: 'tok-a',
        authentication: { schemes: ['Bearer'], credentials: 'push-secret' },
      },
    });
    const chosen = `cfg-b-${randomUUID()}`;
    const b = await this.client.setTaskPushNotificationConfig({
      taskId: task.id,
      pushNotificationConfig: { id: chosen, url: this.webhook.url('/hook/b'), token: 'tok-b' },
    });
    assert(b.pushNotificationConfig.id === chosen, `config id ${chosen} came back as ${b.pushNotificationConfig.id}`);
    for (const [cfg, path] of [[a, '/hook/a'], [b, '/hook/b']]) {
      assert(cfg.taskId === task.id, `config taskId ${cfg.taskId}`);
      assert(cfg.pushNotificationConfig.url === this.webhook.url(path), 'config url');
    }
    assert(a.pushNotificationConfig.id !== b.pushNotificationConfig.id, 'two configs got the same id');
    this.state.push = { task, a, b };
  }

  pushState() {
    if (!this.state.push) throw new Skip('needs push_create');
    return this.state.push;
  }

  async push_get() {
    const { task, a, b } = this.pushState();
    for (const [cfg, token] of [[a, 'tok-a'], [b, 'tok-b']]) {
      const got = await this.client.getTaskPushNotificationConfig({ id: task.id, pushNotificationConfigId: cfg.pushNotificationConfig.id });
      const p = got.pushNotificationConfig;
      assert(p.id === cfg.pushNotificationConfig.id && p.url === cfg.pushNotificationConfig.url && p.token === token, `got ${JSON.stringify(got)}`);
    }
  }

  async push_list() {
    const { task, a, b } = this.pushState();
    const listed = await this.client.listTaskPushNotificationConfig({ id: task.id });
    const ids = listed.map((c) => c.pushNotificationConfig.id).sort();
    assert(JSON.stringify(ids) === JSON.stringify([a, b].map((c) => c.pushNotificationConfig.id).sort()), `listed ${ids}`);
  }

  async waitForCompletion(path) {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (this.webhook.received(path).some((p) => p.json?.status?.state === 'completed')) return this.webhook.received(path);
      await sleep(100);
    }
    throw new assert.Failure(`no completed notification at ${path} in 10 s (${this.webhook.received(path).length} POSTs)`);
  }

  async push_delivery() {
    const { task } = this.pushState();
    for (const post of await this.waitForCompletion('/hook/a')) {
      // spec 0.3 section 9.5: the Task object is the payload
      assert(post.json?.id === task.id, `notification body ${JSON.stringify(post.json).slice(0, 200)}`);
      assert(post.json.kind === 'task', `notification kind ${post.json.kind}`);
      assert(String(post.headers['content-type']).includes('json'), 'Content-Type');
    }
  }

  async push_token() {
    this.pushState();
    for (const post of await this.waitForCompletion('/hook/b')) {
      const token = post.headers['x-a2a-notification-token'];
      assert(token === 'tok-b', `X-A2A-Notification-Token ${token}`);
    }
  }

  async push_delete() {
    const { task, a, b } = this.pushState();
    const del = { id: task.id, pushNotificationConfigId: a.pushNotificationConfig.id };
    await this.client.deleteTaskPushNotificationConfig(del);
    const ids = (await this.client.listTaskPushNotificationConfig({ id: task.id })).map((c) => c.pushNotificationConfig.id);
    assert(!ids.includes(a.pushNotificationConfig.id) && ids.includes(b.pushNotificationConfig.id), `after delete, listed ${ids}`);
  }

  async push_ids_distinct() {
    if (!this.webhook) throw new Skip('needs push_create');
    const task = await this.sendTask('slow 2000', { blocking: false });
    const ids = [];
    for (const i of [1, 2]) {
      const c = await this.client.setTaskPushNotificationConfig({ taskId: task.id, pushNotificationConfig: { url: this.webhook.url(`/hook/c${i}`) } });
      ids.push(c.pushNotificationConfig.id);
    }
    assert(ids.every(Boolean) && ids[0] !== ids[1], `two configs created without ids got ids ${ids}`);
    const listed = (await this.client.listTaskPushNotificationConfig({ id: task.id })).map((c) => c.pushNotificationConfig.id);
    assert(JSON.stringify(listed.sort()) === JSON.stringify(ids.sort()), `listed ${listed}`);
  }

  async extended_card() {
    if (!this.bearer) throw new Skip('no --bearer given');
    assert(this.publicCard.supportsAuthenticatedExtendedCard, 'card does not declare supportsAuthenticatedExtendedCard');
    const ext = await this.client.getAgentCard();
    assert(ext.name, 'extended card has no name');
    assert(ext.skills.length > this.publicCard.skills.length, `extended ${ext.skills.length} skills, public ${this.publicCard.skills.length}`);
  }

  async extended_card_unauthenticated() {
    if (!this.bearer) throw new Skip('no --bearer given');
    const anonymous = await this.makeClient(null);
    let card;
    try {
      card = await anonymous.getAgentCard();
    } catch (e) {
      this.log('unauthenticated extended card ->', e?.message);
      return;
    }
    throw new assert.Failure(`extended card served without credentials (${card.skills.length} skills)`);
  }

  async error_unknown_task() {
    try {
      await this.client.getTask({ id: `no-such-task-${randomUUID()}` });
    } catch (e) {
      assert(errorIs(e, TaskNotFoundError, [-32001, 'Status: 404']), `${e?.name}: ${e?.message}, not TaskNotFound`);
      return;
    }
    throw new assert.Failure('tasks/get of an unknown task succeeded');
  }

  async error_cancel_completed() {
    const task = this.state.completed ?? (await this.sendTask('echo done'));
    try {
      const got = await this.client.cancelTask({ id: task.id });
      throw new assert.Failure(`cancel of a completed task answered ${got.status.state}`);
    } catch (e) {
      if (e instanceof assert.Failure) throw e;
      // spec 0.3 section 3.2.3 asks only for an "appropriate" HTTP status: 400 or 409
      assert(errorIs(e, TaskNotCancelableError, [-32002, 'Status: 400', 'Status: 409']), `${e?.name}: ${e?.message}, not TaskNotCancelable`);
    }
  }

  async error_subscribe_terminal() {
    // 0.3 leaves the answer open (spec 0.3 section 7.9): an A2A error, or a
    // stream that ends in the terminal state.
    const task = this.state.completed ?? (await this.sendTask('echo done'));
    let events;
    try {
      events = await this.stream(this.client.resubscribeTask({ id: task.id }));
    } catch (e) {
      const typed = [UnsupportedOperationError, TaskNotFoundError].some((t) => e instanceof t);
      assert(typed || /-32\d\d\d|Status: 4\d\d/.test(String(e?.message)), `resubscribe to a completed task: ${e?.name}: ${e?.message}`);
      return;
    }
    assert(events.length && finalState(events.at(-1)) === 'completed', `resubscribe streamed ${events.map((e) => e.kind)}`);
  }

  async part_shapes() {
    const onlyPart = async (prefix) => {
      const task = await this.sendTask('x', { messageId: `${prefix}-${randomUUID()}` });
      assert(task.status.state === 'completed', task.status.state);
      const parts = (task.artifacts ?? []).flatMap((a) => a.parts);
      assert(parts.length === 1, `${parts.length} parts`);
      return parts[0];
    };
    const data = await onlyPart('tck-artifact-data');
    assert(data.kind === 'data' && data.data?.key === 'value' && data.data?.count === 42, `data part ${JSON.stringify(data)}`);
    const raw = await onlyPart('tck-artifact-file');
    assert(raw.kind === 'file' && Buffer.from(raw.file?.bytes ?? '', 'base64').toString() === 'tck', `file part ${JSON.stringify(raw)}`);
    const uri = await onlyPart('tck-artifact-file-url');
    assert(uri.kind === 'file' && uri.file?.uri === 'https://example.com/output.txt', `file part ${JSON.stringify(uri)}`);
  }
}

const ORDER = [
  'card', 'send_blocking', 'send_nonblocking_poll', 'direct_message', 'stream_chunks', 'multi_turn',
  'auth_required', 'get_history_length', 'list_paging', 'cancel', 'subscribe', 'push_create', 'push_get',
  'push_list', 'push_delivery', 'push_token', 'push_delete', 'push_ids_distinct', 'extended_card',
  'extended_card_unauthenticated', 'error_unknown_task', 'error_cancel_completed', 'error_subscribe_terminal',
  'part_shapes',
];

function withTimeout(promise, ms) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new assert.Failure(`timed out after ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function main() {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      binding: { type: 'string' },
      bearer: { type: 'string' },
      only: { type: 'string' },
      verbose: { type: 'boolean', short: 'v', default: false },
    },
  });
  if (!values.url || !BINDINGS[values.binding]) {
    console.error('usage: node client_checks.mjs --url URL --binding jsonrpc|rest [--bearer TOKEN] [--only a,b] [-v]');
    process.exit(2);
  }
  const checks = new Checks(values);
  const only = values.only ? new Set(values.only.split(',')) : null;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  try {
    await withTimeout(checks.setup(), CHECK_TIMEOUT_MS);
  } catch (e) {
    console.log(`FAIL card: could not create a client from ${values.url}: ${e?.name}: ${e?.message}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  for (const name of ORDER) {
    if (only && !only.has(name)) continue;
    try {
      await withTimeout(checks[name](), CHECK_TIMEOUT_MS);
      passed++;
      console.log(`PASS ${name}`);
    } catch (e) {
      if (e instanceof Skip) {
        skipped++;
        console.log(`SKIP ${name}: ${e.message}`);
      } else {
        failed++;
        const why = e instanceof assert.Failure ? e.message : `${e?.name}: ${e?.message}`;
        console.log(`FAIL ${name}: ${why}`.replace(/\s+/g, ' ').slice(0, 400));
      }
    }
  }
  checks.close();
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(failed ? 1 : 0);
}

main();
