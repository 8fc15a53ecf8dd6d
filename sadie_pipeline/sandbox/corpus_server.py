"""A local HTTP proxy that serves the detection corpus's sites by host name (`http://www.x.test/`),
for the WebsiteFetcher (httpx) and Chromium alike. HTTPS tunnels (CONNECT, a third-party engine's
widget a rendered page asks for) are refused: the browser still records the request.

    with CorpusServer(sites, robots={"www.x.test": "User-agent: *\\nDisallow: /"}) as server:
        WebsiteFetcher(proxy=server.proxy_url) ...
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from sadie_pipeline.sandbox.detection_corpus import CorpusSite

DEFAULT_ROBOTS = "User-agent: *\nDisallow: /private/\n"


class CorpusServer:
    """Serves `sites` (and their robots.txt) on 127.0.0.1 as an HTTP proxy, in a thread."""

    def __init__(self, sites: Iterable[CorpusSite], robots: dict[str, str] | None = None) -> None:
        self.pages = {(s.host, path): body for s in sites for path, body in s.pages.items()}
        self.robots = robots or {}
        self.requests: Counter[str] = Counter()  # "host path" -> times asked
        self.user_agents: Counter[str] = Counter()
        self._server: ThreadingHTTPServer | None = None

    @property
    def proxy_url(self) -> str:
        assert self._server is not None, "not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> CorpusServer:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                parts = urlsplit(self.path)
                host = (parts.hostname or self.headers.get("Host", "")).split(":")[0].lower()
                path = parts.path if parts.scheme else self.path.split("?", 1)[0]
                owner.requests[f"{host} {path}"] += 1
                owner.user_agents[self.headers.get("User-Agent", "")] += 1
                if path == "/robots.txt":
                    self._send(200, owner.robots.get(host, DEFAULT_ROBOTS), "text/plain")
                    return
                body = owner.pages.get((host, path or "/"))
                self._send(200 if body is not None else 404, body or "<html><body>Not found</body></html>",
                           "text/html")

            def do_CONNECT(self) -> None:  # noqa: N802
                owner.requests[f"CONNECT {self.path}"] += 1
                self.send_error(403, "no tunnels in the corpus")

            def _send(self, status: int, text: str, mime: str) -> None:
                data = text.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", f"{mime}; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:  # quiet
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
