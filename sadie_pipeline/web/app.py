"""The FastAPI app: sessions and CSRF for every request, pages (redirect to /login when signed out),
the JSON API (/v1, 401 when unauthenticated; it never sets a cookie), vendored static files and the
favicon, OpenAPI at /docs."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import quote

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.web.auth import (
    COOKIE,
    Forbidden,
    LoginRequired,
    SessionCodec,
    Throttle,
    csrf_protect,
    hotel_grant,
    new_session,
)
from sadie_pipeline.web.cache import Cache
from sadie_pipeline.web.dagster_runs import use_resources
from sadie_pipeline.web.db import open_pool
from sadie_pipeline.web.settings import WebSettings

STATIC = Path(__file__).parent / "static"
# answered without a session cookie: what a client of the API or a browser's icon fetch gets is no session
COOKIELESS = ("/v1/", "/static/", "/favicon.ico")


def create_app(settings: WebSettings | None = None, database: Database | None = None,
               store: ObjectStore | None = None) -> FastAPI:
    """The app on the configured database and object store (or those given: tests)."""
    from sadie_pipeline.resource_defs import configured, resolved

    settings = settings or WebSettings.from_env()
    database = database or resolved(configured("database"))
    store = store or resolved(configured("object_store"))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.pool = open_pool(database.resolved_url())
        try:
            yield
        finally:
            app.state.pool.close()

    app = FastAPI(title="sadie", summary="Listings review and operations; the listings API",
                  docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan,
                  dependencies=[Depends(csrf_protect), Depends(hotel_grant)])
    app.state.settings, app.state.database, app.state.store = settings, database, store
    use_resources(database, store)
    app.state.sessions = SessionCodec(settings)
    app.state.login_throttle = Throttle(settings.login_attempts, settings.login_window_s)
    app.state.address_throttle = Throttle(settings.login_attempts * 4, settings.login_window_s)
    app.state.api_throttles = {}
    app.state.review_cache = Cache(ttl_s=5.0)
    _install_middleware(app, settings)
    _install_handlers(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:  # browsers ask for it whatever the page's <link rel="icon"> says
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                            headers={"Cache-Control": "public, max-age=86400"})

    _include_routes(app)
    return app


def _include_routes(app: FastAPI) -> None:
    from sadie_pipeline.web.routes import api, jobs, listings, login, operations, review, sources, upload

    for module in (login, review, sources, jobs, upload, listings, operations, api):
        app.include_router(module.router)
    from sadie_pipeline.web.routes import leads

    app.include_router(leads.router)
    from sadie_pipeline.web.routes import archive

    app.include_router(archive.router)
    from sadie_pipeline.web.routes import spend

    app.include_router(spend.router)
    from sadie_pipeline.web.routes import dmos, files

    app.include_router(dmos.router)
    app.include_router(files.router)
    from sadie_pipeline.web.routes import images

    app.include_router(images.router)


def _install_middleware(app: FastAPI, settings: WebSettings) -> None:
    @app.middleware("http")
    async def sessions(request: Request, call_next):
        # uploads are refused by their declared size before a byte is parsed
        if request.method == "POST" and request.url.path.startswith("/upload"):
            too_big = _too_big(request, settings.upload_max_bytes)
            if too_big is not None:
                return too_big
        codec: SessionCodec = app.state.sessions
        loaded = codec.load(request.cookies.get(COOKIE))
        request.state.session = loaded or new_session()
        request.state.session_changed = loaded is None
        response: Response = await call_next(request)
        if request.state.session_changed and not request.url.path.startswith(COOKIELESS):
            response.set_cookie(COOKIE, codec.dump(request.state.session), max_age=codec.max_age, httponly=True,
                                samesite="lax", secure=settings.secure_cookies, path="/")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response


def _too_big(request: Request, limit: int) -> Response | None:
    length = request.headers.get("content-length")
    if length is None or not length.isdigit():
        return PlainTextResponse("an upload needs a Content-Length", status_code=411)
    if int(length) > limit + 64 * 1024:  # the form's other fields and boundaries
        return PlainTextResponse(f"the file is larger than the limit of {limit // (1024 * 1024)} MB",
                                 status_code=413)
    return None


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/v1/")


def _install_handlers(app: FastAPI) -> None:
    @app.exception_handler(LoginRequired)
    async def login_required(request: Request, exc: LoginRequired) -> Response:
        if _is_api(request):
            return JSONResponse({"detail": "authentication required"}, status_code=401,
                                headers={"WWW-Authenticate": "Cookie"})
        target = "/login?next=" + quote(request.url.path + (f"?{request.url.query}" if request.url.query else ""))
        if request.headers.get("hx-request"):
            return Response(status_code=401, headers={"HX-Redirect": target})
        return RedirectResponse(target, status_code=303)

    @app.exception_handler(Forbidden)
    async def forbidden(request: Request, exc: Forbidden) -> Response:
        if _is_api(request) or request.method != "GET":
            return JSONResponse({"detail": str(exc)}, status_code=403) if _is_api(request) \
                else PlainTextResponse(f"403 forbidden: {exc}", status_code=403)
        from sadie_pipeline.web.pages import render

        return render(request, "error.html", status_code=403, title="Forbidden", message=str(exc))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'][1:]))}: {e['msg']}" for e in exc.errors())
        if _is_api(request):
            return JSONResponse({"detail": problems}, status_code=422)
        return PlainTextResponse(f"bad request: {problems}", status_code=422)
