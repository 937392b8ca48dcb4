"""A small OpenAI-compatible server on 127.0.0.1 that returns scripted answers over real HTTP."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    """One scripted HTTP answer."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def chat(content: str, *, finish_reason: str = "stop", prompt_tokens: int = 100,
         completion_tokens: int = 20, delay: float = 0.0) -> Reply:
    """Return a chat completion whose assistant message is this content."""
    body = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": "test-model",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content},
            "finish_reason": finish_reason,
        }],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }
    return Reply(body=json.dumps(body).encode(), delay=delay)


def chat_json(answer: Any, **kwargs: Any) -> Reply:
    """Return a chat completion whose content is this object as JSON."""
    return chat(json.dumps(answer), **kwargs)


def error(status: int, message: str = "error", headers: dict[str, str] | None = None,
          delay: float = 0.0) -> Reply:
    """Return an OpenAI-style error answer."""
    body = {"error": {"message": message, "type": "server_error", "code": status}}
    return Reply(status=status, body=json.dumps(body).encode(), headers=headers or {},
                 delay=delay)


Responder = Callable[[dict[str, Any]], Reply]


class FakeLLMServer:
    """Serve /v1/chat/completions and /v1/embeddings from a script, recording each request.

    Scripted replies are served first, in order; then `responder(request)` answers.
    """

    def __init__(self, responder: Responder | None = None) -> None:
        self.responder: Responder = responder or (lambda request: chat("{}"))
        self.script: deque[Reply] = deque()
        self.requests: list[dict[str, Any]] = []
        self.request_times: list[float] = []
        self.pages: dict[str, Any] = {}  # GET path -> JSON answer (e.g. "/v1/models")
        self.serial = False  # answer one request at a time, like llama.cpp's server
        self.in_flight = 0
        self.peak_in_flight = 0
        self._serving = threading.Lock()
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        """The api_base to give litellm."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def push(self, *replies: Reply) -> None:
        """Queue replies to serve before falling back to the responder."""
        with self._lock:
            self.script.extend(replies)

    def __enter__(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def _answer(self, path: str, request: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(request)
            self.request_times.append(time.monotonic())
            if self.script:
                return self.script.popleft()
        if path.endswith("/embeddings"):
            return _embeddings(request)
        return self.responder(request)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                page = server.pages.get(self.path)
                body = json.dumps(page if page is not None else {"error": "not found"}).encode()
                self.send_response(200 if page is not None else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    request = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    request = {}
                with server._lock:
                    server.in_flight += 1
                    server.peak_in_flight = max(server.peak_in_flight, server.in_flight)
                try:
                    if server.serial:
                        with server._serving:  # queued like on a one-request-at-a-time server
                            reply = server._answer(self.path, request)
                            if reply.delay:
                                time.sleep(reply.delay)
                    else:
                        reply = server._answer(self.path, request)
                        if reply.delay:
                            time.sleep(reply.delay)
                finally:
                    with server._lock:
                        server.in_flight -= 1
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(reply.body)))
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(reply.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def log_message(self, *args: Any) -> None:
                pass

        return Handler


def _embeddings(request: dict[str, Any]) -> Reply:
    inputs = request.get("input") or []
    if isinstance(inputs, str):
        inputs = [inputs]
    data = []
    for i, text in enumerate(inputs):
        digest = hashlib.sha256(str(text).encode()).digest()
        vec = [b / 255.0 for b in digest[:8]]
        data.append({"object": "embedding", "index": i, "embedding": vec})
    body = {"object": "list", "data": data, "model": "test-embed",
            "usage": {"prompt_tokens": len(inputs), "total_tokens": len(inputs)}}
    return Reply(body=json.dumps(body).encode())
