"""The official Python SDK client (a2a-sdk 1.3.0) under `a2a-conformance client`.

Reads the calls from A2A_CONFORMANCE_URL and A2A_CONFORMANCE_CALLS, makes
them with the SDK's client (`ClientFactory`, restricted to the binding of
the peer's card), and prints the runner's JSON lines (the contract is in
conformance/runner/README.md, "Client conformance"). What the SDK raises
is reported as it knows it: the error class's JSON-RPC code and ErrorInfo
reason from the SDK's own tables, the message, and the `data` it kept as
details.

  a2a-conformance client -- interop/python/.venv/bin/python interop/python/conformance_client.py
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

import httpx

from google.protobuf import json_format

from a2a.client import ClientConfig, ClientFactory
from a2a.types import a2a_pb2
from a2a.utils import errors as sdk_errors

TERMINAL_OR_INTERRUPTED = {
    a2a_pb2.TaskState.TASK_STATE_COMPLETED,
    a2a_pb2.TaskState.TASK_STATE_FAILED,
    a2a_pb2.TaskState.TASK_STATE_CANCELED,
    a2a_pb2.TaskState.TASK_STATE_REJECTED,
    a2a_pb2.TaskState.TASK_STATE_INPUT_REQUIRED,
    a2a_pb2.TaskState.TASK_STATE_AUTH_REQUIRED,
}

# The request message of each operation the contract may name.
REQUESTS = {
    'SendMessage': a2a_pb2.SendMessageRequest,
    'SendStreamingMessage': a2a_pb2.SendMessageRequest,
    'GetTask': a2a_pb2.GetTaskRequest,
    'ListTasks': a2a_pb2.ListTasksRequest,
    'CancelTask': a2a_pb2.CancelTaskRequest,
    'SubscribeToTask': a2a_pb2.SubscribeToTaskRequest,
    'CreateTaskPushNotificationConfig': a2a_pb2.TaskPushNotificationConfig,
    'GetTaskPushNotificationConfig': a2a_pb2.GetTaskPushNotificationConfigRequest,
    'ListTaskPushNotificationConfigs': a2a_pb2.ListTaskPushNotificationConfigsRequest,
    'DeleteTaskPushNotificationConfig': a2a_pb2.DeleteTaskPushNotificationConfigRequest,
}

METHODS = {
    'GetTask': 'get_task',
    'ListTasks': 'list_tasks',
    'CancelTask': 'cancel_task',
    'CreateTaskPushNotificationConfig': 'create_task_push_notification_config',
    'GetTaskPushNotificationConfig': 'get_task_push_notification_config',
    'ListTaskPushNotificationConfigs': 'list_task_push_notification_configs',
    'DeleteTaskPushNotificationConfig': 'delete_task_push_notification_config',
}


def out(call: int, key: str, value) -> None:
    print(json.dumps({'call': call, key: value}), flush=True)


def to_json(message) -> dict:
    return json_format.MessageToDict(message) if message is not None else {}


def error_json(e: BaseException) -> dict:
    """What the SDK lets a caller know of a failure."""
    v: dict = {'message': str(e) or type(e).__name__, 'class': type(e).__name__}
    code = sdk_errors.JSON_RPC_ERROR_CODE_MAP.get(type(e))
    if code is not None:
        v['code'] = code
    mapping = sdk_errors.A2A_ERROR_MAPPING.get(type(e))
    if mapping is not None:
        v['reason'] = mapping.reason
    data = getattr(e, 'data', None)
    if isinstance(data, list):
        v['details'] = data
    elif isinstance(data, dict):
        v['details'] = data.get('details', [data])
    status = getattr(e, 'status_code', None)
    if isinstance(status, int):
        v['httpStatus'] = status
    cause = e.__cause__ or e.__context__
    if isinstance(cause, httpx.HTTPStatusError):
        v['httpStatus'] = cause.response.status_code
        challenge = cause.response.headers.get('www-authenticate')
        if challenge:
            v['challenges'] = [challenge]
    return v


def settled(event, state: dict) -> bool:
    kind = event.WhichOneof('payload')
    if kind == 'message':
        return True
    if kind == 'task':
        state['task_id'] = event.task.id
        return event.task.status.state in TERMINAL_OR_INTERRUPTED
    if kind == 'status_update':
        state.setdefault('task_id', event.status_update.task_id)
        return event.status_update.status.state in TERMINAL_OR_INTERRUPTED
    return False


async def main() -> int:
    url = os.environ.get('A2A_CONFORMANCE_URL')
    calls = os.environ.get('A2A_CONFORMANCE_CALLS')
    binding = os.environ.get('A2A_CONFORMANCE_BINDING', 'JSONRPC')
    if not url or calls is None:
        print('run me under `a2a-conformance client`', file=sys.stderr)
        return 2
    async with httpx.AsyncClient(timeout=10.0) as http:

        async def client(streaming: bool):
            config = ClientConfig(
                streaming=streaming, supported_protocol_bindings=[binding], httpx_client=http
            )
            return await ClientFactory(config).create_from_url(url)

        unary = await client(False)
        streaming = await client(True)
        for i, c in enumerate(json.loads(calls)):
            op = c.get('operation')
            if op not in REQUESTS:
                out(i, 'error', {'message': f'operation {op} not supported by this adapter'})
                continue
            request = json_format.ParseDict(c.get('request', {}), REQUESTS[op](), ignore_unknown_fields=True)
            try:
                if op == 'SendMessage':
                    events = [e async for e in unary.send_message(request)]
                    out(i, 'reply', to_json(events[-1]) if events else {})
                elif op in ('SendStreamingMessage', 'SubscribeToTask'):
                    await stream(streaming, i, op, request, bool(c.get('follow')))
                elif op == 'ListTasks' and c.get('pages'):
                    while True:
                        page = await unary.list_tasks(request)
                        out(i, 'reply', to_json(page))
                        if not page.next_page_token:
                            break
                        request.page_token = page.next_page_token
                else:
                    result = await getattr(unary, METHODS[op])(request)
                    out(i, 'reply', to_json(result))
            except Exception as e:  # noqa: BLE001 - every failure is reported
                out(i, 'error', error_json(e))
    return 0


async def stream(client, i: int, op: str, request, follow: bool) -> None:
    state: dict = {}
    done = False
    source = client.send_message(request) if op == 'SendStreamingMessage' else client.subscribe(request)
    for _ in range(4):
        failure = None
        try:
            async for event in source:
                done = settled(event, state) or done
                out(i, 'event', to_json(event))
        except Exception as e:  # noqa: BLE001
            failure = e
        if not follow or done or 'task_id' not in state:
            if failure is not None:
                out(i, 'error', error_json(failure))
            else:
                out(i, 'end', True)
            return
        # The SDK has no resumption of its own: subscribe to the task again.
        source = client.subscribe(a2a_pb2.SubscribeToTaskRequest(id=state['task_id']))
    out(i, 'error', {'message': 'the stream kept dropping'})


if __name__ == '__main__':
    sys.exit(asyncio.run(main()))
