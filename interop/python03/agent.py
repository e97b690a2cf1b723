"""An A2A 0.3 agent written with the Python SDK's 0.3 line (a2a-sdk 0.3.26).

The 0.3 twin of interop/python/agent.py: the same message-text contract of
the a2a-core reference agent (issue 6), so that interop/python03 and
interop/node03's client checks run against it, the reference agent's 0.3
path and the 1.0 SDKs' compatibility layers alike:

  echo <x>        working, artifact `echo` holding <x>, completed
  stream <n> [ms] working, n chunks `chunk <i> ` of one artifact `stream`
                  (append after the first, lastChunk on the last), completed
  input | auth    input-required | auth-required with a status message; the
                  next message on the task completes it (`got: <text>`)
  slow [ms]       working for ms (default 2000), cancelable
  fail | reject   failed | rejected
  message <x>     a direct Message holding <x>
  tck-artifact-{data,file,file-url} messageIds: one data / bytes / uri part

It serves JSON-RPC at /jsonrpc and HTTP+JSON at /rest (the SDK's 0.3 REST
routes, /rest/v1/...), and the 0.3 card (`url`, `preferredTransport`
JSONRPC, `additionalInterfaces`, `protocolVersion` 0.3.0) at
/.well-known/agent-card.json. With --bearer every A2A call needs
`Authorization: Bearer <token>` and the authenticated extended card is on.

Usage: python agent.py --port N [--host 127.0.0.1] [--bearer TOKEN]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import logging
import sys
import uuid

import httpx
import uvicorn

from starlette.responses import JSONResponse

from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.apps import A2ARESTFastAPIApplication, A2AStarletteApplication
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.tasks import (
    BasePushNotificationSender,
    InMemoryPushNotificationConfigStore,
    InMemoryTaskStore,
    TaskUpdater,
)
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    DataPart,
    FilePart,
    FileWithBytes,
    FileWithUri,
    HTTPAuthSecurityScheme,
    Message,
    Part,
    Role,
    SecurityScheme,
    Task,
    TaskState,
    TaskStatus,
    TextPart,
)

SDK_VERSION = '0.3.26'


def text(value: str) -> Part:
    return Part(root=TextPart(text=value))


def first_text(message: Message | None) -> str:
    for part in (message.parts if message else []):
        if isinstance(part.root, TextPart):
            return part.root.text
    return ''


class BehaviourExecutor(AgentExecutor):
    """The reference agent's message-driven behaviour on the 0.3 executor."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        words = first_text(message).strip()
        message_id = message.message_id if message else ''
        task = context.current_task
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)

        if task is not None:
            # A follow-up resumes an interrupted task; otherwise nothing changes.
            if task.status.state in (TaskState.input_required, TaskState.auth_required):
                await updater.start_work()
                await updater.add_artifact([text(f'got: {words}')], name='answer')
                await updater.complete()
            return

        command, _, arg = words.partition(' ')
        arg = arg.strip()
        if command == 'message':
            await event_queue.enqueue_event(
                Message(
                    message_id=str(uuid.uuid4()),
                    role=Role.agent,
                    parts=[text(arg)],
                    context_id=context.context_id,
                )
            )
            return

        await event_queue.enqueue_event(
            Task(
                id=context.task_id,
                context_id=context.context_id,
                status=TaskStatus(state=TaskState.submitted),
                history=[message] if message is not None else [],
            )
        )
        if message_id.startswith('tck-artifact-'):
            kind = message_id[len('tck-artifact-') :]
            if kind.startswith('data'):
                part = Part(root=DataPart(data={'key': 'value', 'count': 42}))
            elif kind.startswith('file-url'):
                part = Part(
                    root=FilePart(
                        file=FileWithUri(uri='https://example.com/output.txt', mime_type='text/plain', name='output.txt')
                    )
                )
            else:
                part = Part(
                    root=FilePart(
                        file=FileWithBytes(
                            bytes=base64.b64encode(b'tck').decode(), mime_type='text/plain', name='output.txt'
                        )
                    )
                )
            await updater.add_artifact([part], name='part')
            await updater.complete()
        elif command == 'echo':
            await updater.start_work()
            await updater.add_artifact([text(arg)], name='echo')
            await updater.complete()
        elif command == 'stream':
            args = arg.split()
            n = int(args[0]) if args else 3
            delay_ms = int(args[1]) if len(args) > 1 else 0
            await updater.start_work()
            artifact_id = f'stream-{context.task_id}'
            for i in range(1, n + 1):
                if delay_ms:
                    await asyncio.sleep(delay_ms / 1000)
                await updater.add_artifact(
                    [text(f'chunk {i} ')], artifact_id=artifact_id, name='stream', append=i > 1, last_chunk=i == n
                )
            await updater.complete()
        elif command == 'input':
            await updater.requires_input(updater.new_agent_message([text('need input')]))
        elif command == 'auth':
            await updater.requires_auth(updater.new_agent_message([text('need authorization: send any message')]))
        elif command == 'slow':
            ms = int(arg) if arg else 2000
            await updater.start_work()
            steps = max(1, ms // 50)
            for _ in range(steps):
                await asyncio.sleep(ms / 1000 / steps)
            await updater.add_artifact([text(f'slept {ms} ms')], name='slow')
            await updater.complete()
        elif command == 'fail':
            await updater.start_work()
            await updater.failed(updater.new_agent_message([text('failed as asked')]))
        elif command == 'reject':
            await updater.reject(updater.new_agent_message([text('rejected as asked')]))
        else:
            await updater.start_work()
            await updater.add_artifact([text(words)], name='echo')
            await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


def build_card(base: str, bearer: bool, extended: bool = False) -> AgentCard:
    skills = [
        AgentSkill(
            id='behaviour',
            name='Scripted behaviour',
            description='echo <x>, stream <n> [ms], input, auth, slow [ms], fail, reject, message <x>',
            tags=['test', 'echo'],
            examples=['echo hello', 'stream 5'],
        )
    ]
    if extended:
        skills.append(AgentSkill(id='tck', name='Test-kit scenarios', description='tck-* messageIds', tags=['tck']))
    return AgentCard(
        name=f'a2a-sdk {SDK_VERSION} interop agent (Python, A2A 0.3)',
        description='The a2a-core reference agent behaviour, written with the Python SDK 0.3 line'
        + (' (extended card for authenticated callers)' if extended else ''),
        version=SDK_VERSION,
        protocol_version='0.3.0',
        url=f'{base}/jsonrpc',
        preferred_transport='JSONRPC',
        additional_interfaces=[
            AgentInterface(url=f'{base}/jsonrpc', transport='JSONRPC'),
            AgentInterface(url=f'{base}/rest', transport='HTTP+JSON'),
        ],
        capabilities=AgentCapabilities(streaming=True, push_notifications=True),
        supports_authenticated_extended_card=bearer,
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain', 'application/json'],
        skills=skills,
        security_schemes={'bearer': SecurityScheme(root=HTTPAuthSecurityScheme(scheme='Bearer'))} if bearer else None,
        security=[{'bearer': []}] if bearer else None,
    )


class BearerGuard:
    """ASGI middleware: every A2A call needs the bearer token, the public
    card does not (the SDK leaves authentication to the host)."""

    def __init__(self, app, token: str | None):
        self.app = app
        self.expected = f'Bearer {token}' if token else None

    async def __call__(self, scope, receive, send):
        if self.expected and scope['type'] == 'http' and scope['path'] != '/.well-known/agent-card.json':
            headers = dict(scope.get('headers') or [])
            if headers.get(b'authorization', b'').decode('latin-1') != self.expected:
                response = JSONResponse(
                    {'error': 'bearer token required'},
                    status_code=401,
                    headers={'WWW-Authenticate': 'Bearer realm="a2a"'},
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def build_app(port: int, host: str, bearer: str | None):
    base = f'http://{host}:{port}'
    card = build_card(base, bearer is not None)
    extended = build_card(base, True, extended=True) if bearer else None
    push_store = InMemoryPushNotificationConfigStore()
    handler = DefaultRequestHandler(
        agent_executor=BehaviourExecutor(),
        task_store=InMemoryTaskStore(),
        push_config_store=push_store,
        push_sender=BasePushNotificationSender(httpx.AsyncClient(timeout=5.0), push_store),
    )
    # The REST app (FastAPI) holds /rest/v1/...; the JSON-RPC routes and
    # the one public card are added to it.
    app = A2ARESTFastAPIApplication(card, handler, extended_agent_card=extended).build(
        agent_card_url='/.well-known/agent-card.json', rpc_url='/rest'
    )
    A2AStarletteApplication(card, handler, extended_agent_card=extended).add_routes_to_app(
        app, agent_card_url='/.well-known/agent-card.json', rpc_url='/jsonrpc'
    )
    return BearerGuard(app, bearer)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--host', default='127.0.0.1')
    parser.add_argument('--bearer', default=None)
    parser.add_argument('--log-level', default='warning')
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    config = uvicorn.Config(
        build_app(args.port, args.host, args.bearer),
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        timeout_graceful_shutdown=1,
    )
    asyncio.run(uvicorn.Server(config).serve())
    return 0


if __name__ == '__main__':
    sys.exit(main())
