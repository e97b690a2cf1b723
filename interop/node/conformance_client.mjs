// The official JavaScript SDK client (@a2a-js/sdk 1.3.0) under
// `a2a-conformance client`.
//
// Reads the calls from A2A_CONFORMANCE_URL and A2A_CONFORMANCE_CALLS, makes
// them with the SDK's client (ClientFactory, the card's one binding), and
// prints the runner's JSON lines (the contract is in
// conformance/runner/README.md, "Client conformance"). Errors are reported
// with what the SDK's error carries: `reason`, the JSON-RPC `envelopeCode`
// and `data`, the REST `statusCode` and response headers.
//
//   a2a-conformance client -- node interop/node/conformance_client.mjs

import {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
  TaskState,
} from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';

const SETTLED = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_AUTH_REQUIRED,
]);

// Per operation: how the contract's ProtoJSON request is read, which client
// method takes it, and how its result is written back as ProtoJSON.
const UNARY = {
  GetTask: [GetTaskRequest, 'getTask', (r) => Task.toJSON(r)],
  ListTasks: [ListTasksRequest, 'listTasks', (r) => ListTasksResponse.toJSON(r)],
  CancelTask: [CancelTaskRequest, 'cancelTask', (r) => Task.toJSON(r)],
  CreateTaskPushNotificationConfig: [
    TaskPushNotificationConfig,
    'createTaskPushNotificationConfig',
    (r) => TaskPushNotificationConfig.toJSON(r),
  ],
  GetTaskPushNotificationConfig: [
    GetTaskPushNotificationConfigRequest,
    'getTaskPushNotificationConfig',
    (r) => TaskPushNotificationConfig.toJSON(r),
  ],
  ListTaskPushNotificationConfigs: [
    ListTaskPushNotificationConfigsRequest,
    'listTaskPushNotificationConfig',
    (r) => ListTaskPushNotificationConfigsResponse.toJSON(r),
  ],
  DeleteTaskPushNotificationConfig: [DeleteTaskPushNotificationConfigRequest, 'deleteTaskPushNotificationConfig', () => ({})],
};

const out = (call, key, value) => console.log(JSON.stringify({ call, [key]: value }));

function errorJson(e) {
  const v = { message: String(e?.message ?? e), class: e?.constructor?.name ?? typeof e };
  if (typeof e?.reason === 'string' && e.reason) v.reason = e.reason;
  if (typeof e?.envelopeCode === 'number') v.code = e.envelopeCode;
  if (Array.isArray(e?.data)) v.details = e.data;
  if (Array.isArray(e?.details)) v.details = e.details;
  if (typeof e?.statusCode === 'number') v.httpStatus = e.statusCode;
  const challenge = e?.headers?.['www-authenticate'];
  if (challenge) v.challenges = [].concat(challenge);
  return v;
}

function note(event, state) {
  const p = event.payload;
  if (p?.$case === 'message') return true;
  if (p?.$case === 'task') {
    state.taskId = p.value.id;
    return SETTLED.has(p.value.status?.state);
  }
  if (p?.$case === 'statusUpdate') {
    state.taskId ??= p.value.taskId;
    return SETTLED.has(p.value.status?.state);
  }
  return false;
}

async function stream(client, call, op, request, follow) {
  const state = {};
  let settled = false;
  let source =
    op === 'SendStreamingMessage'
      ? client.sendMessageStream(SendMessageRequest.fromJSON(request))
      : client.resubscribeTask(SubscribeToTaskRequest.fromJSON(request));
  for (let attempt = 0; attempt < 4; attempt++) {
    let failure = null;
    try {
      for await (const event of source) {
        settled = note(event, state) || settled;
        out(call, 'event', StreamResponse.toJSON(event));
      }
    } catch (e) {
      failure = e;
    }
    if (!follow || settled || !state.taskId) {
      if (failure) out(call, 'error', errorJson(failure));
      else out(call, 'end', true);
      return;
    }
    // The SDK has no resumption of its own: subscribe to the task again.
    source = client.resubscribeTask({ tenant: '', id: state.taskId });
  }
  out(call, 'error', { message: 'the stream kept dropping' });
}

async function main() {
  const url = process.env.A2A_CONFORMANCE_URL;
  const calls = process.env.A2A_CONFORMANCE_CALLS;
  const binding = process.env.A2A_CONFORMANCE_BINDING ?? 'JSONRPC';
  if (!url || calls === undefined) {
    console.error('run me under `a2a-conformance client`');
    return 2;
  }
  const fetchImpl = (input, init = {}) => fetch(input, { ...init, signal: init.signal ?? AbortSignal.timeout(10_000) });
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
    preferredTransports: [binding],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
  const client = await factory.createFromUrl(url);
  for (const [i, c] of JSON.parse(calls).entries()) {
    const op = c.operation;
    try {
      if (op === 'SendMessage') {
        const result = await client.sendMessage(SendMessageRequest.fromJSON(c.request ?? {}));
        const wrapped = 'messageId' in result ? { payload: { $case: 'message', value: result } } : { payload: { $case: 'task', value: result } };
        out(i, 'reply', SendMessageResponse.toJSON(wrapped));
      } else if (op === 'SendStreamingMessage' || op === 'SubscribeToTask') {
        await stream(client, i, op, c.request ?? {}, Boolean(c.follow));
      } else if (UNARY[op]) {
        const [type, method, write] = UNARY[op];
        const request = type.fromJSON(c.request ?? {});
        if (op === 'ListTasks' && c.pages) {
          for (;;) {
            const page = await client.listTasks(request);
            out(i, 'reply', write(page));
            if (!page.nextPageToken) break;
            request.pageToken = page.nextPageToken;
          }
        } else {
          out(i, 'reply', write(await client[method](request)));
        }
      } else {
        out(i, 'error', { message: `operation ${op} not supported by this adapter` });
      }
    } catch (e) {
      out(i, 'error', errorJson(e));
    }
  }
  return 0;
}

process.exitCode = await main();
