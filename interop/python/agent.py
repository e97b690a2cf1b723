"""An A2A agent written with the official Python SDK (a2a-sdk), for interop.

It mirrors the message-text contract of the a2a-core reference agent
(conformance/reference-agent, issue 6) as far as the SDK allows, so that the
same client checks run against either:

  echo <x>        WORKING, artifact `echo` holding <x>, COMPLETED
  stream <n> [ms] WORKING, n chunks `chunk <i> ` of one artifact `stream`
                  (append after the first, lastChunk on the last), COMPLETED
  input           INPUT_REQUIRED with status message "need input"; the next
                  message on the task completes it with artifact `got: <text>`
  auth            AUTH_REQUIRED
  slow [ms]       WORKING for ms (default 2000) in small steps, cancelable
  fail            FAILED;  reject: REJECTED
  message <x>     a direct Message holding <x>
  anything else   an echo task of the whole text

plus the `tck-*` messageId prefixes of issue 6 (the prefix wins over text).

It serves JSON-RPC at /jsonrpc and HTTP+JSON at /rest on a loopback port,
and, with --grpc-port, gRPC (the SDK's `GrpcHandler` on a `grpc.aio` server,
cleartext HTTP/2) on a second port; the card at /.well-known/agent-card.json
advertises every binding it serves, gRPC as `host:port` (the proto's
`AgentInterface.url` format for gRPC). With --bearer, every A2A call must
carry `Authorization: Bearer <token>` (HTTP header or gRPC metadata, as the
reference agent does with --bearer) and the extended card is offered.

With --v0-3 the SDK's own 0.3 layer (`enable_v0_3_compat` of its JSON-RPC
and REST routes) is on and the card is the union card 0.3 clients read
(interop/run.sh --mode v0_3, issue 17).

Usage: python agent.py --port N [--grpc-port M] [--host 127.0.0.1] [--bearer TOKEN] [--v0-3]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from datetime import datetime, timezone

import grpc
import grpc.aio
import httpx
import uvicorn

from google.protobuf.timestamp_pb2 import Timestamp

from starlette.applications import Starlette
from starlette.responses import JSONResponse

from a2a.helpers.proto_helpers import (
    new_data_part,
    new_raw_part,
    new_text_message,
    new_text_part,
    new_url_part,
)
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.request_handlers.grpc_handler import GrpcHandler
from a2a.server.routes import (
    create_agent_card_routes,
    create_jsonrpc_routes,
    create_rest_routes,
)
from a2a.server.tasks import (
    BasePushNotificationSender,
    InMemoryPushNotificationConfigStore,
    InMemoryTaskStore,
    TaskUpdater,
)
from a2a.types import a2a_pb2_grpc
from a2a.types.a2a_pb2 import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    HTTPAuthSecurityScheme,
    Message,
    Role,
    SecurityRequirement,
    SecurityScheme,
    StringList,
    Task,
    TaskState,
    TaskStatus,
)

SDK_VERSION = '1.3.0'

# messageId prefixes of issue 6, longest first so that the longest wins.
TCK_PREFIXES = sorted(
    [
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
    ],
    key=len,
    reverse=True,
)


def now() -> Timestamp:
    stamp = Timestamp()
    stamp.FromDatetime(datetime.now(timezone.utc))
    return stamp


def first_text(message: Message | None) -> str:
    if message is None:
        return ''
    for part in message.parts:
        if part.HasField('text'):
            return part.text
    return ''


def tck_scenario(message: Message | None) -> str | None:
    if message is None:
        return None
    for prefix in TCK_PREFIXES:
        if message.message_id.startswith(prefix):
            return prefix
    return None


class BehaviourExecutor(AgentExecutor):
    """The reference agent's message-driven behaviour on the SDK's executor."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        text = first_text(message).strip()
        scenario = tck_scenario(message)
        task = context.current_task
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)

        if task is not None:
            # A follow-up on an existing task (spec 3.4.3): resume an
            # interrupted one; otherwise record it and change nothing.
            if task.status.state in (
                TaskState.TASK_STATE_INPUT_REQUIRED,
                TaskState.TASK_STATE_AUTH_REQUIRED,
            ):
                await updater.start_work()
                if scenario:
                    await self._tck(scenario, updater, event_queue, context, started=True)
                    return
                await updater.add_artifact([new_text_part(f'got: {text}')], name='answer')
                await updater.complete()
            return

        command, _, arg = text.partition(' ')
        arg = arg.strip()
        if scenario in ('tck-message-response',) or (scenario is None and command == 'message'):
            reply = 'Direct message response' if scenario else arg
            await event_queue.enqueue_event(
                new_text_message(reply, context_id=context.context_id, role=Role.ROLE_AGENT)
            )
            return

        # Every task starts SUBMITTED with the user's message in its history.
        await event_queue.enqueue_event(
            Task(
                id=context.task_id,
                context_id=context.context_id,
                status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED, timestamp=now()),
                history=[message] if message is not None else [],
            )
        )
        if scenario:
            await self._tck(scenario, updater, event_queue, context, started=False)
            return

        if command == 'echo':
            await updater.start_work()
            await updater.add_artifact([new_text_part(arg)], name='echo')
            await updater.complete()
        elif command == 'stream':
            words = arg.split()
            n = int(words[0]) if words else 3
            delay_ms = int(words[1]) if len(words) > 1 else 0
            await updater.start_work()
            artifact_id = f'stream-{context.task_id}'
            for i in range(1, n + 1):
                if delay_ms:
                    await asyncio.sleep(delay_ms / 1000)
                await updater.add_artifact(
                    [new_text_part(f'chunk {i} ')],
                    artifact_id=artifact_id,
                    name='stream',
                    append=i > 1,
                    last_chunk=i == n,
                )
            await updater.complete()
        elif command == 'input':
            await updater.requires_input(updater.new_agent_message([new_text_part('need input')]))
        elif command == 'auth':
            await updater.requires_auth(
                updater.new_agent_message([new_text_part('need authorization: send any message')])
            )
        elif command == 'slow':
            ms = int(arg) if arg else 2000
            await updater.start_work()
            steps = max(1, ms // 50)
            for _ in range(steps):
                await asyncio.sleep(ms / 1000 / steps)
            await updater.add_artifact([new_text_part(f'slept {ms} ms')], name='slow')
            await updater.complete()
        elif command == 'fail':
            await updater.start_work()
            await updater.failed(updater.new_agent_message([new_text_part('failed as asked')]))
        elif command == 'reject':
            await updater.reject(updater.new_agent_message([new_text_part('rejected as asked')]))
        else:
            await updater.start_work()
            await updater.add_artifact([new_text_part(text)], name='echo')
            await updater.complete()

    async def _tck(
        self,
        scenario: str,
        updater: TaskUpdater,
        event_queue: EventQueue,
        context: RequestContext,
        started: bool,
    ) -> None:
        if scenario == 'tck-complete-task':
            await updater.complete(updater.new_agent_message([new_text_part('Hello from TCK')]))
        elif scenario == 'tck-artifact-text':
            await updater.add_artifact([new_text_part('Generated text content')], name='text')
            await updater.complete()
        elif scenario == 'tck-artifact-file-url':
            await updater.add_artifact(
                [new_url_part('https://example.com/output.txt', media_type='text/plain', filename='output.txt')],
                name='file',
            )
            await updater.complete()
        elif scenario == 'tck-artifact-file':
            await updater.add_artifact(
                [new_raw_part(b'tck', media_type='text/plain', filename='output.txt')], name='file'
            )
            await updater.complete()
        elif scenario == 'tck-artifact-data':
            await updater.add_artifact([new_data_part({'key': 'value', 'count': 42})], name='data')
            await updater.complete()
        elif scenario == 'tck-input-required':
            await updater.requires_input(updater.new_agent_message([new_text_part('need input')]))
        elif scenario == 'tck-auth-required':
            await updater.requires_auth(updater.new_agent_message([new_text_part('need authorization')]))
        elif scenario == 'tck-reject-task':
            await updater.reject()
        elif scenario == 'tck-task-failure':
            await updater.failed()
        elif scenario == 'tck-stream-002':
            await updater.complete()
        elif scenario in (
            'tck-stream-001',
            'tck-stream-003',
            'tck-stream-ordering-001',
            'tck-stream-artifact-text',
        ):
            if not started:
                await updater.start_work()
            await updater.add_artifact([new_text_part('Generated text content')], name='text', last_chunk=True)
            await updater.complete()
        elif scenario == 'tck-stream-artifact-file':
            if not started:
                await updater.start_work()
            await updater.add_artifact(
                [new_raw_part(b'tck', media_type='text/plain', filename='output.txt')],
                name='file',
                last_chunk=True,
            )
            await updater.complete()
        elif scenario == 'tck-stream-artifact-chunked':
            if not started:
                await updater.start_work()
            artifact_id = f'chunked-{context.task_id}'
            await updater.add_artifact([new_text_part('chunk-1 ')], artifact_id=artifact_id, name='chunked')
            await updater.add_artifact(
                [new_text_part('chunk-2')], artifact_id=artifact_id, name='chunked', append=True, last_chunk=True
            )
            await updater.complete()
        elif scenario == 'test-resubscribe-message-id':
            if not started:
                await updater.start_work()
            await asyncio.sleep(4)
            await updater.complete()
        else:  # tck-message-response is handled before the task exists
            await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        await updater.cancel()


def build_card(
    base: str, bearer: bool, extended: bool = False, grpc_address: str | None = None, v03: bool = False
) -> AgentCard:
    interfaces = [
        AgentInterface(url=f'{base}/jsonrpc', protocol_binding='JSONRPC', protocol_version='1.0'),
        AgentInterface(url=f'{base}/rest', protocol_binding='HTTP+JSON', protocol_version='1.0'),
    ]
    if v03:
        # The SDK's compat layer serves 0.3 on the same endpoints; the card
        # declares them as 0.3 interfaces too (its docstring asks for it).
        interfaces += [
            AgentInterface(url=f'{base}/jsonrpc', protocol_binding='JSONRPC', protocol_version='0.3'),
            AgentInterface(url=f'{base}/rest', protocol_binding='HTTP+JSON', protocol_version='0.3'),
        ]
    if grpc_address:
        # Last, so that a client preferring the card's order keeps the
        # HTTP bindings it picked before gRPC existed (spec 8.3.1).
        interfaces.append(AgentInterface(url=grpc_address, protocol_binding='GRPC', protocol_version='1.0'))
    card = AgentCard(
        name=f'a2a-sdk {SDK_VERSION} interop agent (Python)',
        description='The a2a-core reference agent behaviour, written with the official Python SDK'
        + (' (extended card for authenticated callers)' if extended else ''),
        version=SDK_VERSION,
        supported_interfaces=interfaces,
        capabilities=AgentCapabilities(
            streaming=True, push_notifications=True, extended_agent_card=bearer
        ),
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain', 'application/json'],
        skills=[
            AgentSkill(
                id='behaviour',
                name='Scripted behaviour',
                description='echo <x>, stream <n> [ms], input, auth, slow [ms], fail, reject, message <x>',
                tags=['test', 'echo'],
                examples=['echo hello', 'stream 5'],
            )
        ],
    )
    if extended:
        card.skills.append(
            AgentSkill(id='tck', name='Test-kit scenarios', description='tck-* messageId prefixes', tags=['tck'])
        )
    if bearer:
        card.security_schemes['bearer'].CopyFrom(
            SecurityScheme(
                http_auth_security_scheme=HTTPAuthSecurityScheme(scheme='Bearer', description='--bearer token')
            )
        )
        card.security_requirements.append(SecurityRequirement(schemes={'bearer': StringList()}))
    return card


class BearerGuard:
    """ASGI middleware: every A2A call needs the bearer token, the public
    card does not (the SDK leaves authentication to the host)."""

    def __init__(self, app, token: str | None):
        self.app = app
        self.expected = f'Bearer {token}' if token else None

    async def __call__(self, scope, receive, send):
        if (
            self.expected
            and scope['type'] == 'http'
            and scope['path'] != '/.well-known/agent-card.json'
        ):
            headers = dict(scope.get('headers') or [])
            got = headers.get(b'authorization', b'').decode('latin-1')
            if got != self.expected:
                response = JSONResponse(
                    {'error': {'code': 401, 'status': 'UNAUTHENTICATED', 'message': 'bearer token required'}},
                    status_code=401,
                    headers={'WWW-Authenticate': 'Bearer realm="a2a"'},
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class GrpcBearerGuard(grpc.aio.ServerInterceptor):
    """The gRPC twin of BearerGuard: a call without the bearer token in its
    `authorization` metadata ends UNAUTHENTICATED before the SDK sees it."""

    def __init__(self, token: str | None):
        self.expected = f'Bearer {token}' if token else None

    async def intercept_service(self, continuation, handler_call_details):
        handler = await continuation(handler_call_details)
        if self.expected is None or handler is None:
            return handler
        metadata = {k: v for k, v in (handler_call_details.invocation_metadata or ())}
        if metadata.get('authorization') == self.expected:
            return handler

        async def deny(request, context):
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, 'bearer token required')

        async def deny_stream(request, context):
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, 'bearer token required')
            yield  # never reached: abort raises

        if handler.response_streaming:
            return grpc.unary_stream_rpc_method_handler(
                deny_stream,
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        return grpc.unary_unary_rpc_method_handler(
            deny,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )


def build_handler(port: int, host: str, bearer: str | None, grpc_port: int | None, v03: bool = False):
    base = f'http://{host}:{port}'
    grpc_address = f'{host}:{grpc_port}' if grpc_port else None
    card = build_card(base, bearer is not None, grpc_address=grpc_address, v03=v03)
    push_store = InMemoryPushNotificationConfigStore()
    push_sender = BasePushNotificationSender(httpx.AsyncClient(timeout=5.0), push_store)
    handler = DefaultRequestHandler(
        agent_executor=BehaviourExecutor(),
        task_store=InMemoryTaskStore(),
        agent_card=card,
        push_config_store=push_store,
        push_sender=push_sender,
        extended_agent_card=build_card(base, True, extended=True, grpc_address=grpc_address, v03=v03)
        if bearer
        else None,
    )
    return card, handler


def union_card(card: AgentCard) -> dict:
    """The card a 0.3 client reads beside the 1.0 fields: the 1.0 ProtoJSON
    with the SDK's own 0.3 translation of it merged in (the SDK serves only
    the 1.0 card; `to_compat_agent_card` is its 0.3 mapping)."""
    from google.protobuf import json_format

    from a2a.compat.v0_3.conversions import to_compat_agent_card

    union = json_format.MessageToDict(card)
    union.update(to_compat_agent_card(card).model_dump(mode='json', by_alias=True, exclude_none=True))
    return union


def build_app(card: AgentCard, handler: DefaultRequestHandler, v03: bool = False) -> Starlette:
    routes = []
    if v03:
        from starlette.routing import Route

        body = union_card(card)

        async def serve_card(request):
            return JSONResponse(body)

        routes.append(Route('/.well-known/agent-card.json', serve_card, methods=['GET']))
    else:
        routes += create_agent_card_routes(card)
    routes += create_jsonrpc_routes(handler, rpc_url='/jsonrpc', enable_v0_3_compat=v03)
    routes += create_rest_routes(handler, path_prefix='/rest', enable_v0_3_compat=v03)
    return Starlette(routes=routes)


async def serve(args) -> None:
    card, handler = build_handler(args.port, args.host, args.bearer, args.grpc_port, args.v0_3)
    grpc_server = None
    if args.grpc_port:
        # One request handler behind both servers: a task created over
        # HTTP can be read over gRPC and the other way round.
        grpc_server = grpc.aio.server(interceptors=[GrpcBearerGuard(args.bearer)])
        a2a_pb2_grpc.add_A2AServiceServicer_to_server(GrpcHandler(handler), grpc_server)
        if grpc_server.add_insecure_port(f'{args.host}:{args.grpc_port}') == 0:
            raise SystemExit(f'cannot bind gRPC port {args.grpc_port}')
        await grpc_server.start()
    app = BearerGuard(build_app(card, handler, args.v0_3), args.bearer)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        timeout_graceful_shutdown=1,
    )
    try:
        await uvicorn.Server(config).serve()
    finally:
        if grpc_server is not None:
            await grpc_server.stop(grace=0.5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--grpc-port', type=int, default=None, help='also serve gRPC on this port')
    parser.add_argument('--host', default='127.0.0.1')
    parser.add_argument('--bearer', default=None)
    parser.add_argument(
        '--v0-3', action='store_true', help="also serve A2A 0.3 (the SDK's enable_v0_3_compat) and a union card"
    )
    parser.add_argument('--log-level', default='warning')
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(serve(args))
    return 0


if __name__ == '__main__':
    sys.exit(main())
