"""Raw wire probe: the same fixed requests to an A2A agent, printed as sent
and as answered (status, the headers that matter, body), so that the
answers of different implementations can be laid side by side.

  python wire_probe.py --url http://127.0.0.1:8080 [--bearer TOKEN] [--only a,b]

It finds the JSON-RPC and HTTP+JSON endpoints in the agent's card and
speaks to them with plain httpx, no SDK, so nothing is normalised away.
It is the source of the excerpts in interop/FINDINGS.md.
"""

from __future__ import annotations

import argparse
import json
import socket
import threading
import time
import uuid

from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx

HEADERS_SHOWN = (
    'content-type',
    'cache-control',
    'etag',
    'www-authenticate',
    'a2a-version',
    'transfer-encoding',
    'content-length',
)


def show(title: str, response: httpx.Response, body: str | None = None, limit: int = 900) -> None:
    print(f'--- {title}')
    print(f'    {response.request.method} {response.request.url.raw_path.decode()} -> {response.status_code}')
    for h in HEADERS_SHOWN:
        if h in response.headers:
            print(f'    {h}: {response.headers[h]}')
    text = body if body is not None else response.text
    text = text if len(text) <= limit else text[:limit] + f'... ({len(text)} bytes)'
    for line in text.splitlines() or ['']:
        print(f'    | {line}')


class Hook:
    def __init__(self) -> None:
        self.posts: list[tuple[dict, bytes]] = []
        hook = self

        class H(BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'

            def do_POST(self):  # noqa: N802
                n = int(self.headers.get('Content-Length', '0'))
                body = self.rfile.read(n) if n else b''
                if self.headers.get('Transfer-Encoding', '').lower() == 'chunked':
                    while True:
                        size = int(self.rfile.readline().strip().split(b';')[0], 16)
                        if size == 0:
                            self.rfile.readline()
                            break
                        body += self.rfile.read(size)
                        self.rfile.readline()
                hook.posts.append((dict(self.headers.items()), body))
                self.send_response(200)
                self.send_header('Content-Length', '0')
                self.end_headers()

            def log_message(self, *a):
                pass

        self.server = ThreadingHTTPServer(('127.0.0.1', 0), H)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f'http://127.0.0.1:{self.server.server_address[1]}/hook'


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument('--url', required=True)
    p.add_argument('--bearer')
    p.add_argument('--only')
    args = p.parse_args()
    only = set(args.only.split(',')) if args.only else None
    auth = {'Authorization': f'Bearer {args.bearer}'} if args.bearer else {}
    v1 = {'A2A-Version': '1.0', **auth}
    c = httpx.Client(timeout=10)
    base = args.url.rstrip('/')

    def want(name: str) -> bool:
        return only is None or name in only

    card_resp = c.get(f'{base}/.well-known/agent-card.json')
    card = card_resp.json()
    if want('card'):
        show('agent card', card_resp)
    urls = {i['protocolBinding']: i['url'] for i in card['supportedInterfaces']}
    rpc = urls['JSONRPC']
    rest = urls['HTTP+JSON'].rstrip('/')

    def jrpc(method: str, params: dict, headers=v1, accept='application/json', rid=None):
        return c.post(
            rpc,
            json={'jsonrpc': '2.0', 'id': rid if rid is not None else str(uuid.uuid4())[:8], 'method': method, 'params': params},
            headers={**headers, 'Accept': accept},
        )

    def msg(text: str, **extra) -> dict:
        return {'message': {'messageId': f'probe-{uuid.uuid4().hex[:8]}', 'role': 'ROLE_USER', 'parts': [{'text': text}], **extra}}

    def stream(method: str, url: str, body: dict | None, headers: dict):
        with c.stream(method, url, json=body, headers=headers) as r:
            raw = b''.join(r.iter_raw())
        return r, raw.decode('utf-8', 'replace')

    # JSON-RPC
    r = jrpc('SendMessage', msg('echo probe'))
    done = r.json()['result']['task']
    if want('rpc-send'):
        show('JSON-RPC SendMessage echo (blocking)', r)
    if want('rpc-no-version'):
        show('JSON-RPC GetTask without A2A-Version', jrpc('GetTask', {'id': done['id']}, headers=auth))
    if want('rpc-unknown-task'):
        show('JSON-RPC GetTask of an unknown task', jrpc('GetTask', {'id': 'no-such-task'}))
    if want('rpc-cancel-completed'):
        show('JSON-RPC CancelTask of a completed task', jrpc('CancelTask', {'id': done['id']}))
    if want('rpc-bad-params'):
        show('JSON-RPC SendMessage without parts', jrpc('SendMessage', {'message': {'messageId': 'x', 'role': 'ROLE_USER'}}))
    if want('rpc-unknown-method'):
        show('JSON-RPC unknown method', jrpc('tasks/get', {'id': done['id']}))
    if want('rpc-parse-error'):
        show('JSON-RPC body that is not JSON', c.post(rpc, content=b'{nope', headers={**v1, 'Content-Type': 'application/json'}))
    if want('rpc-history0'):
        show('JSON-RPC GetTask historyLength=0', jrpc('GetTask', {'id': done['id'], 'historyLength': 0}))
    if want('rpc-message'):
        show('JSON-RPC SendMessage "message hi"', jrpc('SendMessage', msg('message hi')))
    if want('rpc-stream'):
        r, raw = stream(
            'POST',
            rpc,
            {'jsonrpc': '2.0', 'id': 7, 'method': 'SendStreamingMessage', 'params': msg('stream 2')},
            {**v1, 'Accept': 'text/event-stream'},
        )
        show('JSON-RPC SendStreamingMessage "stream 2" (raw SSE)', r, raw, limit=2500)
    if want('rpc-subscribe-terminal'):
        r, raw = stream(
            'POST',
            rpc,
            {'jsonrpc': '2.0', 'id': 8, 'method': 'SubscribeToTask', 'params': {'id': done['id']}},
            {**v1, 'Accept': 'text/event-stream'},
        )
        show('JSON-RPC SubscribeToTask of a completed task (raw)', r, raw)
    if want('rpc-list'):
        show('JSON-RPC ListTasks pageSize=1', jrpc('ListTasks', {'pageSize': 1}), limit=600)
    if want('rpc-list-bad'):
        show('JSON-RPC ListTasks pageSize=1000', jrpc('ListTasks', {'pageSize': 1000}))

    # HTTP+JSON
    r = c.post(f'{rest}/message:send', json=msg('echo probe'), headers=v1)
    done = r.json()['task']
    if want('rest-send'):
        show('REST POST /message:send echo', r)
    if want('rest-send-a2a-json'):
        show(
            'REST POST /message:send with Content-Type application/a2a+json',
            c.post(
                f'{rest}/message:send',
                content=json.dumps(msg('echo probe')).encode(),
                headers={**v1, 'Content-Type': 'application/a2a+json'},
            ),
        )
    if want('rest-no-version'):
        show('REST GET /tasks/{id} without A2A-Version', c.get(f'{rest}/tasks/{done["id"]}', headers=auth))
    if want('rest-unknown-task'):
        show('REST GET /tasks/no-such-task', c.get(f'{rest}/tasks/no-such-task', headers=v1))
    if want('rest-cancel-completed'):
        show('REST POST /tasks/{id}:cancel of a completed task', c.post(f'{rest}/tasks/{done["id"]}:cancel', headers=v1))
    if want('rest-bad-params'):
        show('REST POST /message:send without parts', c.post(f'{rest}/message:send', json={'message': {'messageId': 'x', 'role': 'ROLE_USER'}}, headers=v1))
    if want('rest-unknown-route'):
        show('REST GET /nope', c.get(f'{rest}/nope', headers=v1))
    if want('rest-history0'):
        show('REST GET /tasks/{id}?historyLength=0', c.get(f'{rest}/tasks/{done["id"]}?historyLength=0', headers=v1))
    if want('rest-list'):
        show('REST GET /tasks?pageSize=1', c.get(f'{rest}/tasks?pageSize=1', headers=v1), limit=600)
    if want('rest-list-bad'):
        show('REST GET /tasks?pageSize=1000', c.get(f'{rest}/tasks?pageSize=1000', headers=v1))
    if want('rest-stream'):
        r, raw = stream('POST', f'{rest}/message:stream', msg('stream 2'), {**v1, 'Accept': 'text/event-stream'})
        show('REST POST /message:stream "stream 2" (raw SSE)', r, raw, limit=2500)
    if want('rest-subscribe-terminal'):
        r, raw = stream('POST', f'{rest}/tasks/{done["id"]}:subscribe', None, {**v1, 'Accept': 'text/event-stream'})
        show('REST POST /tasks/{id}:subscribe of a completed task (raw)', r, raw)
    if want('rest-subscribe-get'):
        r, raw = stream('GET', f'{rest}/tasks/{done["id"]}:subscribe', None, {**v1, 'Accept': 'text/event-stream'})
        show('REST GET /tasks/{id}:subscribe (the spec says POST)', r, raw)
    if want('rest-unauthenticated') and args.bearer:
        show('REST GET /tasks/{id} without credentials', c.get(f'{rest}/tasks/{done["id"]}', headers={'A2A-Version': '1.0'}))
    if want('rest-extended-card'):
        show('REST GET /extendedAgentCard', c.get(f'{rest}/extendedAgentCard', headers=v1), limit=300)

    # push
    if want('push'):
        hook = Hook()
        r = c.post(f'{rest}/message:send', json={**msg('slow 600'), 'configuration': {'returnImmediately': True}}, headers=v1)
        tid = r.json()['task']['id']
        r = c.post(
            f'{rest}/tasks/{tid}/pushNotificationConfigs',
            json={'taskId': tid, 'url': hook.url, 'token': 'tok', 'authentication': {'scheme': 'Bearer', 'credentials': 'cred'}},
            headers=v1,
        )
        show('REST POST /tasks/{id}/pushNotificationConfigs', r)
        cfg = r.json()
        show('REST GET /tasks/{id}/pushNotificationConfigs', c.get(f'{rest}/tasks/{tid}/pushNotificationConfigs', headers=v1))
        time.sleep(2)
        for i, (headers, body) in enumerate(hook.posts):
            print(f'--- push notification {i + 1} received by the webhook')
            for k, v in headers.items():
                print(f'    {k}: {v}')
            print(f'    | {body.decode()[:400]}')
        show(
            'REST DELETE /tasks/{id}/pushNotificationConfigs/{configId}',
            c.delete(f'{rest}/tasks/{tid}/pushNotificationConfigs/{cfg["id"]}', headers=v1),
        )
        show(
            'REST DELETE again (idempotent, 3.1.10)',
            c.delete(f'{rest}/tasks/{tid}/pushNotificationConfigs/{cfg["id"]}', headers=v1),
        )


if __name__ == '__main__':
    socket.setdefaulttimeout(10)
    main()
