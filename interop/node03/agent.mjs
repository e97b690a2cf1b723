// An A2A 0.3 agent written with the JavaScript SDK's 0.3 line
// (@a2a-js/sdk 0.3.14): the 0.3 twin of interop/node/agent.mjs and
// interop/python03/agent.py, with the reference agent's message-text
// contract (issue 6): echo <x>, stream <n> [ms], input, auth, slow [ms],
// fail, reject, message <x>, and the tck-artifact-{data,file,file-url}
// messageIds (one data / bytes / uri part).
//
// JSON-RPC at /jsonrpc, HTTP+JSON at /rest (the SDK's 0.3 routes,
// /rest/v1/...), the 0.3 card (`url`, `preferredTransport` JSONRPC,
// `additionalInterfaces`, `protocolVersion` 0.3.0) at
// /.well-known/agent-card.json. With --bearer every A2A call needs
// `Authorization: Bearer <token>` and the authenticated extended card is on.
//
// Usage: node agent.mjs --port N [--host 127.0.0.1] [--bearer TOKEN]

import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import express from 'express';
import {
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler } from '@a2a-js/sdk/server/express';

const SDK_VERSION = '0.3.14';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => new Date().toISOString();
const text = (value) => ({ kind: 'text', text: value });

function agentMessage(value, taskId, contextId) {
  return { kind: 'message', messageId: randomUUID(), role: 'agent', parts: [text(value)], taskId, contextId };
}

function firstText(message) {
  const part = (message?.parts ?? []).find((p) => p.kind === 'text');
  return part ? part.text : '';
}

class BehaviourExecutor {
  canceled = new Set();
  contexts = new Map();

  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const message = ctx.userMessage;
    const words = firstText(message).trim();
    this.contexts.set(taskId, contextId);
    const status = (state, msg) =>
      bus.publish({
        kind: 'status-update',
        taskId,
        contextId,
        status: { state, message: msg ? agentMessage(msg, taskId, contextId) : undefined, timestamp: now() },
        final: !['working', 'submitted'].includes(state),
      });
    const artifact = (name, parts, { id = randomUUID(), append = false, lastChunk = false } = {}) =>
      bus.publish({ kind: 'artifact-update', taskId, contextId, artifact: { artifactId: id, name, parts }, append, lastChunk });
    const done = () => bus.finished();

    if (ctx.task) {
      // A follow-up resumes an interrupted task; otherwise nothing changes.
      bus.publish(ctx.task);
      if (['input-required', 'auth-required'].includes(ctx.task.status?.state)) {
        status('working');
        artifact('answer', [text(`got: ${words}`)]);
        status('completed');
      }
      return done();
    }

    const [command, ...rest] = words.split(' ');
    const arg = rest.join(' ').trim();
    if (command === 'message') {
      bus.publish(agentMessage(arg, undefined, contextId));
      return done();
    }
    bus.publish({
      kind: 'task',
      id: taskId,
      contextId,
      status: { state: 'submitted', timestamp: now() },
      history: [message],
    });
    const messageId = message?.messageId ?? '';
    if (messageId.startsWith('tck-artifact-')) {
      const kind = messageId.slice('tck-artifact-'.length);
      const part = kind.startsWith('data')
        ? { kind: 'data', data: { key: 'value', count: 42 } }
        : kind.startsWith('file-url')
          ? { kind: 'file', file: { uri: 'https://example.com/output.txt', mimeType: 'text/plain', name: 'output.txt' } }
          : { kind: 'file', file: { bytes: Buffer.from('tck').toString('base64'), mimeType: 'text/plain', name: 'output.txt' } };
      artifact('part', [part]);
      status('completed');
      return done();
    }
    switch (command) {
      case 'echo':
        status('working');
        artifact('echo', [text(arg)]);
        status('completed');
        break;
      case 'stream': {
        const [nText, msText] = arg.split(/\s+/).filter(Boolean);
        const n = nText ? Number(nText) : 3;
        const delay = msText ? Number(msText) : 0;
        status('working');
        const id = `stream-${taskId}`;
        for (let i = 1; i <= n; i++) {
          if (delay) await sleep(delay);
          artifact('stream', [text(`chunk ${i} `)], { id, append: i > 1, lastChunk: i === n });
        }
        status('completed');
        break;
      }
      case 'input':
        status('input-required', 'need input');
        break;
      case 'auth':
        status('auth-required', 'need authorization: send any message');
        break;
      case 'slow': {
        const ms = arg ? Number(arg) : 2000;
        status('working');
        const steps = Math.max(1, Math.floor(ms / 50));
        for (let i = 0; i < steps; i++) {
          await sleep(ms / steps);
          if (this.canceled.has(taskId)) return done(); // cancelTask published canceled
        }
        artifact('slow', [text(`slept ${ms} ms`)]);
        status('completed');
        break;
      }
      case 'fail':
        status('working');
        status('failed', 'failed as asked');
        break;
      case 'reject':
        status('rejected', 'rejected as asked');
        break;
      default:
        status('working');
        artifact('echo', [text(words)]);
        status('completed');
    }
    return done();
  }

  async cancelTask(taskId, bus) {
    this.canceled.add(taskId);
    bus.publish({
      kind: 'status-update',
      taskId,
      contextId: this.contexts.get(taskId) ?? '',
      status: { state: 'canceled', timestamp: now() },
      final: true,
    });
    bus.finished();
  }
}

function buildCard(base, bearer, extended = false) {
  const card = {
    name: `@a2a-js/sdk ${SDK_VERSION} interop agent (JavaScript, A2A 0.3)`,
    description:
      'The a2a-core reference agent behaviour, written with the JavaScript SDK 0.3 line' +
      (extended ? ' (extended card for authenticated callers)' : ''),
    version: SDK_VERSION,
    protocolVersion: '0.3.0',
    url: `${base}/jsonrpc`,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [
      { url: `${base}/jsonrpc`, transport: 'JSONRPC' },
      { url: `${base}/rest`, transport: 'HTTP+JSON' },
    ],
    capabilities: { streaming: true, pushNotifications: true },
    supportsAuthenticatedExtendedCard: Boolean(bearer),
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'behaviour',
        name: 'Scripted behaviour',
        description: 'echo <x>, stream <n> [ms], input, auth, slow [ms], fail, reject, message <x>',
        tags: ['test', 'echo'],
        examples: ['echo hello', 'stream 5'],
      },
    ],
  };
  if (extended) card.skills.push({ id: 'tck', name: 'Test-kit scenarios', description: 'tck-* messageIds', tags: ['tck'] });
  if (bearer) {
    card.securitySchemes = { bearer: { type: 'http', scheme: 'Bearer' } };
    card.security = [{ bearer: [] }];
  }
  return card;
}

function main() {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' }, bearer: { type: 'string' } },
  });
  if (!values.port) {
    console.error('usage: node agent.mjs --port N [--host 127.0.0.1] [--bearer TOKEN]');
    process.exit(2);
  }
  const base = `http://${values.host}:${values.port}`;
  const bearer = values.bearer;
  const card = buildCard(base, bearer);
  const pushStore = new InMemoryPushNotificationStore();
  const handler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    new BehaviourExecutor(),
    undefined,
    pushStore,
    new DefaultPushNotificationSender(pushStore, { timeout: 5000 }),
    bearer ? buildCard(base, bearer, true) : undefined,
  );
  const expected = bearer ? `Bearer ${bearer}` : undefined;
  const authenticated = { isAuthenticated: true, userName: 'caller-1' };
  const anonymous = { isAuthenticated: false, userName: '' };
  const userBuilder = async (req) => (expected && req.header('authorization') === expected ? authenticated : anonymous);

  const app = express();
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: async () => card }));
  // Every A2A call needs the bearer token when one is configured; the SDK
  // leaves authentication to the host.
  app.use((req, res, next) => {
    if (!expected || req.header('authorization') === expected) return next();
    res.status(401).set('WWW-Authenticate', 'Bearer realm="a2a"').json({ error: 'bearer token required' });
  });
  app.use('/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder }));
  app.use('/rest', restHandler({ requestHandler: handler, userBuilder }));
  const server = app.listen(Number(values.port), values.host, () => console.error(`node 0.3 agent on ${base}`));
  const stop = () => {
    server.close();
    server.closeAllConnections?.();
    setTimeout(() => process.exit(0), 500).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main();
