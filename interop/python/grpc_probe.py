"""Raw gRPC probe: fixed calls to an agent's `GRPC` interface, printed as
answered (status code, grpc-message, the decoded grpc-status-details-bin,
response metadata, messages), so that the answers of different servers can
be laid side by side. The gRPC twin of wire_probe.py.

  python grpc_probe.py --url http://127.0.0.1:8080 [--bearer TOKEN] [--only a,b]

It reads the card over HTTP from --url, takes the GRPC interface's
`host:port`, and calls `lf.a2a.v1.A2AService` through plain grpcio channels
with bytes in and bytes out (the messages built and read with protobuf's
generated classes, no SDK client), so that nothing is normalised away.
It is the source of the gRPC excerpts in interop/FINDINGS.md.
"""

from __future__ import annotations

import argparse
import sys
import uuid

import grpc
import httpx

from google.protobuf import empty_pb2
from google.rpc import error_details_pb2, status_pb2

from a2a.types import a2a_pb2

SERVICE = '/lf.a2a.v1.A2AService/'
TIMEOUT = 10.0


def decode_details(raw: bytes) -> list[str]:
    status = status_pb2.Status.FromString(raw)
    out = [f'status.code={status.code} status.message={status.message!r}']
    for any_ in status.details:
        for kind in (error_details_pb2.ErrorInfo, error_details_pb2.BadRequest):
            if any_.Is(kind.DESCRIPTOR):
                detail = kind()
                any_.Unpack(detail)
                text = str(detail).replace('\n', ' ').strip()
                out.append(f'{kind.__name__} {{ {text} }}')
                break
        else:
            out.append(f'detail {any_.type_url} ({len(any_.value)} bytes)')
    return out


def show_metadata(label: str, metadata) -> None:
    for key, value in metadata or ():
        if key == 'grpc-status-details-bin':
            print(f'    {label} {key}:')
            for line in decode_details(value):
                print(f'      {line}')
        else:
            shown = value if isinstance(value, str) else f'<{len(value)} bytes>'
            print(f'    {label} {key}: {shown}')


class Probe:
    def __init__(self, address: str, bearer: str | None):
        self.channel = grpc.insecure_channel(address)
        self.bearer = bearer

    def metadata(self, version: str | None = '1.0', extra=()) -> list[tuple[str, str]]:
        md = []
        if version is not None:
            md.append(('a2a-version', version))
        if self.bearer:
            md.append(('authorization', f'Bearer {self.bearer}'))
        md.extend(extra)
        return md

    def unary(self, title: str, method: str, request: bytes, response_type, *, version='1.0', extra=()):
        print(f'--- {title}')
        print(f'    {method} a2a-version={version!r} ({len(request)} request bytes)')
        call = self.channel.unary_unary(SERVICE + method)
        try:
            body, state = call.with_call(request, metadata=self.metadata(version, extra), timeout=TIMEOUT)
        except grpc.RpcError as e:
            print(f'    -> {e.code().name} ({e.code().value[0]}) grpc-message={e.details()!r}')
            show_metadata('initial', e.initial_metadata())
            show_metadata('trailer', e.trailing_metadata())
            return None
        print(f'    -> OK, {len(body)} bytes')
        show_metadata('initial', state.initial_metadata())
        show_metadata('trailer', state.trailing_metadata())
        message = response_type.FromString(body)
        text = str(message).replace('\n', ' ')
        print(f'    | {text[:600]}')
        return message

    def stream(self, title: str, method: str, request: bytes, *, version='1.0'):
        print(f'--- {title}')
        print(f'    {method} a2a-version={version!r}')
        call = self.channel.unary_stream(SERVICE + method)
        responses = call(request, metadata=self.metadata(version), timeout=TIMEOUT)
        kinds = []
        try:
            for body in responses:
                kinds.append(a2a_pb2.StreamResponse.FromString(body).WhichOneof('payload'))
            print(f'    -> OK after {len(kinds)} messages {kinds}')
        except grpc.RpcError as e:
            print(f'    -> {e.code().name} ({e.code().value[0]}) after {len(kinds)} messages {kinds} '
                  f'grpc-message={e.details()!r}')
        show_metadata('initial', responses.initial_metadata())
        show_metadata('trailer', responses.trailing_metadata())
        return kinds


def user_message(text: str, parts: bool = True) -> a2a_pb2.Message:
    return a2a_pb2.Message(
        message_id=f'probe-{uuid.uuid4()}',
        role=a2a_pb2.Role.ROLE_USER,
        parts=[a2a_pb2.Part(text=text)] if parts else [],
    )


def send(text: str, parts: bool = True) -> bytes:
    return a2a_pb2.SendMessageRequest(message=user_message(text, parts)).SerializeToString()


def probes(p: Probe) -> dict:
    missing = f'no-such-task-{uuid.uuid4()}'
    get_missing = a2a_pb2.GetTaskRequest(id=missing).SerializeToString()

    def completed_task() -> str:
        answer = p.unary('setup: a completed task', 'SendMessage', send('echo probe'), a2a_pb2.SendMessageResponse)
        return answer.task.id if answer is not None else 'none'

    return {
        'get_unknown': lambda: p.unary('GetTask of an unknown task', 'GetTask', get_missing, a2a_pb2.Task),
        'version_missing': lambda: p.unary(
            'GetTask without a2a-version (spec 3.6.2: read as 0.3)', 'GetTask', get_missing, a2a_pb2.Task, version=None
        ),
        'version_03': lambda: p.unary('GetTask with a2a-version 0.3', 'GetTask', get_missing, a2a_pb2.Task, version='0.3'),
        'version_patch': lambda: p.unary(
            'GetTask with a2a-version 1.0.1 (spec 3.6: patch ignored)', 'GetTask', get_missing, a2a_pb2.Task,
            version='1.0.1',
        ),
        'version_99': lambda: p.unary('GetTask with a2a-version 99.0', 'GetTask', get_missing, a2a_pb2.Task, version='99.0'),
        'send_no_parts': lambda: p.unary(
            'SendMessage of a message without parts', 'SendMessage', send('x', parts=False),
            a2a_pb2.SendMessageResponse,
        ),
        'get_empty_id': lambda: p.unary(
            'GetTask with an empty id', 'GetTask', a2a_pb2.GetTaskRequest().SerializeToString(), a2a_pb2.Task
        ),
        'cancel_completed': lambda: p.unary(
            'CancelTask of a completed task', 'CancelTask',
            a2a_pb2.CancelTaskRequest(id=completed_task()).SerializeToString(), a2a_pb2.Task,
        ),
        'subscribe_terminal': lambda: p.stream(
            'SubscribeToTask of a completed task', 'SubscribeToTask',
            a2a_pb2.SubscribeToTaskRequest(id=completed_task()).SerializeToString(),
        ),
        'subscribe_unknown': lambda: p.stream(
            'SubscribeToTask of an unknown task', 'SubscribeToTask',
            a2a_pb2.SubscribeToTaskRequest(id=missing).SerializeToString(),
        ),
        'stream': lambda: p.stream('SendStreamingMessage stream 2', 'SendStreamingMessage', send('stream 2')),
        'stream_no_version': lambda: p.stream(
            'SendStreamingMessage without a2a-version', 'SendStreamingMessage', send('stream 1'), version=None
        ),
        'push_delete_unknown': lambda: p.unary(
            'DeleteTaskPushNotificationConfig of an unknown task', 'DeleteTaskPushNotificationConfig',
            a2a_pb2.DeleteTaskPushNotificationConfigRequest(task_id=missing, id='x').SerializeToString(),
            empty_pb2.Empty,
        ),
        'list_bad_page_size': lambda: p.unary(
            'ListTasks with pageSize 1000 (spec: 1-100)', 'ListTasks',
            a2a_pb2.ListTasksRequest(page_size=1000).SerializeToString(), a2a_pb2.ListTasksResponse,
        ),
        'garbage': lambda: p.unary('GetTask with bytes that are not protobuf', 'GetTask', b'\xff\xff\xff', a2a_pb2.Task),
        'unknown_method': lambda: p.unary('an unknown method', 'NoSuchMethod', b'', empty_pb2.Empty),
        'extension_required': lambda: p.unary(
            'GetTask with a2a-extensions of an unknown extension', 'GetTask', get_missing, a2a_pb2.Task,
            extra=[('a2a-extensions', 'https://example.com/ext/unknown/v1')],
        ),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description='Raw gRPC probe of an A2A agent')
    parser.add_argument('--url', required=True, help='agent base URL (the card is at /.well-known/agent-card.json)')
    parser.add_argument('--bearer')
    parser.add_argument('--only', help='comma-separated probe names')
    args = parser.parse_args()
    headers = {'Authorization': f'Bearer {args.bearer}'} if args.bearer else {}
    card = httpx.get(f'{args.url.rstrip("/")}/.well-known/agent-card.json', headers=headers, timeout=TIMEOUT).json()
    grpc_ifaces = [i for i in card.get('supportedInterfaces', []) if i.get('protocolBinding') == 'GRPC']
    if not grpc_ifaces:
        print(f'the card at {args.url} offers no GRPC interface', file=sys.stderr)
        return 1
    address = grpc_ifaces[0]['url']
    print(f'=== {card.get("name")} GRPC interface {address!r}')
    if '://' in address:
        # The proto asks for `host:port`; grpcio takes that, so an
        # absolute URL is reduced to its authority here.
        address = httpx.URL(address).netloc.decode()
    probe = Probe(address, args.bearer)
    only = set(args.only.split(',')) if args.only else None
    for name, run in probes(probe).items():
        if only is None or name in only:
            run()
    return 0


if __name__ == '__main__':
    sys.exit(main())
