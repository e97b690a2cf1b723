// Interop checks driven by the official JavaScript SDK client (@a2a-js/sdk
// 1.3.0). Point it at any A2A 1.0 agent implementing the reference agent's
// message-text contract (issue 6): the a2a-core reference agent, or the SDK
// agents in interop/. Every check is a real assertion on what came back.
//
//   node client_checks.mjs --url http://127.0.0.1:8080 --binding jsonrpc|rest|grpc
//                          [--bearer TOKEN] [--only NAME,NAME] [-v]
//
// With --binding grpc the card still comes over HTTP from --url; the SDK's
// GrpcTransportFactory (@a2a-js/sdk/client/grpc, on @grpc/grpc-js) then
// calls the card's `GRPC` interface (a `host:port`, spec 10 / proto
// AgentInterface.url) over cleartext HTTP/2, the bearer token going as
// `authorization` metadata through a grpc-js call interceptor (spec 10.2).
// The same 24 checks run on every binding: they are written against the
// SDK's Client API, and push delivery is HTTP whatever the binding.
//
// Prints `PASS name`, `FAIL name: why` or `SKIP name: why` per check and ends
// with `N passed, M failed[, K skipped]`; exits 1 when a check failed.
//
// The push checks start a webhook receiver on 127.0.0.1 (the agent must be
// allowed to deliver to loopback).

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { Role, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import * as grpc from '@grpc/grpc-js';
import { A2AError, TaskNotCancelableError, TaskNotFoundError, UnsupportedOperationError } from '@a2a-js/sdk/errors';

const BINDINGS = { jsonrpc: 'JSONRPC', rest: 'HTTP+JSON', grpc: 'GRPC' };
const TERMINAL = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);
const CHECK_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 15_000;

class Skip extends Error {}

function assert(cond, why) {
  if (!cond) throw new assert.Failure(why);
}
assert.Failure = class extends Error {};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const stateName = (s) => taskStateToJSON(s);
const textOf = (parts) => (parts ?? []).filter((p) => p.content?.$case === 'text').map((p) => p.content.value).join('');
const isMessage = (result) => 'messageId' in result;
const eq = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function userMessage(text, { messageId, taskId = '', contextId = '' } = {}) {
  return {
    messageId: messageId ?? `js-${randomUUID()}`,
    contextId,
    taskId,
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

// --- the webhook receiver ---------------------------------------------------

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

// --- the checks -------------------------------------------------------------

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

  // The three transport factories, each sending `bearer` (none when
  // undefined): an HTTP header, or gRPC metadata added by a call interceptor
  // (grpc-js refuses call credentials on an insecure channel).
  transports(bearer) {
    const fetchImpl = this.fetchWith(bearer);
    const interceptors = bearer
      ? [
          (options, nextCall) =>
            new grpc.InterceptingCall(nextCall(options), {
              start(metadata, listener, next) {
                metadata.set('authorization', `Bearer ${bearer}`);
                next(metadata, listener);
              },
            }),
        ]
      : [];
    return [
      new JsonRpcTransportFactory({ fetchImpl }),
      new RestTransportFactory({ fetchImpl }),
      new GrpcTransportFactory({ grpcCallOptions: { interceptors } }),
    ];
  }

  async makeClient(bearer = this.bearer) {
    const factory = new ClientFactory({
      transports: this.transports(bearer),
      preferredTransports: [this.binding],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: this.fetchWith(bearer) }),
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

  request(text, { returnImmediately = false, ...ids } = {}) {
    return {
      tenant: '',
      message: userMessage(text, ids),
      configuration: {
        acceptedOutputModes: [],
        taskPushNotificationConfig: undefined,
        returnImmediately,
      },
      metadata: undefined,
    };
  }

  async send(text, opts) {
    const result = await this.client.sendMessage(this.request(text, opts));
    this.log(text, '->', isMessage(result) ? 'message' : `task ${stateName(result.status?.state)}`);
    return result;
  }

  async sendTask(text, opts) {
    const result = await this.send(text, opts);
    assert(!isMessage(result), `expected a Task, got a Message`);
    return result;
  }

  async stream(gen) {
    const events = [];
    for await (const e of gen) events.push(e);
    this.log('stream ->', events.map((e) => e.payload?.$case));
    return events;
  }

  finalState(event) {
    const p = event.payload;
    return p.$case === 'statusUpdate' ? p.value.status?.state : p.$case === 'task' ? p.value.status?.state : undefined;
  }

  getTask(id, historyLength) {
    return this.client.getTask({ tenant: '', id, historyLength });
  }

  async card() {
    const card = this.publicCard;
    const ifaces = card.supportedInterfaces ?? [];
    const mine = ifaces.find((i) => i.protocolBinding === this.binding);
    assert(card.name, 'card has no name');
    assert(mine, `card offers ${ifaces.map((i) => i.protocolBinding)}, not ${this.binding}`);
    assert(mine.protocolVersion === '1.0', `${this.binding} interface has protocolVersion ${mine.protocolVersion}`);
    assert(card.capabilities?.streaming, 'card does not declare streaming');
    assert(card.capabilities?.pushNotifications, 'card does not declare push notifications');
    assert(this.client.transport.protocolName === this.binding, `SDK chose ${this.client.transport.protocolName}`);
    assert(this.client.protocolVersion === '1.0', `SDK speaks A2A-Version ${this.client.protocolVersion}`);
  }

  async send_blocking() {
    const task = await this.sendTask('echo hello interop');
    assert(task.status?.state === TaskState.TASK_STATE_COMPLETED, stateName(task.status?.state));
    assert(task.id && task.contextId, 'task id or context id missing');
    const texts = task.artifacts.map((a) => textOf(a.parts));
    assert(eq(texts, ['hello interop']), `artifacts ${JSON.stringify(texts)}`);
    assert(task.status.timestamp, 'status has no timestamp');
    this.state.completedTask = task;
  }

  async send_nonblocking_poll() {
    const task = await this.sendTask('slow 800', { returnImmediately: true });
    const first = task.status?.state;
    assert(
      first === TaskState.TASK_STATE_SUBMITTED || first === TaskState.TASK_STATE_WORKING,
      `returnImmediately answered ${stateName(first)}`,
    );
    const seen = [first];
    const deadline = Date.now() + 10_000;
    let got = task;
    while (Date.now() < deadline) {
      await sleep(100);
      got = await this.getTask(task.id);
      if (got.status?.state !== seen.at(-1)) seen.push(got.status?.state);
      if (TERMINAL.has(got.status?.state)) break;
    }
    assert(seen.at(-1) === TaskState.TASK_STATE_COMPLETED, `states seen ${seen.map(stateName)}`);
    assert(eq(got.artifacts.map((a) => a.name), ['slow']), `artifacts ${got.artifacts.map((a) => a.name)}`);
  }

  async direct_message() {
    const result = await this.send('message hi there');
    assert(isMessage(result), `expected a Message, got a Task (${stateName(result.status?.state)})`);
    assert(result.role === Role.ROLE_AGENT, `role ${result.role}`);
    assert(textOf(result.parts) === 'hi there', `text ${JSON.stringify(textOf(result.parts))}`);
    assert(result.messageId, 'message has no messageId');
  }

  async stream_chunks() {
    const events = await this.stream(this.client.sendMessageStream(this.request('stream 3')));
    const kinds = events.map((e) => e.payload?.$case);
    assert(kinds[0] === 'task', `stream starts with ${kinds[0]}`);
    const chunks = events.filter((e) => e.payload.$case === 'artifactUpdate').map((e) => e.payload.value);
    assert(chunks.length === 3, `${chunks.length} artifact updates`);
    assert(eq(chunks.map((c) => c.append), [false, true, true]), `append ${chunks.map((c) => c.append)}`);
    assert(eq(chunks.map((c) => c.lastChunk), [false, false, true]), `lastChunk ${chunks.map((c) => c.lastChunk)}`);
    assert(new Set(chunks.map((c) => c.artifact.artifactId)).size === 1, 'chunks of different artifacts');
    const text = chunks.map((c) => textOf(c.artifact.parts)).join('');
    assert(text === 'chunk 1 chunk 2 chunk 3 ', `text ${JSON.stringify(text)}`);
    const final = this.finalState(events.at(-1));
    assert(final === TaskState.TASK_STATE_COMPLETED, `stream ends with ${kinds.at(-1)} ${stateName(final)}`);
    const taskId = events[0].payload.value.id;
    assert(chunks.every((c) => c.taskId === taskId), 'artifact update for another task');
  }

  async multi_turn() {
    const task = await this.sendTask('input');
    assert(task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED, stateName(task.status?.state));
    assert(textOf(task.status.message?.parts) === 'need input', `status message ${JSON.stringify(task.status.message)}`);
    const done = await this.sendTask('more please', { taskId: task.id });
    assert(done.id === task.id, 'follow-up landed in another task');
    assert(done.contextId === task.contextId, 'follow-up changed the context');
    assert(done.status?.state === TaskState.TASK_STATE_COMPLETED, stateName(done.status?.state));
    const texts = done.artifacts.map((a) => textOf(a.parts));
    assert(texts.includes('got: more please'), `artifacts ${JSON.stringify(texts)}`);
    this.state.multiTurnTask = done;
  }

  async auth_required() {
    const task = await this.sendTask('auth');
    assert(task.status?.state === TaskState.TASK_STATE_AUTH_REQUIRED, stateName(task.status?.state));
    assert(textOf(task.status.message?.parts), 'AUTH_REQUIRED without a status message (spec 7.6.1)');
    const done = await this.sendTask('here are my credentials', { taskId: task.id });
    assert(done.id === task.id && done.status?.state === TaskState.TASK_STATE_COMPLETED, `follow-up answered ${stateName(done.status?.state)}`);
    const texts = done.artifacts.map((a) => textOf(a.parts));
    assert(texts.includes('got: here are my credentials'), `artifacts ${JSON.stringify(texts)}`);
  }

  async part_shapes() {
    // The tck-* messageIds of issue 6 answer one artifact each with a data,
    // a raw and a url part: the three non-text Part shapes.
    const onlyPart = (task) => {
      assert(task.status?.state === TaskState.TASK_STATE_COMPLETED, stateName(task.status?.state));
      const parts = task.artifacts.flatMap((a) => a.parts);
      assert(parts.length === 1, `${parts.length} parts`);
      return parts[0];
    };
    const data = onlyPart(await this.sendTask('x', { messageId: `tck-artifact-data-${randomUUID()}` }));
    assert(data.content?.$case === 'data', `data part is ${data.content?.$case}`);
    assert(eq(data.content.value, { key: 'value', count: 42 }) || eq(data.content.value, { count: 42, key: 'value' }), `data ${JSON.stringify(data.content.value)}`);
    const raw = onlyPart(await this.sendTask('x', { messageId: `tck-artifact-file-${randomUUID()}` }));
    assert(raw.content?.$case === 'raw', `file part is ${raw.content?.$case}`);
    const bytes = Buffer.from(raw.content.value).toString('utf8');
    assert(bytes === 'tck' && raw.filename === 'output.txt' && raw.mediaType === 'text/plain', `raw part ${bytes} ${raw.filename} ${raw.mediaType}`);
    const url = onlyPart(await this.sendTask('x', { messageId: `tck-artifact-file-url-${randomUUID()}` }));
    assert(url.content?.$case === 'url', `url part is ${url.content?.$case}`);
    assert(
      url.content.value === 'https://example.com/output.txt' && url.filename === 'output.txt' && url.mediaType === 'text/plain',
      `url part ${url.content.value} ${url.filename} ${url.mediaType}`,
    );
  }

  async get_history_length() {
    const task = this.state.multiTurnTask;
    if (!task) throw new Skip('needs multi_turn');
    const full = await this.getTask(task.id);
    const users = full.history.filter((m) => m.role === Role.ROLE_USER);
    assert(users.length >= 2, `full history has ${users.length} user messages (${full.history.length} in all)`);
    const one = await this.getTask(task.id, 1);
    assert(one.history.length === 1, `historyLength=1 gave ${one.history.length} messages`);
    assert(eq(one.history[0], full.history.at(-1)), 'historyLength=1 is not the latest message');
    const none = await this.getTask(task.id, 0);
    assert(none.history.length === 0, `historyLength=0 gave ${none.history.length} messages`);
  }

  async list_paging() {
    const contextId = `js-ctx-${randomUUID()}`;
    const created = [];
    for (let i = 0; i < 3; i++) created.push((await this.sendTask(`echo list ${i}`, { contextId })).id);
    const list = (pageToken) =>
      this.client.listTasks({ tenant: '', contextId, status: 0, pageSize: 2, pageToken, statusTimestampAfter: undefined });
    const page1 = await list('');
    assert(page1.tasks.length === 2, `page 1 has ${page1.tasks.length} tasks`);
    assert(page1.nextPageToken, 'page 1 has no nextPageToken');
    assert(page1.totalSize === 3, `totalSize ${page1.totalSize}`);
    const page2 = await list(page1.nextPageToken);
    assert(page2.tasks.length === 1, `page 2 has ${page2.tasks.length} tasks`);
    assert(page2.nextPageToken === '', `last page nextPageToken ${JSON.stringify(page2.nextPageToken)}`);
    const all = [...page1.tasks, ...page2.tasks];
    assert(eq(all.map((t) => t.id).sort(), [...created].sort()), `listed ${all.map((t) => t.id)}, created ${created}`);
    assert(all.every((t) => t.contextId === contextId), 'contextId filter');
    assert(page1.tasks.every((t) => t.artifacts.length === 0), 'artifacts listed without includeArtifacts');
    const stamps = all.map((t) => Date.parse(t.status.timestamp));
    assert(stamps.every((s, i) => i === 0 || stamps[i - 1] >= s), 'not newest status timestamp first');
  }

  async cancel() {
    const task = await this.sendTask('slow 5000', { returnImmediately: true });
    const canceled = await this.client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
    assert(canceled.id === task.id, 'cancel answered another task');
    assert(canceled.status?.state === TaskState.TASK_STATE_CANCELED, stateName(canceled.status?.state));
    const got = await this.getTask(task.id);
    assert(got.status?.state === TaskState.TASK_STATE_CANCELED, `get after cancel: ${stateName(got.status?.state)}`);
  }

  async subscribe() {
    const task = await this.sendTask('slow 1500', { returnImmediately: true });
    const events = await this.stream(this.client.resubscribeTask({ tenant: '', id: task.id }));
    const kinds = events.map((e) => e.payload?.$case);
    assert(kinds[0] === 'task', `subscription starts with ${kinds[0]} (spec 3.1.6)`);
    assert(events[0].payload.value.id === task.id, 'first event is another task');
    const final = this.finalState(events.at(-1));
    assert(final === TaskState.TASK_STATE_COMPLETED, `ends with ${kinds.at(-1)} ${stateName(final)}`);
  }

  pushConfig(taskId, path, extra = {}) {
    return { tenant: '', id: '', taskId, url: this.webhook.url(path), token: '', authentication: undefined, ...extra };
  }

  async push_create() {
    this.webhook = new Webhook();
    await this.webhook.start();
    const task = await this.sendTask('slow 2000', { returnImmediately: true });
    const a = await this.client.createTaskPushNotificationConfig(
      this.pushConfig(task.id, '/hook/a', { token: 'tok-a', authentication: { scheme: 'Bearer', credentials: 'push-secret' } }),
    );
    // B names its own id, which the agent keeps (spec 3.1.7-3.1.8; issue 14
    // item 1), so an agent which defaults the id cannot make B replace A;
    // push_ids_distinct checks that separately.
    const chosen = `cfg-b-${randomUUID()}`;
    const b = await this.client.createTaskPushNotificationConfig(
      this.pushConfig(task.id, '/hook/b', { id: chosen, token: 'tok-b' }),
    );
    assert(a.id, 'no server-assigned config id for a config created without one');
    assert(b.id === chosen, `config created with id ${chosen} came back as ${b.id} (spec 3.1.7)`);
    for (const [cfg, path] of [[a, '/hook/a'], [b, '/hook/b']]) {
      assert(cfg.taskId === task.id, `config taskId ${cfg.taskId}`);
      assert(cfg.url === this.webhook.url(path), `config url ${cfg.url}`);
    }
    assert(a.id !== b.id, 'two configs got the same id');
    this.state.push = { task, a, b };
  }

  pushState() {
    if (!this.state.push) throw new Skip('needs push_create');
    return this.state.push;
  }

  async push_get() {
    const { task, a } = this.pushState();
    const got = await this.client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: a.id });
    assert(got.id === a.id && got.url === a.url && got.token === 'tok-a', `got ${JSON.stringify(got)}`);
    assert(got.authentication?.scheme?.toLowerCase() === 'bearer', `authentication ${JSON.stringify(got.authentication)}`);
    // The client-chosen id finds its config (spec 3.1.8).
    const { b } = this.pushState();
    const gotB = await this.client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: b.id });
    assert(gotB.id === b.id && gotB.url === b.url && gotB.token === 'tok-b', `got ${JSON.stringify(gotB)}`);
  }

  async push_list() {
    const { task, a, b } = this.pushState();
    const listed = await this.client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' });
    const ids = listed.configs.map((c) => c.id).sort();
    assert(eq(ids, [a.id, b.id].sort()), `listed ${ids}`);
  }

  async waitForCompletion(path) {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const done = this.webhook.received(path).some((p) => {
        const body = p.json ?? {};
        return (body.statusUpdate ?? body.task)?.status?.state === 'TASK_STATE_COMPLETED';
      });
      if (done) return this.webhook.received(path);
      await sleep(100);
    }
    throw new assert.Failure(`no COMPLETED notification at ${path} in 10 s (${this.webhook.received(path).length} POSTs)`);
  }

  async push_delivery() {
    const { task } = this.pushState();
    const posts = await this.waitForCompletion('/hook/a');
    for (const post of posts) {
      assert(post.headers.authorization === 'Bearer push-secret', `Authorization ${JSON.stringify(post.headers.authorization)} (spec 4.3.3)`);
      const body = post.json;
      assert(body && typeof body === 'object', 'body is not a JSON object');
      const keys = Object.keys(body);
      const kinds = keys.filter((k) => ['task', 'message', 'statusUpdate', 'artifactUpdate'].includes(k));
      assert(kinds.length === 1 && keys.length === 1, `not one StreamResponse member: ${keys}`);
      const tid = kinds[0] === 'task' ? body.task.id : body[kinds[0]].taskId;
      assert(tid === task.id, `notification for task ${tid}`);
      assert((post.headers['content-type'] ?? '').includes('json'), `Content-Type ${post.headers['content-type']}`);
    }
    this.log('push content types', [...new Set(posts.map((p) => p.headers['content-type']))]);
  }

  async push_token() {
    this.pushState();
    const posts = await this.waitForCompletion('/hook/b');
    for (const post of posts) {
      const token = post.headers['x-a2a-notification-token'];
      assert(token === 'tok-b', `X-A2A-Notification-Token ${JSON.stringify(token)}`);
    }
  }

  async push_delete() {
    const { task, a, b } = this.pushState();
    await this.client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: a.id });
    const listed = await this.client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' });
    const ids = listed.configs.map((c) => c.id);
    assert(!ids.includes(a.id) && ids.includes(b.id), `after delete, listed ${ids}`);
    // spec 3.1.10: deletion MUST be idempotent
    await this.client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: a.id });
  }

  async push_ids_distinct() {
    if (!this.webhook) throw new Skip('needs push_create');
    const task = await this.sendTask('slow 2000', { returnImmediately: true });
    const configs = [];
    for (const i of [1, 2]) configs.push(await this.client.createTaskPushNotificationConfig(this.pushConfig(task.id, `/hook/c${i}`)));
    const ids = configs.map((c) => c.id);
    assert(ids.every(Boolean) && ids[0] !== ids[1], `two configs created without ids got ids ${ids} (spec 3.1.7)`);
    const listed = await this.client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' });
    assert(eq(listed.configs.map((c) => c.id).sort(), [...ids].sort()), `listed ${listed.configs.map((c) => c.id)}`);
  }

  async extended_card() {
    if (!this.bearer) throw new Skip('no --bearer given');
    assert(this.publicCard.capabilities?.extendedAgentCard, 'public card does not declare extendedAgentCard');
    const ext = await this.client.getAgentCard();
    assert(ext.name, 'extended card has no name');
    assert(ext.skills.length > this.publicCard.skills.length, `extended card has ${ext.skills.length} skills, the public one ${this.publicCard.skills.length}`);
  }

  async extended_card_unauthenticated() {
    if (!this.bearer) throw new Skip('no --bearer given');
    // The card itself is public; only the extended card call goes without credentials.
    const factory = new ClientFactory({
      transports: this.transports(undefined),
      preferredTransports: [this.binding],
    });
    const anonymous = await factory.createFromAgentCard(this.publicCard);
    let card;
    try {
      card = await anonymous.getAgentCard();
    } catch (e) {
      this.log('unauthenticated extended card ->', e.name, e.message);
      return;
    }
    assert(card.skills.length <= this.publicCard.skills.length, `extended card served without credentials (${card.skills.length} skills)`);
  }

  async expectError(fn, Type) {
    try {
      const r = await fn();
      return `succeeded with ${JSON.stringify(r).slice(0, 200)}`;
    } catch (e) {
      if (e instanceof Type) return null;
      // The JSON-RPC transport wraps an error that arrives inside an SSE
      // stream in a plain Error whose `cause` is the typed one.
      if (e?.cause instanceof Type) {
        this.log(`${Type.name} arrived as the cause of: ${e.message}`);
        return null;
      }
      return `${e?.name}: ${e?.message}, not ${Type.name}`;
    }
  }

  async error_unknown_task() {
    const why = await this.expectError(() => this.getTask(`no-such-task-${randomUUID()}`), TaskNotFoundError);
    assert(why === null, why);
  }

  async error_cancel_completed() {
    const task = this.state.completedTask ?? (await this.sendTask('echo done'));
    const why = await this.expectError(() => this.client.cancelTask({ tenant: '', id: task.id, metadata: undefined }), TaskNotCancelableError);
    assert(why === null, why);
  }

  async error_subscribe_terminal() {
    const task = this.state.completedTask ?? (await this.sendTask('echo done'));
    const why = await this.expectError(() => this.stream(this.client.resubscribeTask({ tenant: '', id: task.id })), UnsupportedOperationError);
    assert(why === null, why);
  }
}

const ORDER = [
  'card',
  'send_blocking',
  'send_nonblocking_poll',
  'direct_message',
  'stream_chunks',
  'multi_turn',
  'auth_required',
  'get_history_length',
  'list_paging',
  'cancel',
  'subscribe',
  'push_create',
  'push_get',
  'push_list',
  'push_delivery',
  'push_token',
  'push_delete',
  'push_ids_distinct',
  'extended_card',
  'extended_card_unauthenticated',
  'error_unknown_task',
  'error_cancel_completed',
  'error_subscribe_terminal',
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
    console.error('usage: node client_checks.mjs --url URL --binding jsonrpc|rest|grpc [--bearer TOKEN] [--only a,b] [-v]');
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
      } else if (e instanceof assert.Failure) {
        failed++;
        console.log(`FAIL ${name}: ${e.message}`);
      } else {
        failed++;
        const cause = e?.cause ? ` (cause: ${e.cause?.name}: ${e.cause?.message})` : '';
        console.log(`FAIL ${name}: ${e?.name}: ${e?.message}${cause}`);
      }
    }
  }
  checks.close();
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(failed ? 1 : 0);
}

main();
