"""Interop checks driven by the Python SDK's 0.3 client (a2a-sdk 0.3.26).

The 0.3 twin of interop/python/client_checks.py: the same 24 checks, in the
same order and under the same names, written against the 0.3 client API and
the 0.3 shapes (`kind`-tagged parts, lower-case states, the Task as the
push notification body, spec 0.3 section 9.5). Point it at any A2A 0.3
agent with the reference agent's message-text contract (issue 6).

  python client_checks.py --url http://127.0.0.1:8080 --binding jsonrpc|rest
                          [--bearer TOKEN] [--only NAME,NAME] [-v]

A check whose operation 0.3 lacks (ListTasks), or which this SDK's client
has no call for (list and delete of push configs), prints `SKIP name: why`.
Prints `PASS`/`FAIL`/`SKIP` lines and `N passed, M failed[, K skipped]`;
exits 1 when a check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import sys
import threading
import time
import uuid

from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx

from a2a.client import ClientConfig, ClientFactory
from a2a.client.card_resolver import A2ACardResolver
from a2a.client.errors import A2AClientHTTPError, A2AClientJSONRPCError
from a2a.types import (
    DataPart,
    FilePart,
    GetTaskPushNotificationConfigParams,
    Message,
    MessageSendConfiguration,
    Part,
    PushNotificationAuthenticationInfo,
    PushNotificationConfig,
    Role,
    Task,
    TaskArtifactUpdateEvent,
    TaskIdParams,
    TaskPushNotificationConfig,
    TaskQueryParams,
    TaskState,
    TaskStatusUpdateEvent,
    TextPart,
)

BINDINGS = {'jsonrpc': 'JSONRPC', 'rest': 'HTTP+JSON'}
TRANSPORTS = {'JSONRPC': 'JsonRpcTransport', 'HTTP+JSON': 'RestTransport'}
TERMINAL = {TaskState.completed, TaskState.failed, TaskState.canceled, TaskState.rejected}
CHECK_TIMEOUT = 20.0
REQUEST_TIMEOUT = 10.0
# 0.3 error codes (spec 0.3 section 8.2) and the HTTP statuses the
# HTTP+JSON binding may answer them with: section 3.2.3 asks only for an
# "appropriate" status, so a not-cancelable task may be 400 or 409.
TASK_NOT_FOUND = (-32001, 404)
NOT_CANCELABLE = (-32002, 400, 409)


class Skip(Exception):
    """A check that cannot run against this peer (the reason says why)."""


def text_of(parts) -> str:
    return ''.join(p.root.text for p in parts if isinstance(p.root, TextPart))


def user_message(text: str, *, message_id: str | None = None, task_id: str | None = None, context_id=None) -> Message:
    return Message(
        message_id=message_id or f'py03-{uuid.uuid4()}',
        role=Role.user,
        parts=[Part(root=TextPart(text=text))],
        task_id=task_id,
        context_id=context_id,
    )


def error_code(e: Exception):
    """The JSON-RPC error code or the HTTP status an SDK error carries."""
    if isinstance(e, A2AClientJSONRPCError):
        return e.error.code
    if isinstance(e, A2AClientHTTPError):
        return e.status_code
    return None


def expect_error(codes, what: str):
    """A context manager: the block must raise an SDK error with one of codes."""

    class Expect:
        def __enter__(self):
            return self

        def __exit__(self, kind, value, tb):
            if value is None:
                raise AssertionError(f'{what} succeeded')
            code = error_code(value)
            if code is None:
                return False
            assert code in codes, f'{what}: {type(value).__name__} {code} {value}, wanted one of {codes}'
            return True

    return Expect()


class Webhook:
    """A loopback HTTP receiver that records every POST (path, headers, body)."""

    def __init__(self) -> None:
        self.posts: list[dict] = []
        self.lock = threading.Lock()
        hook = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'

            def do_POST(self):  # noqa: N802
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

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path: str) -> str:
        return f'http://127.0.0.1:{self.port}{path}'

    def received(self, path: str) -> list[dict]:
        with self.lock:
            return [p for p in self.posts if p['path'] == path]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def snapshot(event):
    if isinstance(event, tuple):
        return tuple(x.model_copy(deep=True) if x is not None else None for x in event)
    return event.model_copy(deep=True)


def final_state(event) -> TaskState:
    task, update = event if isinstance(event, tuple) else (event, None)
    if isinstance(update, TaskStatusUpdateEvent):
        return update.status.state
    return task.status.state


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

    async def make_client(self, streaming: bool, http: httpx.AsyncClient | None = None):
        http = http or self.http
        card = await A2ACardResolver(http, self.url).get_agent_card()
        config = ClientConfig(streaming=streaming, supported_transports=[self.binding], httpx_client=http)
        return ClientFactory(config).create(card)

    async def setup(self) -> None:
        self.unary = await self.make_client(streaming=False)
        self.streaming = await self.make_client(streaming=True)

    async def close(self) -> None:
        await self.http.aclose()
        if self.webhook:
            self.webhook.close()

    def log(self, *args) -> None:
        if self.verbose:
            print('   ', *args, file=sys.stderr)

    async def send(self, text: str, *, client=None, blocking: bool = True, **kw):
        # Each event copied as it comes: the SDK's task tracker appends later
        # chunks to the artifact object an earlier update event still holds.
        events = [
            snapshot(e)
            async for e in (client or self.unary).send_message(
                user_message(text, **kw), configuration=MessageSendConfiguration(blocking=blocking)
            )
        ]
        self.log(text, '->', [type(e[1] if isinstance(e, tuple) else e).__name__ for e in events])
        return events

    async def send_task(self, text: str, **kw) -> Task:
        events = await self.send(text, **kw)
        assert len(events) == 1 and isinstance(events[0], tuple), f'expected one Task, got {events}'
        return events[0][0]

    # 1
    async def check_card(self):
        card = self.unary._card
        assert card.name, 'card has no name'
        offered = {card.preferred_transport or 'JSONRPC': card.url}
        offered.update({i.transport: i.url for i in card.additional_interfaces or []})
        assert self.binding in offered, f'card offers {sorted(offered)}, not {self.binding}'
        assert card.protocol_version.startswith('0.3'), f'protocolVersion {card.protocol_version!r}'
        assert card.capabilities.streaming, 'card does not declare streaming'
        assert card.capabilities.push_notifications, 'card does not declare push notifications'
        chosen = type(self.unary._transport).__name__
        assert chosen == TRANSPORTS[self.binding], f'SDK chose {chosen}, wanted {TRANSPORTS[self.binding]}'

    # 2
    async def check_send_blocking(self):
        task = await self.send_task('echo hello interop')
        assert task.status.state == TaskState.completed, task.status.state
        assert task.id and task.context_id, 'task id or context id missing'
        texts = [text_of(a.parts) for a in task.artifacts or []]
        assert texts == ['hello interop'], f'artifacts {texts}'
        # (TaskStatus.timestamp is optional in 0.3, unlike the 1.0 check)
        self.state['completed_task'] = task

    # 3
    async def check_send_nonblocking_poll(self):
        task = await self.send_task('slow 800', blocking=False)
        assert task.status.state in (TaskState.submitted, TaskState.working), f'blocking=false: {task.status.state}'
        deadline = time.monotonic() + 10
        seen = [task.status.state]
        while time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            got = await self.unary.get_task(TaskQueryParams(id=task.id))
            if got.status.state != seen[-1]:
                seen.append(got.status.state)
            if got.status.state in TERMINAL:
                break
        assert seen[-1] == TaskState.completed, f'states seen {seen}'
        names = [a.name for a in got.artifacts or []]
        assert names == ['slow'], f'artifacts {names}'

    # 4
    async def check_direct_message(self):
        events = await self.send('message hi there')
        assert len(events) == 1 and isinstance(events[0], Message), f'expected one Message, got {events}'
        msg = events[0]
        assert msg.role == Role.agent, f'role {msg.role}'
        assert text_of(msg.parts) == 'hi there', f'text {text_of(msg.parts)!r}'
        assert msg.message_id, 'message has no messageId'

    # 5
    async def check_stream_chunks(self):
        events = await self.send('stream 3', client=self.streaming)
        assert events and events[0][1] is None, f'stream starts with {events[:1]}'
        chunks = [u for _, u in events if isinstance(u, TaskArtifactUpdateEvent)]
        assert len(chunks) == 3, f'{len(chunks)} artifact updates'
        assert [bool(c.append) for c in chunks] == [False, True, True], f'append {[c.append for c in chunks]}'
        assert [bool(c.last_chunk) for c in chunks] == [False, False, True], 'lastChunk'
        assert len({c.artifact.artifact_id for c in chunks}) == 1, 'chunks of different artifacts'
        text = ''.join(text_of(c.artifact.parts) for c in chunks)
        assert text == 'chunk 1 chunk 2 chunk 3 ', f'text {text!r}'
        assert final_state(events[-1]) == TaskState.completed, f'stream ends {final_state(events[-1])}'
        last = events[-1][1]
        assert isinstance(last, TaskStatusUpdateEvent) and last.final, 'last event is not a final status-update'
        assert all(c.task_id == events[0][0].id for c in chunks), 'artifact update for another task'

    # 6
    async def check_multi_turn(self):
        task = await self.send_task('input')
        assert task.status.state == TaskState.input_required, task.status.state
        assert text_of(task.status.message.parts) == 'need input', f'status message {task.status.message}'
        done = await self.send_task('more please', task_id=task.id, context_id=task.context_id)
        assert done.id == task.id and done.context_id == task.context_id, 'follow-up landed elsewhere'
        assert done.status.state == TaskState.completed, done.status.state
        texts = [text_of(a.parts) for a in done.artifacts or []]
        assert 'got: more please' in texts, f'artifacts {texts}'
        self.state['multi_turn_task'] = done

    async def check_auth_required(self):
        task = await self.send_task('auth')
        assert task.status.state == TaskState.auth_required, task.status.state
        assert task.status.message and text_of(task.status.message.parts), 'auth-required without a status message'
        done = await self.send_task('here are my credentials', task_id=task.id, context_id=task.context_id)
        assert done.id == task.id and done.status.state == TaskState.completed, f'follow-up {done.status.state}'
        texts = [text_of(a.parts) for a in done.artifacts or []]
        assert 'got: here are my credentials' in texts, f'artifacts {texts}'

    async def check_part_shapes(self):
        def only_part(task):
            assert task.status.state == TaskState.completed, task.status.state
            parts = [p.root for a in task.artifacts or [] for p in a.parts]
            assert len(parts) == 1, f'{len(parts)} parts'
            return parts[0]

        data = only_part(await self.send_task('x', message_id=f'tck-artifact-data-{uuid.uuid4()}'))
        assert isinstance(data, DataPart) and data.data == {'key': 'value', 'count': 42}, f'data part {data}'
        raw = only_part(await self.send_task('x', message_id=f'tck-artifact-file-{uuid.uuid4()}'))
        assert isinstance(raw, FilePart) and getattr(raw.file, 'bytes', None), f'file part {raw}'
        assert base64.b64decode(raw.file.bytes) == b'tck', f'bytes {raw.file.bytes!r}'
        uri = only_part(await self.send_task('x', message_id=f'tck-artifact-file-url-{uuid.uuid4()}'))
        assert isinstance(uri, FilePart) and getattr(uri.file, 'uri', None) == 'https://example.com/output.txt', (
            f'file part {uri}'
        )

    # 7
    async def check_get_history_length(self):
        task = self.state.get('multi_turn_task')
        if task is None:
            raise Skip('needs multi_turn')
        full = await self.unary.get_task(TaskQueryParams(id=task.id))
        users = [m for m in full.history or [] if m.role == Role.user]
        assert len(users) >= 2, f'full history has {len(users)} user messages'
        one = await self.unary.get_task(TaskQueryParams(id=task.id, history_length=1))
        assert len(one.history or []) == 1, f'historyLength=1 gave {len(one.history or [])} messages'
        assert one.history[0].message_id == full.history[-1].message_id, 'historyLength=1 is not the latest'

    # 8
    async def check_list_paging(self):
        raise Skip('ListTasks has no A2A 0.3 method (tasks/list is 1.0 only)')

    # 9
    async def check_cancel(self):
        task = await self.send_task('slow 5000', blocking=False)
        canceled = await self.unary.cancel_task(TaskIdParams(id=task.id))
        assert canceled.id == task.id, 'cancel answered another task'
        assert canceled.status.state == TaskState.canceled, canceled.status.state
        got = await self.unary.get_task(TaskQueryParams(id=task.id))
        assert got.status.state == TaskState.canceled, f'get after cancel: {got.status.state}'

    # 10
    async def check_subscribe(self):
        task = await self.send_task('slow 1500', blocking=False)
        events = [snapshot(e) async for e in self.streaming.resubscribe(TaskIdParams(id=task.id))]
        assert events, 'resubscribe streamed nothing'
        assert events[0][0].id == task.id, 'first event is another task'
        assert final_state(events[-1]) == TaskState.completed, f'ends {final_state(events[-1])}'

    # 11-16
    async def check_push_create(self):
        self.webhook = Webhook()
        task = await self.send_task('slow 2000', blocking=False)
        a = await self.unary.set_task_callback(
            TaskPushNotificationConfig(
                task_id=task.id,
                push_notification_config=PushNotificationConfig(
                    url=self.webhook.url('/hook/a'),
                    token='tok-a',
                    authentication=PushNotificationAuthenticationInfo(schemes=['Bearer'], credentials='push-secret'),
                ),
            )
        )
        chosen = f'cfg-b-{uuid.uuid4()}'
        b = await self.unary.set_task_callback(
            TaskPushNotificationConfig(
                task_id=task.id,
                push_notification_config=PushNotificationConfig(
                    id=chosen, url=self.webhook.url('/hook/b'), token='tok-b'
                ),
            )
        )
        assert b.push_notification_config.id == chosen, f'config id {chosen!r} came back as {b.push_notification_config.id!r}'
        for cfg, path in ((a, '/hook/a'), (b, '/hook/b')):
            assert cfg.task_id == task.id, f'config taskId {cfg.task_id!r}'
            assert cfg.push_notification_config.url == self.webhook.url(path), 'config url'
        assert a.push_notification_config.id != b.push_notification_config.id, 'two configs got the same id'
        self.state['push'] = (task, a, b)

    def push_state(self):
        if 'push' not in self.state:
            raise Skip('needs push_create')
        return self.state['push']

    async def check_push_get(self):
        task, a, b = self.push_state()
        for cfg, token in ((a, 'tok-a'), (b, 'tok-b')):
            got = await self.unary.get_task_callback(
                GetTaskPushNotificationConfigParams(id=task.id, push_notification_config_id=cfg.push_notification_config.id)
            )
            p = got.push_notification_config
            assert (p.id, p.url, p.token) == (cfg.push_notification_config.id, cfg.push_notification_config.url, token), (
                f'got {got}'
            )

    async def check_push_list(self):
        raise Skip('a2a-sdk 0.3.26 client has no call for tasks/pushNotificationConfig/list (SDK03-PY-1)')

    async def wait_for_completion(self, path: str) -> list[dict]:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            for post in self.webhook.received(path):
                if ((post['json'] or {}).get('status') or {}).get('state') == 'completed':
                    return self.webhook.received(path)
            await asyncio.sleep(0.1)
        raise AssertionError(f'no completed notification at {path} in 10 s ({len(self.webhook.received(path))} POSTs)')

    async def check_push_delivery(self):
        task, _, _ = self.push_state()
        for post in await self.wait_for_completion('/hook/a'):
            body = post['json']
            # spec 0.3 section 9.5: the Task object is the payload
            assert isinstance(body, dict) and body.get('id') == task.id, f'notification body {body}'
            assert body.get('kind') == 'task', f'notification kind {body.get("kind")!r}'
            assert 'json' in post['headers'].get('content-type', ''), 'Content-Type'

    async def check_push_token(self):
        self.push_state()
        for post in await self.wait_for_completion('/hook/b'):
            token = post['headers'].get('x-a2a-notification-token')
            assert token == 'tok-b', f'X-A2A-Notification-Token {token!r}'

    async def check_push_delete(self):
        raise Skip('a2a-sdk 0.3.26 client has no call for tasks/pushNotificationConfig/delete (SDK03-PY-1)')

    async def check_push_ids_distinct(self):
        if self.webhook is None:
            raise Skip('needs push_create')
        task = await self.send_task('slow 2000', blocking=False)
        configs = [
            await self.unary.set_task_callback(
                TaskPushNotificationConfig(
                    task_id=task.id, push_notification_config=PushNotificationConfig(url=self.webhook.url(f'/hook/c{i}'))
                )
            )
            for i in (1, 2)
        ]
        ids = [c.push_notification_config.id for c in configs]
        assert all(ids) and ids[0] != ids[1], f'two configs created without ids got ids {ids}'

    # 17
    async def check_extended_card(self):
        if not self.bearer:
            raise Skip('no --bearer given')
        public = self.unary._card
        assert public.supports_authenticated_extended_card, 'card does not declare supportsAuthenticatedExtendedCard'
        ext = await self.unary.get_card()
        assert ext.name, 'extended card has no name'
        assert len(ext.skills) > len(public.skills), f'extended {len(ext.skills)} skills, public {len(public.skills)}'

    async def check_extended_card_unauthenticated(self):
        if not self.bearer:
            raise Skip('no --bearer given')
        async with httpx.AsyncClient(timeout=REQUEST_TIMEOUT) as anonymous:
            client = await self.make_client(streaming=False, http=anonymous)
            try:
                card = await client.get_card()
            except (A2AClientHTTPError, A2AClientJSONRPCError) as e:
                self.log('unauthenticated extended card ->', type(e).__name__, e)
                return
            raise AssertionError(f'extended card served without credentials ({len(card.skills)} skills)')

    # 18
    async def check_error_unknown_task(self):
        with expect_error(TASK_NOT_FOUND, 'tasks/get of an unknown task'):
            await self.unary.get_task(TaskQueryParams(id=f'no-such-task-{uuid.uuid4()}'))

    async def check_error_cancel_completed(self):
        task = self.state.get('completed_task') or await self.send_task('echo done')
        with expect_error(NOT_CANCELABLE, 'tasks/cancel of a completed task'):
            await self.unary.cancel_task(TaskIdParams(id=task.id))

    async def check_error_subscribe_terminal(self):
        task = self.state.get('completed_task') or await self.send_task('echo done')
        # 0.3 leaves the answer open (spec 0.3 section 7.9): an A2A error, or
        # a stream that ends in the terminal state; a broken stream fails.
        try:
            events = [snapshot(e) async for e in self.streaming.resubscribe(TaskIdParams(id=task.id))]
        except A2AClientJSONRPCError as e:
            self.log('resubscribe to a completed task ->', e.error.code, e.error.message)
            return
        except A2AClientHTTPError as e:
            assert 400 <= e.status_code < 500, f'resubscribe to a completed task: {e}'
            return
        assert events and final_state(events[-1]) == TaskState.completed, f'resubscribe streamed {events}'


ORDER = [
    'card', 'send_blocking', 'send_nonblocking_poll', 'direct_message', 'stream_chunks', 'multi_turn',
    'auth_required', 'get_history_length', 'list_paging', 'cancel', 'subscribe', 'push_create', 'push_get',
    'push_list', 'push_delivery', 'push_token', 'push_delete', 'push_ids_distinct', 'extended_card',
    'extended_card_unauthenticated', 'error_unknown_task', 'error_cancel_completed', 'error_subscribe_terminal',
    'part_shapes',
]  # fmt: skip


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
    parser = argparse.ArgumentParser(description='A2A 0.3 interop checks with the Python SDK 0.3 client')
    parser.add_argument('--url', required=True, help='agent base URL (the card is at /.well-known/agent-card.json)')
    parser.add_argument('--binding', required=True, choices=sorted(BINDINGS))
    parser.add_argument('--bearer', help='bearer token for every call (enables the extended card checks)')
    parser.add_argument('--only', help='comma-separated check names')
    parser.add_argument('-v', '--verbose', action='store_true')
    return asyncio.run(run(parser.parse_args()))


if __name__ == '__main__':
    sys.exit(main())
