// An A2A agent written with the official JavaScript SDK (@a2a-js/sdk), for
// interop. It mirrors the message-text contract of the a2a-core reference
// agent (conformance/reference-agent, issue 6) as far as the SDK allows:
//
//   echo <x>        WORKING, artifact `echo` holding <x>, COMPLETED
//   stream <n> [ms] WORKING, n chunks `chunk <i> ` of one artifact `stream`
//                   (append after the first, lastChunk on the last), COMPLETED
//   input           INPUT_REQUIRED, status message "need input"; the next
//                   message on the task completes it with artifact `got: <text>`
//   auth            AUTH_REQUIRED
//   slow [ms]       WORKING for ms (default 2000) in small steps, cancelable
//   fail            FAILED;  reject: REJECTED
//   message <x>     a direct Message holding <x>
//   anything else   an echo task of the whole text
//
// plus the `tck-*` messageId prefixes of issue 6 (the prefix wins over text).
//
// JSON-RPC at /jsonrpc, HTTP+JSON at /rest and, with --grpc-port, gRPC (the
// SDK's `grpcService` on an @grpc/grpc-js server, cleartext HTTP/2) on a
// second port; the card at /.well-known/agent-card.json advertises every
// binding served, gRPC as `host:port` (the proto's AgentInterface.url format
// for gRPC). With --bearer every A2A call must carry `Authorization: Bearer
// <token>` (HTTP header or gRPC metadata) and the extended card is offered.
//
// Usage: node agent.mjs --port N [--grpc-port M] [--host 127.0.0.1] [--bearer TOKEN]

import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import express from 'express';
import * as grpc from '@grpc/grpc-js';
import { AgentCard, Role, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler } from '@a2a-js/sdk/server/express';
import { A2AService, grpcService } from '@a2a-js/sdk/server/grpc';

const SDK_VERSION = '1.3.0';
// --v0-3 turns on the SDK's 0.3 layer (`legacyCompat`) on every handler.
const legacy = { enabled: false };

const TCK_PREFIXES = [
  'tck-complete-task',
  'tck-artifact-text',
  'tck-artifact-file-url',
  'tck-artifact-file',
  'tck-artifact-data',
  'tck-message-response',
  'tck-input-required',
  'tck-auth-required',
  'tck-reject-task',
  'tck-task-failure',
  'tck-stream-002',
  'tck-stream-001',
  'tck-stream-003',
  'tck-stream-ordering-001',
  'tck-stream-artifact-text',
  'tck-stream-artifact-file',
  'tck-stream-artifact-chunked',
  'test-resubscribe-message-id',
].sort((a, b) => b.length - a.length);

const textPart = (value) => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' });
const now = () => new Date().toISOString();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function agentMessage(text, taskId, contextId) {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function firstText(message) {
  for (const p of message?.parts ?? []) {
    if (p.content?.$case === 'text') return p.content.value;
  }
  return '';
}

function tckScenario(message) {
  const id = message?.messageId ?? '';
  return TCK_PREFIXES.find((p) => id.startsWith(p));
}

class BehaviourExecutor {
  canceled = new Set();

  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const message = ctx.userMessage;
    const text = firstText(message).trim();
    const scenario = tckScenario(message);
    const status = (state, msgText) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: { state, message: msgText ? agentMessage(msgText, taskId, contextId) : undefined, timestamp: now() },
          metadata: undefined,
        }),
      );
    const artifact = (name, parts, { id = randomUUID(), append = false, lastChunk = false } = {}) =>
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: { artifactId: id, name, description: '', parts, metadata: undefined, extensions: [] },
          append,
          lastChunk,
          metadata: undefined,
        }),
      );

    if (ctx.task) {
      // A follow-up (spec 3.4.3). The SDK requires a Task or Message as the
      // first event of every execute call, follow-ups included.
      bus.publish(AgentEvent.task(ctx.task));
      const state = ctx.task.status?.state;
      if (state === TaskState.TASK_STATE_INPUT_REQUIRED || state === TaskState.TASK_STATE_AUTH_REQUIRED) {
        status(TaskState.TASK_STATE_WORKING);
        if (scenario) return this.tck(scenario, { status, artifact, taskId, started: true });
        artifact('answer', [textPart(`got: ${text}`)]);
        status(TaskState.TASK_STATE_COMPLETED);
      }
      return;
    }

    const [command, ...rest] = text.split(' ');
    const arg = rest.join(' ').trim();
    if (scenario === 'tck-message-response' || (!scenario && command === 'message')) {
      const reply = scenario ? 'Direct message response' : arg;
      bus.publish(AgentEvent.message({ ...agentMessage(reply, '', contextId) }));
      return;
    }

    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
        artifacts: [],
        history: [message],
        metadata: undefined,
      }),
    );
    if (scenario) return this.tck(scenario, { status, artifact, taskId, started: false });

    switch (command) {
      case 'echo':
        status(TaskState.TASK_STATE_WORKING);
        artifact('echo', [textPart(arg)]);
        status(TaskState.TASK_STATE_COMPLETED);
        break;
      case 'stream': {
        const [nText, msText] = arg.split(/\s+/).filter(Boolean);
        const n = nText ? Number(nText) : 3;
        const delay = msText ? Number(msText) : 0;
        status(TaskState.TASK_STATE_WORKING);
        const id = `stream-${taskId}`;
        for (let i = 1; i <= n; i++) {
          if (delay) await sleep(delay);
          artifact('stream', [textPart(`chunk ${i} `)], { id, append: i > 1, lastChunk: i === n });
        }
        status(TaskState.TASK_STATE_COMPLETED);
        break;
      }
      case 'input':
        status(TaskState.TASK_STATE_INPUT_REQUIRED, 'need input');
        break;
      case 'auth':
        status(TaskState.TASK_STATE_AUTH_REQUIRED, 'need authorization: send any message');
        break;
      case 'slow': {
        const ms = arg ? Number(arg) : 2000;
        status(TaskState.TASK_STATE_WORKING);
        const steps = Math.max(1, Math.floor(ms / 50));
        for (let i = 0; i < steps; i++) {
          await sleep(ms / steps);
          if (this.canceled.has(taskId)) return; // cancelTask published CANCELED
        }
        artifact('slow', [textPart(`slept ${ms} ms`)]);
        status(TaskState.TASK_STATE_COMPLETED);
        break;
      }
      case 'fail':
        status(TaskState.TASK_STATE_WORKING);
        status(TaskState.TASK_STATE_FAILED, 'failed as asked');
        break;
      case 'reject':
        status(TaskState.TASK_STATE_REJECTED, 'rejected as asked');
        break;
      default:
        status(TaskState.TASK_STATE_WORKING);
        artifact('echo', [textPart(text)]);
        status(TaskState.TASK_STATE_COMPLETED);
    }
  }

  async tck(scenario, { status, artifact, taskId, started }) {
    const file = { content: { $case: 'raw', value: Buffer.from('tck') }, metadata: undefined, filename: 'output.txt', mediaType: 'text/plain' };
    const work = () => started || status(TaskState.TASK_STATE_WORKING);
    switch (scenario) {
      case 'tck-complete-task':
        return status(TaskState.TASK_STATE_COMPLETED, 'Hello from TCK');
      case 'tck-artifact-text':
        artifact('text', [textPart('Generated text content')]);
        return status(TaskState.TASK_STATE_COMPLETED);
      case 'tck-artifact-file-url':
        artifact('file', [{ content: { $case: 'url', value: 'https://example.com/output.txt' }, metadata: undefined, filename: 'output.txt', mediaType: 'text/plain' }]);
        return status(TaskState.TASK_STATE_COMPLETED);
      case 'tck-artifact-file':
        artifact('file', [file]);
        return status(TaskState.TASK_STATE_COMPLETED);
      case 'tck-artifact-data':
        artifact('data', [{ content: { $case: 'data', value: { key: 'value', count: 42 } }, metadata: undefined, filename: '', mediaType: '' }]);
        return status(TaskState.TASK_STATE_COMPLETED);
      case 'tck-input-required':
        return status(TaskState.TASK_STATE_INPUT_REQUIRED, 'need input');
      case 'tck-auth-required':
        return status(TaskState.TASK_STATE_AUTH_REQUIRED, 'need authorization');
      case 'tck-reject-task':
        return status(TaskState.TASK_STATE_REJECTED);
      case 'tck-task-failure':
        return status(TaskState.TASK_STATE_FAILED);
      case 'tck-stream-002':
        return status(TaskState.TASK_STATE_COMPLETED);
      case 'tck-stream-artifact-file':
        work();
        artifact('file', [file], { lastChunk: true });
        return status(TaskState.TASK_STATE_COMPLETED);
      case 'tck-stream-artifact-chunked': {
        work();
        const id = `chunked-${taskId}`;
        artifact('chunked', [textPart('chunk-1 ')], { id });
        artifact('chunked', [textPart('chunk-2')], { id, append: true, lastChunk: true });
        return status(TaskState.TASK_STATE_COMPLETED);
      }
      case 'test-resubscribe-message-id':
        work();
        await sleep(4000);
        return status(TaskState.TASK_STATE_COMPLETED);
      default: // tck-stream-001, -003, -ordering-001, -artifact-text
        work();
        artifact('text', [textPart('Generated text content')], { lastChunk: true });
        return status(TaskState.TASK_STATE_COMPLETED);
    }
  }

  async cancelTask(taskId, bus) {
    this.canceled.add(taskId);
    const task = this.contexts?.get(taskId);
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: task ?? '',
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: now() },
        metadata: undefined,
      }),
    );
  }
}

function buildCard(base, bearer, extended = false, grpcAddress = undefined) {
  const card = {
    name: `@a2a-js/sdk ${SDK_VERSION} interop agent (Node)`,
    description:
      'The a2a-core reference agent behaviour, written with the official JavaScript SDK' +
      (extended ? ' (extended card for authenticated callers)' : ''),
    supportedInterfaces: [
      { url: `${base}/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: `${base}/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
      // Last, so that a client taking the card's order keeps the HTTP
      // bindings it chose before gRPC existed (spec 8.3.1).
      ...(grpcAddress ? [{ url: grpcAddress, protocolBinding: 'GRPC', tenant: '', protocolVersion: '1.0' }] : []),
      // --v0-3: the SDK's legacyCompat serves 0.3 on the same endpoints and
      // asks the card to declare them as 0.3 interfaces.
      ...(legacy.enabled
        ? [
            { url: `${base}/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
            { url: `${base}/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '0.3' },
          ]
        : []),
    ],
    provider: undefined,
    version: SDK_VERSION,
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: Boolean(bearer) },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'behaviour',
        name: 'Scripted behaviour',
        description: 'echo <x>, stream <n> [ms], input, auth, slow [ms], fail, reject, message <x>',
        tags: ['test', 'echo'],
        examples: ['echo hello', 'stream 5'],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
  if (extended) {
    card.skills.push({ id: 'tck', name: 'Test-kit scenarios', description: 'tck-* messageId prefixes', tags: ['tck'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] });
  }
  if (bearer) {
    card.securitySchemes.bearer = {
      scheme: { $case: 'httpAuthSecurityScheme', value: { description: '--bearer token', scheme: 'Bearer', bearerFormat: '' } },
    };
    card.securityRequirements.push({ schemes: { bearer: { list: [] } } });
  }
  return card;
}

// The gRPC twin of the Express bearer middleware: a call without the token
// in its `authorization` metadata ends UNAUTHENTICATED before the SDK sees
// it (the SDK leaves authentication to the host here too).
function guardGrpc(service, expected) {
  if (!expected) return service;
  const denied = { code: grpc.status.UNAUTHENTICATED, details: 'bearer token required' };
  const guarded = {};
  for (const [name, impl] of Object.entries(service)) {
    const ok = (call) => call.metadata.get('authorization').map(String).includes(expected);
    guarded[name] = A2AService[name].responseStream
      ? (call) => {
          if (ok(call)) return impl(call);
          call.emit('error', denied);
        }
      : (call, callback) => (ok(call) ? impl(call, callback) : callback(denied, null));
  }
  return guarded;
}

function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'grpc-port': { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      bearer: { type: 'string' },
      'v0-3': { type: 'boolean', default: false },
    },
  });
  legacy.enabled = values['v0-3'];
  if (!values.port) {
    console.error('usage: node agent.mjs --port N [--grpc-port M] [--host 127.0.0.1] [--bearer TOKEN] [--v0-3]');
    process.exit(2);
  }
  const base = `http://${values.host}:${values.port}`;
  const grpcAddress = values['grpc-port'] ? `${values.host}:${values['grpc-port']}` : undefined;
  const bearer = values.bearer;
  const card = buildCard(base, bearer, false, grpcAddress);
  const executor = new BehaviourExecutor();
  // The executor's cancelTask gets only the task id; remember contexts.
  executor.contexts = new Map();
  const taskStore = new InMemoryTaskStore();
  const origSave = taskStore.save.bind(taskStore);
  taskStore.save = async (task, ...rest) => {
    executor.contexts.set(task.id, task.contextId);
    return origSave(task, ...rest);
  };
  const pushStore = new InMemoryPushNotificationStore();
  const handler = new DefaultRequestHandler(
    card,
    taskStore,
    executor,
    undefined,
    pushStore,
    new DefaultPushNotificationSender(pushStore, { timeout: 5000 }),
    bearer ? buildCard(base, bearer, true, grpcAddress) : undefined,
  );

  const expected = bearer ? `Bearer ${bearer}` : undefined;
  const authenticated = { isAuthenticated: true, userName: 'caller-1' };
  const anonymous = { isAuthenticated: false, userName: '' };
  const userBuilder = async (req) => (expected && req.header('authorization') === expected ? authenticated : anonymous);

  const app = express();
  app.use('/.well-known/agent-card.json', agentCardHandler({
    // The SDK's card handler JSON.stringify()s what it is given, so hand it
    // the ProtoJSON form (oneofs such as the security scheme need it).
    // With legacyCompat the SDK translates the card itself and needs the
    // in-memory form (its 0.3 path reads the oneofs as `$case`); a 0.3
    // client sends no A2A-Version and gets the translation.
    agentCardProvider: legacy.enabled ? async () => card : async () => AgentCard.toJSON(card),
    ...(legacy.enabled ? { legacyCompat: legacy } : {}),
  }));
  // Every A2A call needs the bearer token when one is configured (as the
  // reference agent does); the SDK leaves authentication to the host.
  app.use((req, res, next) => {
    if (!expected || req.header('authorization') === expected) return next();
    res.status(401).set('WWW-Authenticate', 'Bearer realm="a2a"').json({
      error: { code: 401, status: 'UNAUTHENTICATED', message: 'bearer token required', details: [] },
    });
  });
  const compat = legacy.enabled ? { legacyCompat: legacy } : {};
  app.use('/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder, ...compat }));
  app.use('/rest', restHandler({ requestHandler: handler, userBuilder, ...compat }));

  // gRPC: the same request handler behind the SDK's service, so a task
  // made over HTTP is there over gRPC too. It binds first, so that a card
  // served means every interface it lists is up.
  let server;
  const listen = () => {
    server = app.listen(Number(values.port), values.host, () => {
      console.error(`node agent listening on ${base}`);
    });
  };
  let grpcServer;
  if (grpcAddress) {
    const grpcUserBuilder = async (call) => {
      const got = call.metadata.get('authorization').map(String);
      return expected && got.includes(expected) ? authenticated : anonymous;
    };
    const service = guardGrpc(grpcService({ requestHandler: handler, userBuilder: grpcUserBuilder }), expected);
    grpcServer = new grpc.Server();
    grpcServer.addService(A2AService, service);
    grpcServer.bindAsync(grpcAddress, grpc.ServerCredentials.createInsecure(), (err) => {
      if (err) {
        console.error(`cannot bind gRPC ${grpcAddress}: ${err.message}`);
        process.exit(1);
      }
      console.error(`node agent serving gRPC on ${grpcAddress}`);
      listen();
    });
  } else {
    listen();
  }
  const stop = () => {
    server?.close();
    server?.closeAllConnections?.();
    grpcServer?.forceShutdown();
    setTimeout(() => process.exit(0), 500).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main();
