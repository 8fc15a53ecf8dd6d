"""The sandbox's HTTP side, a mixin of `Sandbox` (it uses the sandbox's services, states, context
and public API): the aiohttp application with each service mounted under its prefix, the front
middleware (virtual hosts, proxy CONNECT refusal, service-shaped 404/405), the per-service
middleware that applies knobs and counts requests, and the `/_sandbox/...` control endpoints."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import fields
from typing import Any

from aiohttp import web

from .knobs import Knobs
from .services.base import SENSITIVE_HEADERS, AbortConnection, BadRequest, Service, json_response
from .services.sites import host_of


class SandboxApp:
    """`Sandbox`'s request path; the services, states, context and config are the sandbox's."""

    # ---- the app ---------------------------------------------------------------------------
    def _build_app(self) -> web.Application:
        host_services = [s for s in self.services.values() if type(s).matches_host is not Service.matches_host]
        by_prefix = sorted(self.services.values(), key=lambda s: -len(s.prefix))

        @web.middleware
        async def front(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
            if request.method == "CONNECT":
                return web.Response(status=405, text="The sandbox proxy serves plain http:// sites only.\n")
            host = host_of(request)
            for svc in host_services:
                if svc.matches_host(host):
                    return await self._apply(svc, request, svc.handle_host)
            try:
                return await handler(request)
            except web.HTTPException as e:
                if e.status in (404, 405):
                    for svc in by_prefix:
                        if request.path.startswith(svc.prefix + "/") or request.path == svc.prefix:
                            msg = "Not found" if e.status == 404 else "Method not allowed"
                            return svc.error(e.status, f"{msg}: {request.method} {request.path}")
                raise

        app = web.Application(middlewares=[front], client_max_size=64 * 1024 * 1024)
        for svc in self.services.values():
            sub = web.Application(middlewares=[self._middleware(svc)], client_max_size=64 * 1024 * 1024)
            sub.add_routes(svc.routes())
            app.add_subapp(svc.prefix, sub)
        app.router.add_get("/", self._index)
        app.router.add_get("/_sandbox/stats", self._http_stats)
        app.router.add_post("/_sandbox/configure", self._http_configure)
        app.router.add_post("/_sandbox/reset", self._http_reset)
        app.router.add_get("/_sandbox/inspect/{service}", self._http_inspect)
        return app

    def _middleware(self, svc: Service) -> Any:
        @web.middleware
        async def knobs(request: web.Request, handler: Any) -> web.StreamResponse:
            return await self._apply(svc, request, handler)
        return knobs

    async def _apply(self, svc: Service, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        state = self._states[svc.name]
        st = state.stats
        st.requests += 1
        st.in_flight += 1
        st.max_in_flight = max(st.max_in_flight, st.in_flight)
        state.log.append(self._log_entry(request))
        try:
            action, retry = await self.ctx.gate(svc.name)
            k = state.knobs
            if action == "rate_limited":
                resp: web.StreamResponse = svc.rate_limited(retry, *k.rate_limit)  # type: ignore[misc]
            elif action == "error":
                resp = svc.injected_error(k.error_status or svc.injected_error_status)
            else:
                if action == "hang":
                    await asyncio.sleep(k.hang_s)
                try:
                    resp = await handler(request)
                except BadRequest as e:
                    resp = svc.error(e.status, e.message, code=e.code)
                except AbortConnection:
                    st.aborted += 1
                    self.ctx.record(svc.name, "aborted")
                    if request.transport is not None:
                        request.transport.abort()
                    raise asyncio.CancelledError() from None
                except web.HTTPException as e:
                    if e.status >= 400:
                        resp = svc.error(e.status, e.reason)
                    else:
                        self.ctx.record(svc.name, e.status)
                        raise
            self.ctx.record(svc.name, resp.status)
            return resp
        finally:
            st.in_flight -= 1

    @staticmethod
    def _log_entry(request: web.Request) -> dict[str, Any]:
        headers = {k: ("<redacted>" if k.lower() in SENSITIVE_HEADERS else v) for k, v in request.headers.items()}
        return {"t": time.time(), "method": request.method, "host": host_of(request), "path": request.path,
                "query": request.query_string, "headers": headers}

    async def _index(self, request: web.Request) -> web.Response:
        return json_response(self.describe())

    async def _http_stats(self, request: web.Request) -> web.Response:
        return json_response(self.stats())

    async def _http_configure(self, request: web.Request) -> web.Response:
        body = await request.json()
        try:
            self.configure(body.pop("service"), **body)
        except (KeyError, TypeError, ValueError) as e:
            return json_response({"error": str(e)}, 400)
        return json_response({"ok": True})

    async def _http_reset(self, request: web.Request) -> web.Response:
        for state in self._states.values():
            initial = Knobs.of(self.config.knobs.get(state.name))
            state.configure({f.name: getattr(initial, f.name) for f in fields(Knobs)})
        for svc in self.services.values():
            svc.reset_state()
        self.reset_stats()
        return json_response({"ok": True})

    async def _http_inspect(self, request: web.Request) -> web.Response:
        svc = self.services.get(request.match_info["service"])
        if svc is None:
            return json_response({"error": f"unknown service {request.match_info['service']!r}"}, 404)
        return json_response(svc.state())
