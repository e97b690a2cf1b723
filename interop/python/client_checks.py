"""Interop checks driven by the official Python SDK client (a2a-sdk 1.3.0).

Point it at any A2A 1.0 agent that implements the reference agent's
message-text contract (issue 6): the a2a-core reference agent, or the SDK
agents in interop/. Every check is a real assertion on what came back.

  python client_checks.py --url http://127.0.0.1:8080 --binding jsonrpc|rest|grpc
                          [--bearer TOKEN] [--only NAME,NAME] [-v]

With --binding grpc the card still comes over HTTP from --url; the SDK's
GrpcTransport then calls the card's `GRPC` interface (its url is a
`host:port`, spec 10 / proto AgentInterface.url) on a cleartext `grpc.aio`
channel, the bearer token going as `authorization` metadata (spec 10.2).
The same 24 checks run on every binding: each is written against the SDK's
client API, not the wire, and push delivery is HTTP whatever the binding.

Prints `PASS name`, `FAIL name: why` or `SKIP name: why` per check and ends
with `N passed, M failed[, K skipped]`; exits 1 when a check failed.

The push checks start a webhook receiver on 127.0.0.1 (the agent must be
allowed to deliver to loopback, e.g. `a2a-reference-agent --push-allow
127.0.0.0/8`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import threading
import time
import uuid

from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import grpc
import grpc.aio
import httpx

from google.protobuf import json_format

from a2a.client import ClientConfig, ClientFactory
from a2a.client.errors import A2AClientError
from a2a.types.a2a_pb2 import (
    AuthenticationInfo,
    CancelTaskRequest,
    DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest,
    GetTaskRequest,
    ListTaskPushNotificationConfigsRequest,
    ListTasksRequest,
    Message,
    Part,
    Role,
    SendMessageConfiguration,
    SendMessageRequest,
    SubscribeToTaskRequest,
    TaskPushNotificationConfig,
    TaskState,
)
from a2a.utils.errors import (
    A2AError,
    TaskNotCancelableError,
    TaskNotFoundError,
    UnsupportedOperationError,
)

BINDINGS = {'jsonrpc': 'JSONRPC', 'rest': 'HTTP+JSON', 'grpc': 'GRPC'}
TRANSPORTS = {'JSONRPC': 'JsonRpcTransport', 'HTTP+JSON': 'RestTransport', 'GRPC': 'GrpcTransport'}
TERMINAL = {
    TaskState.TASK_STATE_COMPLETED,
    TaskState.TASK_STATE_FAILED,
    TaskState.TASK_STATE_CANCELED,
    TaskState.TASK_STATE_REJECTED,
}
CHECK_TIMEOUT = 20.0  # seconds, per check
REQUEST_TIMEOUT = 10.0  # seconds, per HTTP request


class Skip(Exception):
    """A check that cannot run against this peer (the reason says why)."""


def state_name(state: int) -> str:
    return TaskState.Name(state)


def text_of(parts) -> str:
    return ''.join(p.text for p in parts if p.HasField('text'))


def user_message(text: str, *, message_id: str | None = None, task_id: str = '', context_id: str = '') -> Message:
    return Message(
        message_id=message_id or f'py-{uuid.uuid4()}',
        role=Role.ROLE_USER,
        parts=[Part(text=text)],
        task_id=task_id,
        context_id=context_id,
    )


# --- gRPC credentials -------------------------------------------------------


def with_bearer(details, token: str):
    """The call's details with `authorization: Bearer <token>` added (spec
    10.2: service parameters and credentials travel as gRPC metadata)."""
    metadata = list(details.metadata or ()) + [('authorization', f'Bearer {token}')]
    return details._replace(metadata=grpc.aio.Metadata(*metadata))


# grpc.aio files an interceptor under the first call kind it implements, so
# unary and server-streaming calls need one class each.
class UnaryBearer(grpc.aio.UnaryUnaryClientInterceptor):
    def __init__(self, token: str):
        self.token = token

    async def intercept_unary_unary(self, continuation, client_call_details, request):
        return await continuation(with_bearer(client_call_details, self.token), request)


class StreamBearer(grpc.aio.UnaryStreamClientInterceptor):
    def __init__(self, token: str):
        self.token = token

    async def intercept_unary_stream(self, continuation, client_call_details, request):
        return await continuation(with_bearer(client_call_details, self.token), request)


# --- the webhook receiver ---------------------------------------------------


class Webhook:
    """A loopback HTTP receiver that records every POST (path, headers, body)."""

    def __init__(self) -> None:
        self.posts: list[dict] = []
        self.lock = threading.Lock()
        hook = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'

            def do_POST(self):  # noqa: N802
                if self.headers.get('Transfer-Encoding', '').lower() == 'chunked':
                    body = b''
                    while True:
                        size = int(self.rfile.readline().strip().split(b';')[0], 16)
                        if size == 0:
                            self.rfile.readline()
                            break
                        body += self.rfile.read(size)
                        self.rfile.readline()
                else:
                    body = self.rfile.read(int(self.headers.get('Content-Length', '0')))
                try:
                    parsed = json.loads(body)
                except ValueError:
                    parsed = None
                with hook.lock:
                    hook.posts.append(
                        {'path': self.path, 'headers': {k.lower(): v for k, v in self.headers.items()}, 'json': parsed}
                    )
                self.send_response(200)
                self.send_header('Content-Length', '0')
                self.end_headers()

            def log_message(self, *args):  # silence
                pass

        self.server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f'http://127.0.0.1:{self.port}{path}'

    def received(self, path: str) -> list[dict]:
        with self.lock:
            return [p for p in self.posts if p['path'] == path]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


# --- the checks -------------------------------------------------------------


class Checks:
    def __init__(self, url: str, binding: str, bearer: str | None, verbose: bool):
        self.url = url.rstrip('/')
        self.binding = BINDINGS[binding]
        self.bearer = bearer
        self.verbose = verbose
        self.http = httpx.AsyncClient(
            timeout=REQUEST_TIMEOUT, headers={'Authorization': f'Bearer {bearer}'} if bearer else {}
        )
        self.webhook: Webhook | None = None
        self.state: dict = {}
        self.channels: list = []

    def channel_factory(self, bearer: str | None):
        interceptors = [UnaryBearer(bearer), StreamBearer(bearer)] if bearer else []

        def make(address: str):
            channel = grpc.aio.insecure_channel(address, interceptors=interceptors)
            self.channels.append(channel)
            return channel

        return make

    async def make_client(self, streaming: bool, anonymous: httpx.AsyncClient | None = None):
        """A client with the bearer token, or with none when given the
        `anonymous` httpx client (whose gRPC channels then carry none either)."""
        config = ClientConfig(
            streaming=streaming,
            supported_protocol_bindings=[self.binding],
            httpx_client=anonymous or self.http,
            grpc_channel_factory=self.channel_factory(None if anonymous else self.bearer),
        )
        return await ClientFactory(config).create_from_url(self.url)

    async def setup(self) -> None:
        self.unary = await self.make_client(streaming=False)
        self.streaming = await self.make_client(streaming=True)

    async def close(self) -> None:
        await self.http.aclose()
        for channel in self.channels:
            await channel.close()
        if self.webhook:
            self.webhook.close()

    def log(self, *args) -> None:
        if self.verbose:
            print('   ', *args, file=sys.stderr)

    async def send(self, text: str, *, client=None, return_immediately: bool = False, **kw):
        request = SendMessageRequest(
            message=user_message(text, **kw),
            configuration=SendMessageConfiguration(return_immediately=return_immediately),
        )
        events = [e async for e in (client or self.unary).send_message(request)]
        self.log(text, '->', [e.WhichOneof('payload') for e in events])
        return events

    async def send_task(self, text: str, **kw):
        events = await self.send(text, **kw)
        assert len(events) == 1 and events[0].HasField('task'), f'expected one Task, got {events}'
        return events[0].task

    # 1
    async def check_card(self):
        resolved = self.unary._card
        bindings = {i.protocol_binding for i in resolved.supported_interfaces}
        assert resolved.name, 'card has no name'
        assert self.binding in bindings, f'card offers {sorted(bindings)}, not {self.binding}'
        # A card may offer the binding at other versions too (0.3, the 1.1
        # draft): this 1.0 client needs a 1.0 interface among them.
        versions = [i.protocol_version for i in resolved.supported_interfaces
                    if i.protocol_binding == self.binding]
        assert '1.0' in versions, f'{self.binding} interfaces have protocolVersions {versions!r}'
        assert resolved.capabilities.streaming, 'card does not declare streaming'
        assert resolved.capabilities.push_notifications, 'card does not declare push notifications'
        chosen = type(self.unary._transport).__name__
        want = TRANSPORTS[self.binding]
        assert chosen == want, f'SDK chose {chosen}, wanted {want}'

    # 2
    async def check_send_blocking(self):
        task = await self.send_task('echo hello interop')
        assert task.status.state == TaskState.TASK_STATE_COMPLETED, state_name(task.status.state)
        assert task.id and task.context_id, 'task id or context id missing'
        texts = [text_of(a.parts) for a in task.artifacts]
        assert texts == ['hello interop'], f'artifacts {texts}'
        assert task.status.HasField('timestamp'), 'status has no timestamp'
        self.state['completed_task'] = task

    # 3
    async def check_send_nonblocking_poll(self):
        task = await self.send_task('slow 800', return_immediately=True)
        assert task.status.state in (TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING), (
            f'returnImmediately answered {state_name(task.status.state)}'
        )
        deadline = time.monotonic() + 10
        seen = [task.status.state]
        while time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            got = await self.unary.get_task(GetTaskRequest(id=task.id))
            if got.status.state != seen[-1]:
                seen.append(got.status.state)
            if got.status.state in TERMINAL:
                break
        assert seen[-1] == TaskState.TASK_STATE_COMPLETED, f'states seen {[state_name(s) for s in seen]}'
        names = [a.name for a in got.artifacts]
        assert names == ['slow'], f'artifacts {names}'

    # 4
    async def check_direct_message(self):
        events = await self.send('message hi there')
        assert len(events) == 1 and events[0].HasField('message'), f'expected one Message, got {events}'
        msg = events[0].message
        assert msg.role == Role.ROLE_AGENT, f'role {Role.Name(msg.role)}'
        assert text_of(msg.parts) == 'hi there', f'text {text_of(msg.parts)!r}'
        assert msg.message_id, 'message has no messageId'

    # 5
    async def check_stream_chunks(self):
        events = await self.send('stream 3', client=self.streaming)
        kinds = [e.WhichOneof('payload') for e in events]
        assert kinds and kinds[0] == 'task', f'stream starts with {kinds[:1]}'
        chunks = [e.artifact_update for e in events if e.HasField('artifact_update')]
        assert len(chunks) == 3, f'{len(chunks)} artifact updates'
        assert [c.append for c in chunks] == [False, True, True], f'append {[c.append for c in chunks]}'
        assert [c.last_chunk for c in chunks] == [False, False, True], f'lastChunk {[c.last_chunk for c in chunks]}'
        assert len({c.artifact.artifact_id for c in chunks}) == 1, 'chunks of different artifacts'
        text = ''.join(text_of(c.artifact.parts) for c in chunks)
        assert text == 'chunk 1 chunk 2 chunk 3 ', f'text {text!r}'
        last = events[-1]
        final = last.status_update.status.state if last.HasField('status_update') else last.task.status.state
        assert final == TaskState.TASK_STATE_COMPLETED, f'stream ends with {kinds[-1]} {state_name(final)}'
        task_id = events[0].task.id
        for c in chunks:
            assert c.task_id == task_id, 'artifact update for another task'

    # 6
    async def check_multi_turn(self):
        task = await self.send_task('input')
        assert task.status.state == TaskState.TASK_STATE_INPUT_REQUIRED, state_name(task.status.state)
        assert text_of(task.status.message.parts) == 'need input', f'status message {task.status.message}'
        done = await self.send_task('more please', task_id=task.id)
        assert done.id == task.id, 'follow-up landed in another task'
        assert done.context_id == task.context_id, 'follow-up changed the context'
        assert done.status.state == TaskState.TASK_STATE_COMPLETED, state_name(done.status.state)
        texts = [text_of(a.parts) for a in done.artifacts]
        assert 'got: more please' in texts, f'artifacts {texts}'
        self.state['multi_turn_task'] = done

    async def check_auth_required(self):
        task = await self.send_task('auth')
        assert task.status.state == TaskState.TASK_STATE_AUTH_REQUIRED, state_name(task.status.state)
        assert text_of(task.status.message.parts), 'AUTH_REQUIRED without a status message (spec 7.6.1)'
        done = await self.send_task('here are my credentials', task_id=task.id)
        assert done.id == task.id and done.status.state == TaskState.TASK_STATE_COMPLETED, (
            f'follow-up answered {state_name(done.status.state)}'
        )
        texts = [text_of(a.parts) for a in done.artifacts]
        assert 'got: here are my credentials' in texts, f'artifacts {texts}'

    async def check_part_shapes(self):
        # The tck-* messageIds of issue 6 answer one artifact each with a
        # data, a raw and a url part: the three non-text Part shapes.
        def only_part(task):
            assert task.status.state == TaskState.TASK_STATE_COMPLETED, state_name(task.status.state)
            parts = [p for a in task.artifacts for p in a.parts]
            assert len(parts) == 1, f'{len(parts)} parts'
            return parts[0]

        data = only_part(await self.send_task('x', message_id=f'tck-artifact-data-{uuid.uuid4()}'))
        assert data.WhichOneof('content') == 'data', f'data part is {data.WhichOneof("content")}'
        value = json_format.MessageToDict(data.data)
        assert value == {'key': 'value', 'count': 42}, f'data {value}'
        raw = only_part(await self.send_task('x', message_id=f'tck-artifact-file-{uuid.uuid4()}'))
        assert raw.WhichOneof('content') == 'raw', f'file part is {raw.WhichOneof("content")}'
        assert (raw.raw, raw.filename, raw.media_type) == (b'tck', 'output.txt', 'text/plain'), (
            f'raw part {raw.raw!r} {raw.filename!r} {raw.media_type!r}'
        )
        url = only_part(await self.send_task('x', message_id=f'tck-artifact-file-url-{uuid.uuid4()}'))
        assert url.WhichOneof('content') == 'url', f'url part is {url.WhichOneof("content")}'
        assert (url.url, url.filename, url.media_type) == (
            'https://example.com/output.txt',
            'output.txt',
            'text/plain',
        ), f'url part {url.url!r} {url.filename!r} {url.media_type!r}'

    # 7
    async def check_get_history_length(self):
        task = self.state.get('multi_turn_task')
        if task is None:
            raise Skip('needs multi_turn')
        full = await self.unary.get_task(GetTaskRequest(id=task.id))
        users = [m for m in full.history if m.role == Role.ROLE_USER]
        assert len(users) >= 2, f'full history has {len(users)} user messages ({len(full.history)} in all)'
        one = await self.unary.get_task(GetTaskRequest(id=task.id, history_length=1))
        assert len(one.history) == 1, f'historyLength=1 gave {len(one.history)} messages'
        assert one.history[0] == full.history[-1], 'historyLength=1 is not the latest message'
        none = await self.unary.get_task(GetTaskRequest(id=task.id, history_length=0))
        assert len(none.history) == 0, f'historyLength=0 gave {len(none.history)} messages'

    # 8
    async def check_list_paging(self):
        context_id = f'py-ctx-{uuid.uuid4()}'
        created = [(await self.send_task(f'echo list {i}', context_id=context_id)).id for i in range(3)]
        page1 = await self.unary.list_tasks(ListTasksRequest(context_id=context_id, page_size=2))
        assert len(page1.tasks) == 2, f'page 1 has {len(page1.tasks)} tasks'
        assert page1.next_page_token, 'page 1 has no nextPageToken'
        assert page1.total_size == 3, f'totalSize {page1.total_size}'
        page2 = await self.unary.list_tasks(
            ListTasksRequest(context_id=context_id, page_size=2, page_token=page1.next_page_token)
        )
        assert len(page2.tasks) == 1, f'page 2 has {len(page2.tasks)} tasks'
        assert page2.next_page_token == '', f'last page nextPageToken {page2.next_page_token!r}'
        listed = [t.id for t in page1.tasks] + [t.id for t in page2.tasks]
        assert sorted(listed) == sorted(created), f'listed {listed}, created {created}'
        assert all(t.context_id == context_id for t in list(page1.tasks) + list(page2.tasks)), 'contextId filter'
        assert all(len(t.artifacts) == 0 for t in page1.tasks), 'artifacts listed without includeArtifacts'
        stamps = [t.status.timestamp.ToNanoseconds() for t in list(page1.tasks) + list(page2.tasks)]
        assert stamps == sorted(stamps, reverse=True), 'not newest status timestamp first'

    # 9
    async def check_cancel(self):
        task = await self.send_task('slow 5000', return_immediately=True)
        canceled = await self.unary.cancel_task(CancelTaskRequest(id=task.id))
        assert canceled.id == task.id, 'cancel answered another task'
        assert canceled.status.state == TaskState.TASK_STATE_CANCELED, state_name(canceled.status.state)
        got = await self.unary.get_task(GetTaskRequest(id=task.id))
        assert got.status.state == TaskState.TASK_STATE_CANCELED, f'get after cancel: {state_name(got.status.state)}'

    # 10
    async def check_subscribe(self):
        task = await self.send_task('slow 1500', return_immediately=True)
        events = [e async for e in self.streaming.subscribe(SubscribeToTaskRequest(id=task.id))]
        kinds = [e.WhichOneof('payload') for e in events]
        self.log('subscribe ->', kinds)
        assert kinds and kinds[0] == 'task', f'subscription starts with {kinds[:1]} (spec 3.1.6)'
        assert events[0].task.id == task.id, 'first event is another task'
        last = events[-1]
        final = last.status_update.status.state if last.HasField('status_update') else last.task.status.state
        assert final == TaskState.TASK_STATE_COMPLETED, f'ends with {kinds[-1]} {state_name(final)}'

    # 11-16
    async def check_push_create(self):
        self.webhook = Webhook()
        task = await self.send_task('slow 2000', return_immediately=True)
        a = await self.unary.create_task_push_notification_config(
            TaskPushNotificationConfig(
                task_id=task.id,
                url=self.webhook.url('/hook/a'),
                token='tok-a',
                authentication=AuthenticationInfo(scheme='Bearer', credentials='push-secret'),
            )
        )
        # B names its own id, which the agent keeps (spec 3.1.7-3.1.8; issue
        # 14 item 1), so an agent which defaults the id (to the task id, say)
        # cannot make B replace A; push_ids_distinct checks that.
        chosen = f'cfg-b-{uuid.uuid4()}'
        b = await self.unary.create_task_push_notification_config(
            TaskPushNotificationConfig(
                task_id=task.id, id=chosen, url=self.webhook.url('/hook/b'), token='tok-b'
            )
        )
        assert a.id, 'no server-assigned config id for a config created without one'
        assert b.id == chosen, f'config created with id {chosen!r} came back as {b.id!r} (spec 3.1.7)'
        for cfg, path in ((a, '/hook/a'), (b, '/hook/b')):
            assert cfg.task_id == task.id, f'config taskId {cfg.task_id!r}'
            assert cfg.url == self.webhook.url(path), f'config url {cfg.url!r}'
        assert a.id != b.id, 'two configs got the same id'
        self.state['push'] = (task, a, b)

    def push_state(self):
        if 'push' not in self.state:
            raise Skip('needs push_create')
        return self.state['push']

    async def check_push_get(self):
        task, a, b = self.push_state()
        got = await self.unary.get_task_push_notification_config(
            GetTaskPushNotificationConfigRequest(task_id=task.id, id=a.id)
        )
        assert (got.id, got.url, got.token) == (a.id, a.url, 'tok-a'), f'got {got}'
        assert got.authentication.scheme.lower() == 'bearer', f'authentication {got.authentication}'
        # The client-chosen id finds its config (spec 3.1.8).
        got_b = await self.unary.get_task_push_notification_config(
            GetTaskPushNotificationConfigRequest(task_id=task.id, id=b.id)
        )
        assert (got_b.id, got_b.url, got_b.token) == (b.id, b.url, 'tok-b'), f'got {got_b}'

    async def check_push_list(self):
        task, a, b = self.push_state()
        listed = await self.unary.list_task_push_notification_configs(
            ListTaskPushNotificationConfigsRequest(task_id=task.id)
        )
        ids = sorted(c.id for c in listed.configs)
        assert ids == sorted([a.id, b.id]), f'listed {ids}'

    async def wait_for_completion(self, path: str, task_id: str) -> list[dict]:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            for post in self.webhook.received(path):
                body = post['json'] or {}
                state = (body.get('statusUpdate') or body.get('task') or {}).get('status', {}).get('state')
                if state == 'TASK_STATE_COMPLETED':
                    return self.webhook.received(path)
            await asyncio.sleep(0.1)
        raise AssertionError(f'no COMPLETED notification at {path} in 10 s ({len(self.webhook.received(path))} POSTs)')

    async def check_push_delivery(self):
        task, _, _ = self.push_state()
        posts = await self.wait_for_completion('/hook/a', task.id)
        for post in posts:
            auth = post['headers'].get('authorization')
            assert auth == 'Bearer push-secret', f'Authorization {auth!r} (spec 4.3.3)'
            body = post['json']
            assert isinstance(body, dict), 'body is not a JSON object'
            keys = set(body) & {'task', 'message', 'statusUpdate', 'artifactUpdate'}
            assert len(keys) == 1 and len(body) == 1, f'not one StreamResponse member: {sorted(body)}'
            (kind,) = keys
            tid = body[kind].get('id') if kind == 'task' else body[kind].get('taskId')
            assert tid == task.id, f'notification for task {tid!r}'
            ctype = post['headers'].get('content-type', '')
            assert 'json' in ctype, f'Content-Type {ctype!r}'
        self.log('push content types', sorted({p['headers'].get('content-type') for p in posts}))

    async def check_push_token(self):
        task, _, _ = self.push_state()
        posts = await self.wait_for_completion('/hook/b', task.id)
        for post in posts:
            token = post['headers'].get('x-a2a-notification-token')
            assert token == 'tok-b', f'X-A2A-Notification-Token {token!r}'

    async def check_push_delete(self):
        task, a, b = self.push_state()
        await self.unary.delete_task_push_notification_config(
            DeleteTaskPushNotificationConfigRequest(task_id=task.id, id=a.id)
        )
        listed = await self.unary.list_task_push_notification_configs(
            ListTaskPushNotificationConfigsRequest(task_id=task.id)
        )
        ids = [c.id for c in listed.configs]
        assert a.id not in ids and b.id in ids, f'after delete, listed {ids}'
        # spec 3.1.10: deletion MUST be idempotent
        await self.unary.delete_task_push_notification_config(
            DeleteTaskPushNotificationConfigRequest(task_id=task.id, id=a.id)
        )

    async def check_push_ids_distinct(self):
        if self.webhook is None:
            raise Skip('needs push_create')
        task = await self.send_task('slow 2000', return_immediately=True)
        configs = [
            await self.unary.create_task_push_notification_config(
                TaskPushNotificationConfig(task_id=task.id, url=self.webhook.url(f'/hook/c{i}'))
            )
            for i in (1, 2)
        ]
        ids = [c.id for c in configs]
        assert all(ids) and ids[0] != ids[1], f'two configs created without ids got ids {ids} (spec 3.1.7)'
        listed = await self.unary.list_task_push_notification_configs(
            ListTaskPushNotificationConfigsRequest(task_id=task.id)
        )
        assert sorted(c.id for c in listed.configs) == sorted(ids), f'listed {[c.id for c in listed.configs]}'

    # 17
    async def check_extended_card(self):
        if not self.bearer:
            raise Skip('no --bearer given')
        public = self.unary._card
        assert public.capabilities.extended_agent_card, 'public card does not declare extendedAgentCard'
        ext = await self.unary.get_extended_agent_card(GetExtendedAgentCardRequest())
        assert ext.name, 'extended card has no name'
        assert len(ext.skills) > len(public.skills), (
            f'extended card has {len(ext.skills)} skills, the public one {len(public.skills)}'
        )

    async def check_extended_card_unauthenticated(self):
        if not self.bearer:
            raise Skip('no --bearer given')
        async with httpx.AsyncClient(timeout=REQUEST_TIMEOUT) as anonymous:
            client = await self.make_client(streaming=False, anonymous=anonymous)
            try:
                card = await client.get_extended_agent_card(GetExtendedAgentCardRequest())
            except A2AError as e:
                self.log('unauthenticated extended card ->', type(e).__name__, e)
                return
            raise AssertionError(f'extended card served without credentials ({len(card.skills)} skills)')

    # 18
    async def check_error_unknown_task(self):
        try:
            await self.unary.get_task(GetTaskRequest(id=f'no-such-task-{uuid.uuid4()}'))
        except TaskNotFoundError:
            return
        except A2AError as e:
            raise AssertionError(f'{type(e).__name__}: {e}, not TaskNotFoundError') from e
        raise AssertionError('GetTask of an unknown task succeeded')

    async def check_error_cancel_completed(self):
        task = self.state.get('completed_task') or await self.send_task('echo done')
        try:
            got = await self.unary.cancel_task(CancelTaskRequest(id=task.id))
        except TaskNotCancelableError:
            return
        except A2AError as e:
            raise AssertionError(f'{type(e).__name__}: {e}, not TaskNotCancelableError') from e
        raise AssertionError(f'cancel of a completed task answered {state_name(got.status.state)}')

    async def check_error_subscribe_terminal(self):
        task = self.state.get('completed_task') or await self.send_task('echo done')
        try:
            events = [e async for e in self.streaming.subscribe(SubscribeToTaskRequest(id=task.id))]
        except UnsupportedOperationError:
            return
        except A2AError as e:
            raise AssertionError(f'{type(e).__name__}: {e}, not UnsupportedOperationError') from e
        raise AssertionError(f'subscribe to a completed task streamed {[e.WhichOneof("payload") for e in events]}')


ORDER = [
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
]


async def run(args) -> int:
    checks = Checks(args.url, args.binding, args.bearer, args.verbose)
    passed = failed = skipped = 0
    only = set(args.only.split(',')) if args.only else None
    try:
        try:
            await asyncio.wait_for(checks.setup(), CHECK_TIMEOUT)
        except Exception as e:  # noqa: BLE001
            print(f'FAIL card: could not create a client from {args.url}: {type(e).__name__}: {e}')
            print('0 passed, 1 failed')
            return 1
        for name in ORDER:
            if only and name not in only:
                continue
            try:
                await asyncio.wait_for(getattr(checks, f'check_{name}')(), CHECK_TIMEOUT)
            except Skip as e:
                skipped += 1
                print(f'SKIP {name}: {e}')
            except AssertionError as e:
                failed += 1
                print(f'FAIL {name}: {e}')
            except TimeoutError:
                failed += 1
                print(f'FAIL {name}: timed out after {CHECK_TIMEOUT:.0f} s')
            except Exception as e:  # noqa: BLE001 - an SDK error is a failed check
                failed += 1
                print(f'FAIL {name}: {type(e).__name__}: {e}')
            else:
                passed += 1
                print(f'PASS {name}')
            sys.stdout.flush()
    finally:
        await checks.close()
    tail = f', {skipped} skipped' if skipped else ''
    print(f'{passed} passed, {failed} failed{tail}')
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description='A2A interop checks with the official Python SDK client')
    parser.add_argument('--url', required=True, help='agent base URL (the card is at /.well-known/agent-card.json)')
    parser.add_argument('--binding', required=True, choices=sorted(BINDINGS))
    parser.add_argument('--bearer', help='bearer token for every call (enables the extended card checks)')
    parser.add_argument('--only', help='comma-separated check names')
    parser.add_argument('-v', '--verbose', action='store_true')
    args = parser.parse_args()
    return asyncio.run(run(args))


if __name__ == '__main__':
    sys.exit(main())
