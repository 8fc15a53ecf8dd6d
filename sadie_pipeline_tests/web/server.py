"""The web app served for real over HTTP: uvicorn in a thread on a free port of 127.0.0.1, and a
client that logs in through the /login form like a browser."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import uvicorn

from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.web.app import create_app
from sadie_pipeline.web.settings import WebSettings

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(database: Database, store: ObjectStore, **settings) -> Iterator[str]:
    """The app on its own port until the block ends; yields its base URL."""
    options = {"secret_key": "test-secret-" + "x" * 32, "dagster_url": f"http://127.0.0.1:{free_port()}",
               **settings}
    app = create_app(WebSettings(**options), database=database, store=store)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the web app did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)


def csrf_of(html: str) -> str:
    match = CSRF.search(html)
    assert match, "no csrf_token in the page"
    return match.group(1)


@contextmanager
def logged_in(base: str, name: str, password: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base, timeout=30) as client:
        token = csrf_of(client.get("/login").text)
        response = client.post("/login", data={"username": name, "password": password, "csrf_token": token})
        assert response.status_code == 303, response.text[:500]
        yield client


def page_token(client: httpx.Client, path: str = "/review") -> str:
    response = client.get(path)
    assert response.status_code == 200, response.status_code
    return csrf_of(response.text)


def launched_as(run_id: str):
    """A stand-in for dagster_runs.launch that launches nothing and answers with `run_id`: the
    request's own work (messages, audit rows) without a run changing the data."""
    from sadie_pipeline.web.dagster_runs import Launch, Route

    def launch(*_args, **_kwargs) -> Launch:
        return Launch(run_id=run_id, route=Route.IN_PROCESS)

    return launch
