"""ServiceGuard, run_items and record_dead_letters against a real local HTTP server.

The server (`http.server` in a thread on 127.0.0.1, free port) answers each scenario path with
a script of replies (status, headers, body, delay) and records when every request arrived and
left and how many were in flight. Clients are real `httpx.AsyncClient`s (and the Anthropic SDK).
Timings are small; lower bounds are behaviour checks, never speed assertions.
"""

from __future__ import annotations

import asyncio
import json
import pickle
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from pydantic import ValidationError

from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.resources.reliability import (
    SEED_POLICIES,
    ItemOutcome,
    ServiceCallFailed,
    ServiceGuard,
    ServicePolicy,
    SkipItem,
    outcome_counts,
    record_dead_letters,
    run_items,
)

API_KEY = "sk-test-4f9c2a7e1b0d"  # a fake key: it must never show up in errors or stored rows


# -- the scripted server -----------------------------------------------------------------------


@dataclass
class Reply:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: str = "ok"
    delay: float = 0.0
    echo_header: str | None = None  # append this request header's value to the body


@dataclass
class Hit:
    start: float  # time.monotonic() when the request arrived
    status: int
    headers: dict[str, str]
    end: float = float("inf")  # ... when the reply started to go out


class ScriptedServer:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._scripts: dict[str, list[Reply]] = {}
        self._hits: dict[str, list[Hit]] = {}
        self._in_flight: dict[str, int] = {}
        self._max_in_flight: dict[str, int] = {}
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                server._serve(self)

            do_POST = do_GET

            def log_message(self, *args: object) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._httpd.handle_error = lambda request, address: None  # clients that timed out and left
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def script(self, *replies: Reply, name: str | None = None) -> str:
        """Replies for a new (or the named) scenario, in order; the last one repeats. Its URL."""
        name = name or uuid.uuid4().hex[:8]
        with self._lock:
            self._scripts[name] = list(replies) or [Reply()]
        return f"{self.url}/s/{name}"

    def hits(self, url: str) -> list[Hit]:
        with self._lock:
            return list(self._hits.get(self._name(url), []))

    def max_in_flight(self, url: str) -> int:
        with self._lock:
            return self._max_in_flight.get(self._name(url), 0)

    @staticmethod
    def _name(url_or_path: str) -> str:
        path = url_or_path.split("://", 1)[-1]
        path = path[path.find("/"):] if "/" in path else "/"
        parts = path.split("?", 1)[0].strip("/").split("/")
        return parts[1] if len(parts) > 1 and parts[0] == "s" else ""

    def _serve(self, handler: BaseHTTPRequestHandler) -> None:
        start = time.monotonic()
        name = self._name(handler.path)
        length = int(handler.headers.get("Content-Length") or 0)
        if length:
            handler.rfile.read(length)
        with self._lock:
            script = self._scripts.get(name, [Reply(404, body="no such scenario")])
            reply = script.pop(0) if len(script) > 1 else script[0]
            hit = Hit(start, reply.status, {k.lower(): v for k, v in handler.headers.items()})
            self._hits.setdefault(name, []).append(hit)
            self._in_flight[name] = self._in_flight.get(name, 0) + 1
            self._max_in_flight[name] = max(self._max_in_flight.get(name, 0), self._in_flight[name])
        try:
            if reply.delay:
                time.sleep(reply.delay)
        finally:
            # done before the reply goes out, so a client that reads it sees the books closed
            with self._lock:
                self._in_flight[name] -= 1
                hit.end = time.monotonic()
        body = reply.body + (handler.headers.get(reply.echo_header, "") if reply.echo_header else "")
        data = body.encode()
        try:
            handler.send_response(reply.status)
            for key, value in reply.headers.items():
                handler.send_header(key, value)
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)
            handler.wfile.flush()
        except OSError:
            pass  # the client timed out and closed the connection


@pytest.fixture(scope="module")
def server() -> Iterator[ScriptedServer]:
    srv = ScriptedServer()
    yield srv
    srv.close()


def policy(**overrides: object) -> ServicePolicy:
    """Tiny backoff, generous timeout, a breaker that does not open unless a test says so."""
    settings: dict[str, object] = dict(
        name="test", max_concurrency=8, max_attempts=3, backoff_base_s=0.01, backoff_max_s=0.05,
        backoff_jitter_s=0.0, timeout_s=5.0, failure_threshold=100, reset_timeout_s=60.0,
    )
    settings.update(overrides)
    return ServicePolicy(**settings)


def run(coro):  # noqa: ANN001, ANN201
    return asyncio.run(coro)


async def get(guard: ServiceGuard, client: httpx.AsyncClient, url: str, **kw: object) -> httpx.Response:
    return await guard.call(lambda: client.get(url), **kw)


# -- retries only for transient errors --------------------------------------------------------


def test_503_then_200_succeeds_on_the_second_attempt(server: ScriptedServer) -> None:
    url = server.script(Reply(503, body="busy"), Reply(200, body="hello"))
    guard = ServiceGuard(policy())

    async def main() -> httpx.Response:
        async with httpx.AsyncClient() as client:
            return await get(guard, client, url)

    response = run(main())
    assert response.status_code == 200 and response.text == "hello"
    assert [h.status for h in server.hits(url)] == [503, 200]
    stats = guard.stats
    assert (stats.calls, stats.attempts, stats.retries, stats.successes) == (1, 2, 1, 1)
    assert stats.errors_by_class == {"transient": 1} and not stats.failures_by_class


@pytest.mark.parametrize(
    ("status", "error_class"),
    [(400, ErrorClass.PERMANENT), (422, ErrorClass.PERMANENT), (404, ErrorClass.NOT_FOUND),
     (401, ErrorClass.AUTH), (403, ErrorClass.AUTH)],
)
def test_client_errors_are_not_retried(server: ScriptedServer, status: int, error_class: ErrorClass) -> None:
    url = server.script(Reply(status, body="nope"), Reply(200))
    guard = ServiceGuard(policy())

    async def main() -> None:
        async with httpx.AsyncClient() as client:
            await get(guard, client, url, item_key="hotel:1")

    with pytest.raises(ServiceCallFailed) as failed:
        run(main())
    assert failed.value.error_class is error_class
    assert failed.value.attempts == 1 and failed.value.status_code == status
    assert failed.value.item_key == "hotel:1" and "body: nope" in failed.value.last_error
    assert len(server.hits(url)) == 1
    assert guard.stats.retries == 0 and guard.stats.failures_by_class == {error_class.value: 1}


def test_persistent_5xx_gives_up_after_max_attempts(server: ScriptedServer) -> None:
    url = server.script(Reply(502))
    guard = ServiceGuard(policy(max_attempts=3))

    async def main() -> None:
        async with httpx.AsyncClient() as client:
            await get(guard, client, url)

    with pytest.raises(ServiceCallFailed) as failed:
        run(main())
    assert (failed.value.error_class, failed.value.attempts) == (ErrorClass.TRANSIENT, 3)
    assert len(server.hits(url)) == 3 and guard.stats.retries == 2


def test_timeouts_are_transient_and_retried(server: ScriptedServer) -> None:
    url = server.script(Reply(200, delay=0.4))
    guard = ServiceGuard(policy(max_attempts=2, timeout_s=0.1))  # the guard's per-attempt timeout
    client_timeout_guard = ServiceGuard(policy(max_attempts=2, timeout_s=None))  # httpx's own timeout

    async def main() -> tuple[ServiceCallFailed, ServiceCallFailed]:
        failures = []
        async with httpx.AsyncClient() as client, httpx.AsyncClient(timeout=0.1) as impatient:
            for g, c in ((guard, client), (client_timeout_guard, impatient)):
                try:
                    await get(g, c, url)
                except ServiceCallFailed as exc:
                    failures.append(exc)
        return failures[0], failures[1]

    started = time.monotonic()
    ours, httpx_timeout = run(main())
    assert time.monotonic() - started < 2.0  # four attempts of 0.1 s, not of 0.4 s
    assert (ours.error_class, ours.attempts) == (ErrorClass.TRANSIENT, 2)
    assert "no answer within 0.1 s" in ours.last_error
    assert (httpx_timeout.error_class, httpx_timeout.attempts) == (ErrorClass.TRANSIENT, 2)
    assert "ReadTimeout" in httpx_timeout.last_error


def test_connection_refused_is_transient() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again when the block ends: nothing listens there
    guard = ServiceGuard(policy(max_attempts=3))

    async def main() -> None:
        async with httpx.AsyncClient() as client:
            await get(guard, client, f"http://127.0.0.1:{port}/")

    with pytest.raises(ServiceCallFailed) as failed:
        run(main())
    assert (failed.value.error_class, failed.value.attempts) == (ErrorClass.TRANSIENT, 3)


# -- Retry-After -------------------------------------------------------------------------------


def test_retry_after_is_honoured_by_the_call_and_by_other_calls_to_the_service(server: ScriptedServer) -> None:
    url = server.script(Reply(429, {"Retry-After": "1"}, body="slow down"), Reply(200))
    other = server.script(Reply(200))
    guard = ServiceGuard(policy())

    async def main() -> None:
        async with httpx.AsyncClient() as client:
            first = asyncio.create_task(get(guard, client, url))
            while guard.stats.responses_429 == 0:  # the 429 has reached the client
                await asyncio.sleep(0.005)
            await get(guard, client, other)  # another item, same service: it waits too
            await first

    run(main())
    limited, retried = server.hits(url)
    assert (limited.status, retried.status) == (429, 200)
    assert retried.start - limited.end >= 0.9
    assert server.hits(other)[0].start - limited.end >= 0.9
    assert guard.stats.responses_429 == 1 and guard.stats.retries == 1
    assert guard.stats.errors_by_class == {"rate_limited": 1}


def test_a_retry_after_beyond_the_cap_fails_at_once(server: ScriptedServer) -> None:
    url = server.script(Reply(429, {"Retry-After": "3600"}))
    guard = ServiceGuard(policy(max_retry_after_s=5))

    async def main() -> None:
        async with httpx.AsyncClient() as client:
            await get(guard, client, url)

    started = time.monotonic()
    with pytest.raises(ServiceCallFailed) as failed:
        run(main())
    assert time.monotonic() - started < 3.0  # gave up at once: waiting would take the 5 s cap or more
    assert (failed.value.error_class, failed.value.attempts) == (ErrorClass.RATE_LIMITED, 1)


# -- rate and concurrency limits ---------------------------------------------------------------


def test_rate_limit_holds(server: ScriptedServer) -> None:
    rate, n = 10.0, 12
    url = server.script(Reply(200))
    guard = ServiceGuard(policy(requests_per_second=rate, max_concurrency=n))

    async def main() -> None:
        async with httpx.AsyncClient() as client:
            await asyncio.gather(*(get(guard, client, url) for _ in range(n)))

    started = time.monotonic()
    run(main())
    elapsed = time.monotonic() - started
    arrivals = sorted(h.start for h in server.hits(url))
    assert len(arrivals) == n
    assert elapsed >= (n - 1) / rate
    # Single gaps vary with scheduling (a late request is followed by an early one), so the rule
    # checked is the limit's: no window of (nearly) one second ever holds more than `rate` requests.
    jitter = 0.05  # thread scheduling between the client's send and the server's clock reading
    # no window of (nearly) one second ever holds more than `rate` requests
    per_second = int(rate)
    assert all(arrivals[i + per_second] - arrivals[i] >= 1.0 - jitter for i in range(n - per_second))


def test_requests_per_minute_paces_too(server: ScriptedServer) -> None:
    url = server.script(Reply(200))
    guard = ServiceGuard(policy(requests_per_minute=600))  # 10/s

    async def main() -> None:
        async with httpx.AsyncClient() as client:
            await asyncio.gather(*(get(guard, client, url) for _ in range(3)))

    started = time.monotonic()
    run(main())
    assert time.monotonic() - started >= 0.2


def test_concurrency_limit_holds(server: ScriptedServer) -> None:
    limit, n = 3, 9
    url = server.script(Reply(200, delay=0.15))
    guard = ServiceGuard(policy(max_concurrency=limit))

    async def main() -> None:
        async with httpx.AsyncClient() as client:
            await asyncio.gather(*(get(guard, client, url) for _ in range(n)))

    started = time.monotonic()
    run(main())
    assert server.max_in_flight(url) == limit  # at most, and the limit is actually used
    assert time.monotonic() - started >= (n / limit) * 0.15 - 0.01
    assert len(server.hits(url)) == n


# -- circuit breaker ---------------------------------------------------------------------------


def test_breaker_opens_after_threshold_and_a_half_open_probe_closes_it(server: ScriptedServer) -> None:
    url = server.script(Reply(503))
    guard = ServiceGuard(policy(max_attempts=1, failure_threshold=3, reset_timeout_s=0.3))

    async def attempt(client: httpx.AsyncClient) -> ErrorClass | int:
        try:
            return (await get(guard, client, url)).status_code
        except ServiceCallFailed as exc:
            return exc.error_class

    async def main() -> None:
        async with httpx.AsyncClient() as client:
            assert [await attempt(client) for _ in range(3)] == [ErrorClass.TRANSIENT] * 3
            assert guard.breaker_state == "open" and guard.stats.breaker_openings == 1
            assert await attempt(client) is ErrorClass.CIRCUIT_OPEN  # not sent
            assert len(server.hits(url)) == 3

            await asyncio.sleep(0.35)
            assert guard.breaker_state == "half_open"
            assert await attempt(client) is ErrorClass.TRANSIENT  # the probe fails: open again
            assert guard.breaker_state == "open" and guard.stats.breaker_openings == 2
            assert await attempt(client) is ErrorClass.CIRCUIT_OPEN
            assert len(server.hits(url)) == 4

            server.script(Reply(200, delay=0.1), name=url.rsplit("/", 1)[-1])  # the service recovers
            await asyncio.sleep(0.35)
            # half-open lets exactly one probe through; the others are refused meanwhile
            results = await asyncio.gather(*(attempt(client) for _ in range(3)))
            assert sorted(map(str, results)) == ["200", "circuit_open", "circuit_open"]
            assert guard.breaker_state == "closed"
            assert await attempt(client) == 200
            assert len(server.hits(url)) == 6

    run(main())
    meta = guard.metadata()
    assert meta["breaker_openings"] == 2 and meta["breaker_rejections"] == 4
    assert meta["failures_by_class"] == {"circuit_open": 4, "transient": 4}


def test_client_errors_do_not_trip_the_breaker(server: ScriptedServer) -> None:
    url = server.script(Reply(400))
    guard = ServiceGuard(policy(failure_threshold=2))

    async def main() -> None:
        async with httpx.AsyncClient() as client:
            for _ in range(4):
                with pytest.raises(ServiceCallFailed):
                    await get(guard, client, url)

    run(main())
    assert guard.breaker_state == "closed" and len(server.hits(url)) == 4


def test_breaker_opening_mid_retries_stops_the_call(server: ScriptedServer) -> None:
    url = server.script(Reply(503))
    guard = ServiceGuard(policy(max_attempts=5, failure_threshold=2))

    async def main() -> None:
        async with httpx.AsyncClient() as client:
            await get(guard, client, url)

    with pytest.raises(ServiceCallFailed) as failed:
        run(main())
    assert (failed.value.error_class, failed.value.attempts) == (ErrorClass.CIRCUIT_OPEN, 2)
    assert len(server.hits(url)) == 2


# -- many items: dead letters, skips, nothing lost -----------------------------------------------


def test_run_items_dead_letters_failing_items_and_finishes_the_others(server: ScriptedServer) -> None:
    urls = {f"hotel:{i}": server.script(Reply(200, body=f"page {i}")) for i in range(8)}
    urls["hotel:2"] = server.script(Reply(503))
    urls["hotel:5"] = server.script(Reply(500), Reply(500), Reply(500), Reply(200))  # fails 3 times
    urls["hotel:6"] = server.script(Reply(400))
    guard = ServiceGuard(policy(max_concurrency=3))
    in_flight = peak = 0

    async def main() -> list[ItemOutcome[str]]:
        async with httpx.AsyncClient() as client:

            async def worker(item: str) -> str:
                nonlocal in_flight, peak
                if item == "hotel:7":
                    raise SkipItem("no website")
                in_flight += 1
                peak = max(peak, in_flight)
                try:
                    response = await get(guard, client, urls[item], item_key=item)
                finally:
                    in_flight -= 1
                if item == "hotel:4":
                    json.loads(response.text)  # the page is not JSON: a data error, not retried
                return response.text

            return await run_items(urls, worker, guard=guard, concurrency=2)

    outcomes = run(main())
    assert [o.item_key for o in outcomes] == [f"hotel:{i}" for i in range(8)]  # input order
    by_key = {o.item_key: o for o in outcomes}
    assert [by_key[k].value for k in ("hotel:0", "hotel:1", "hotel:3")] == ["page 0", "page 1", "page 3"]
    assert {k for k, o in by_key.items() if o.status == "ok"} == {"hotel:0", "hotel:1", "hotel:3"}
    for key in ("hotel:2", "hotel:5"):
        assert (by_key[key].status, by_key[key].error_class, by_key[key].attempts) == ("dead_letter", "transient", 3)
        assert len(server.hits(urls[key])) == 3
    assert (by_key["hotel:6"].error_class, by_key["hotel:6"].attempts) == (ErrorClass.PERMANENT, 1)
    assert (by_key["hotel:4"].status, by_key["hotel:4"].error_class) == ("dead_letter", ErrorClass.PERMANENT)
    assert "JSONDecodeError" in by_key["hotel:4"].last_error
    assert (by_key["hotel:7"].status, by_key["hotel:7"].reason) == ("skipped", "no website")
    assert peak <= 2
    assert outcome_counts(outcomes) == {
        "items": 8, "ok": 3, "dead_lettered": 4, "skipped": 1,
        "dead_lettered_by_class": {"permanent": 2, "transient": 2},
        "skipped_by_reason": {"no website": 1},
    }


def test_items_refused_by_an_open_breaker_are_skipped_not_lost(server: ScriptedServer) -> None:
    url = server.script(Reply(503))
    guard = ServiceGuard(policy(max_attempts=1, failure_threshold=2, name="rdap"))

    async def main() -> list[ItemOutcome[object]]:
        async with httpx.AsyncClient() as c:
            return await run_items(range(5), lambda i: get(guard, c, url, item_key=str(i)), concurrency=1)

    outcomes = run(main())
    assert [o.status for o in outcomes] == ["dead_letter", "dead_letter", "skipped", "skipped", "skipped"]
    assert {o.reason for o in outcomes[2:]} == {"circuit breaker of rdap open"}
    assert all(o.error_class is ErrorClass.CIRCUIT_OPEN and o.attempts == 0 for o in outcomes[2:])
    assert len(server.hits(url)) == 2


# -- secrets -----------------------------------------------------------------------------------


def test_secrets_are_redacted_in_last_error(server: ScriptedServer) -> None:
    # the key travels in a header and the query string, and the server echoes it in its body
    url = server.script(Reply(500, body="upstream rejected key ", echo_header="x-api-key"))
    guard = ServiceGuard(policy(max_attempts=2), secrets=[API_KEY])

    async def main() -> list[ItemOutcome[None]]:
        async with httpx.AsyncClient(headers={"x-api-key": API_KEY}) as client:

            async def worker(item: str) -> None:
                if item == "bearer":
                    raise RuntimeError("refused: Authorization: Bearer abc.def-ghi")  # a token nobody declared
                await get(guard, client, f"{url}?api_key={API_KEY}", item_key=item)

            return await run_items(["hotel:1", "bearer"], worker, guard=guard)

    outcomes = run(main())
    assert server.hits(url)[0].headers["x-api-key"] == API_KEY  # it was really sent
    keyed, bearer = outcomes
    assert keyed.status == "dead_letter" and keyed.attempts == 2
    assert "upstream rejected key ***" in keyed.last_error and "api_key=***" in keyed.last_error
    assert API_KEY not in keyed.last_error
    assert bearer.last_error == "RuntimeError: refused: Authorization: Bearer ***"


def test_sdk_errors_are_classified_retried_and_redacted(server: ScriptedServer) -> None:
    groq = pytest.importorskip("groq")  # an official SDK (its errors carry status and headers)
    completion = {
        "id": "c1", "object": "chat.completion", "created": 0, "model": "llama-test",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "42 rooms"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
    }
    json_type = {"content-type": "application/json"}
    limited = json.dumps({"error": {"message": "Rate limit reached", "type": "tokens"}})
    ok = server.script(Reply(429, {**json_type, "retry-after-ms": "300"}, limited),
                       Reply(200, json_type, json.dumps(completion)))
    denied = server.script(Reply(401, body="invalid api key: ", echo_header="authorization"))
    guard = ServiceGuard(policy(name="groq"), secrets=[API_KEY])

    async def ask(base_url: str) -> str:
        async with groq.AsyncGroq(api_key=API_KEY, base_url=base_url, max_retries=0) as sdk:
            reply = await guard.call(lambda: sdk.chat.completions.create(
                model="llama-test", messages=[{"role": "user", "content": "rooms?"}]))
        return reply.choices[0].message.content

    async def main() -> tuple[str, ServiceCallFailed]:
        answer = await ask(ok)
        with pytest.raises(ServiceCallFailed) as failed:
            await ask(denied)
        return answer, failed.value

    answer, failure = run(main())
    assert answer == "42 rooms"
    limited_hit, answered = server.hits(ok)
    assert answered.start - limited_hit.end >= 0.27  # retry-after-ms honoured
    assert guard.stats.attempts == 3 and guard.stats.responses_429 == 1
    assert server.hits(denied)[0].headers["authorization"] == f"Bearer {API_KEY}"
    assert (failure.error_class, failure.attempts) == (ErrorClass.AUTH, 1)
    assert "invalid api key: Bearer ***" in failure.last_error
    assert API_KEY not in str(failure)
    copy = pickle.loads(pickle.dumps(failure))  # survives Dagster's process boundaries
    assert (str(copy), copy.error_class, copy.service) == (str(failure), ErrorClass.AUTH, "groq")


# -- policy --------------------------------------------------------------------------------------


def test_policy_validation_and_seed_limits() -> None:
    with pytest.raises(ValidationError):
        ServicePolicy(name="x", requests_per_second=1, requests_per_minute=60)
    with pytest.raises(ValidationError):
        ServicePolicy(name="x", max_concurrency=0)
    assert ServicePolicy(name="x", requests_per_minute=30).rate_per_second == 0.5
    assert ServicePolicy(name="x").rate_per_second is None
    assert (SEED_POLICIES["rdap"].rate_per_second, SEED_POLICIES["rdap"].max_concurrency) == (2, 3)


# -- the dead-letter table ---------------------------------------------------------------------


def test_record_dead_letters_upserts_accumulates_redacts_and_resolves(database) -> None:  # noqa: ANN001
    def dead(key: str, error_class: ErrorClass, attempts: int, error: str) -> ItemOutcome[None]:
        return ItemOutcome(key, "dead_letter", error_class=error_class, attempts=attempts, last_error=error)

    def rows() -> dict[str, tuple]:
        with database.connect() as conn:
            return {r[0]: r[1:] for r in conn.execute(
                """SELECT item_key, error_class, attempts, last_error, first_failed_at, last_failed_at, resolved_at
                     FROM pipeline.dead_letters WHERE layer = 'rdap'""")}

    with database.connect() as conn:
        counts = record_dead_letters(conn, "rdap", [
            dead("hotel:1", ErrorClass.TRANSIENT, 3, f"ReadTimeout for https://rdap.org/x?key={API_KEY}"),
            dead("hotel:2", ErrorClass.PERMANENT, 1, "HTTPStatusError: 400"),
            ItemOutcome("hotel:3", "ok", value=1),
            ItemOutcome("hotel:4", "skipped", reason="circuit breaker of rdap open"),
        ], secrets=[API_KEY])
        record_dead_letters(conn, "dns", [dead("hotel:1", ErrorClass.NOT_FOUND, 1, "NXDOMAIN")])
    assert counts == {"recorded": 2, "resolved": 0}
    first = rows()
    assert set(first) == {"hotel:1", "hotel:2"}  # ok and skipped items are not dead letters
    assert first["hotel:1"][:3] == ("transient", 3, "ReadTimeout for https://rdap.org/x?key=***")
    assert first["hotel:1"][5] is None

    with database.connect() as conn:  # the next run: hotel:1 fails again, hotel:2 now succeeds
        counts = record_dead_letters(conn, "rdap", [
            dead("hotel:1", ErrorClass.RATE_LIMITED, 3, "429 Too Many Requests"),
            ItemOutcome("hotel:2", "ok", value=1),
        ])
    assert counts == {"recorded": 1, "resolved": 1}
    second = rows()
    assert second["hotel:1"][:3] == ("rate_limited", 6, "429 Too Many Requests")
    assert second["hotel:1"][3] == first["hotel:1"][3]  # first_failed_at kept
    assert second["hotel:1"][4] > first["hotel:1"][4]  # last_failed_at moved on
    assert second["hotel:2"][5] is not None  # resolved

    with database.connect() as conn:  # hotel:2 fails again: reopened, attempts keep adding up
        record_dead_letters(conn, "rdap", [dead("hotel:2", ErrorClass.PERMANENT, 1, "HTTPStatusError: 400")])
        dns = conn.execute("SELECT attempts FROM pipeline.dead_letters WHERE layer = 'dns'").fetchall()
    third = rows()
    assert third["hotel:2"][1] == 2 and third["hotel:2"][5] is None
    assert dns == [(1,)]  # a (item, layer) pair: the same item in another layer is its own row
