"""An image host for listing photos (prefix /images; a DMO's CDN in production), from `imagegen`:

    GET /images/photo/{n}.jpg             photo n: a JPEG of 200 KB to 2 MB (n .. n+47 are distinct pictures)
    GET /images/photo/{n}.png             a PNG picture
    GET /images/near/{n}/{v}.jpg          a near duplicate of photo n (v = 1..3: scaled, re-encoded, lighter)
    GET /images/broken/text.jpg           an HTML page (text/html) where an image was expected
    GET /images/broken/mislabelled.jpg    the same page sent as image/jpeg
    GET /images/broken/truncated/{n}.jpg  photo n cut in half
    GET /images/broken/tiny.png           a 16 x 16 icon
    GET /images/broken/huge.jpg           50 MB of image/jpeg with its Content-Length
    GET /images/broken/huge-chunked.jpg   50 MB of image/jpeg, chunked (no length: the client must count)

Anything else is a 404. Pictures are made once, off the event loop, then served from memory; the
knobs (latency, 429, 5xx, hangs) apply to every request. The listing sources' own photo URLs
(WordPress uploads, Drupal files, the partner's photos, the scraped sites' images) redirect here
(`photo_redirect`), so what a pull brings in can be downloaded.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Callable
from typing import Any

from aiohttp import web

from .. import imagegen
from .base import Service

HUGE_BYTES = 50 * 1024 * 1024
_CHUNK = b"\xff\xd8\xff\xe0" + bytes(64 * 1024 - 4)  # a JPEG's first marker, then nothing useful
_ERROR_PAGE = (b"<!DOCTYPE html><html><head><title>Image not available</title></head>"
               b"<body><h1>Sorry</h1><p>This media item has been moved or removed.</p></body></html>")


def photo_redirect(ctx: Any, slug: str, copy: int = 1) -> web.HTTPException:
    """The answer to a listing source's photo URL (a site's uploads served from its CDN): a redirect
    to this host's photo of the listing's number (the last part of its slug); a second copy is a
    near duplicate of the first, as a site's two sizes of one picture are."""
    found = re.search(r"-(\d+)$", slug)
    if found is None or copy not in (1, 2):
        return web.HTTPNotFound(reason=f"no photo {slug}")
    n = int(found.group(1))
    path = f"/photo/{n}.jpg" if copy == 1 else f"/near/{n}/1.jpg"
    return web.HTTPFound(f"{ctx.root_url}{ImagesService.prefix}{path}")


class ImagesService(Service):
    name = "images"
    prefix = "/images"
    real_base_url = "https://media.dmo.example"
    description = "Listing photos: /photo/{n}.jpg|png, /near/{n}/{v}.jpg, /broken/..."

    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx)
        self._making: dict[tuple[Any, ...], asyncio.Future[bytes]] = {}

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get(r"/photo/{n:\d+}.jpg", self.photo_jpeg),
            web.get(r"/photo/{n:\d+}.png", self.photo_png),
            web.get(r"/near/{n:\d+}/{v:[1-3]}.jpg", self.near),
            web.get("/broken/text.jpg", self.text),
            web.get("/broken/mislabelled.jpg", self.mislabelled),
            web.get(r"/broken/truncated/{n:\d+}.jpg", self.truncated),
            web.get("/broken/tiny.png", self.tiny),
            web.get("/broken/huge.jpg", self.huge),
            web.get("/broken/huge-chunked.jpg", self.huge_chunked),
        ]

    async def _made(self, key: tuple[Any, ...], make: Callable[[], bytes]) -> bytes:
        """The bytes of a picture, made in a thread once (concurrent requests wait for the same one)."""
        future = self._making.get(key)
        if future is None:
            future = asyncio.get_running_loop().run_in_executor(None, make)
            self._making[key] = future
        return await future

    @staticmethod
    def _image(data: bytes, content_type: str) -> web.Response:
        etag = hashlib.sha1(data).hexdigest()[:16]
        return web.Response(body=data, content_type=content_type,
                            headers={"ETag": f'"{etag}"', "Cache-Control": "public, max-age=86400"})

    async def photo_jpeg(self, request: web.Request) -> web.Response:
        n = int(request.match_info["n"])
        return self._image(await self._made(("jpg", n % imagegen.POOL), lambda: imagegen.photo_jpeg(n)), "image/jpeg")

    async def photo_png(self, request: web.Request) -> web.Response:
        n = int(request.match_info["n"])
        return self._image(await self._made(("png", n % imagegen.PNG_POOL), lambda: imagegen.photo_png(n)), "image/png")

    async def near(self, request: web.Request) -> web.Response:
        n, v = int(request.match_info["n"]), int(request.match_info["v"])
        data = await self._made(("near", n % imagegen.POOL, v), lambda: imagegen.near_duplicate(n, v))
        return self._image(data, "image/jpeg")

    async def text(self, request: web.Request) -> web.Response:
        return web.Response(body=_ERROR_PAGE, content_type="text/html", charset="utf-8")

    async def mislabelled(self, request: web.Request) -> web.Response:
        return web.Response(body=_ERROR_PAGE, content_type="image/jpeg")

    async def truncated(self, request: web.Request) -> web.Response:
        n = int(request.match_info["n"])
        whole = await self._made(("jpg", n % imagegen.POOL), lambda: imagegen.photo_jpeg(n))
        return self._image(whole[: len(whole) // 2], "image/jpeg")

    async def tiny(self, request: web.Request) -> web.Response:
        return self._image(imagegen.tiny_png(), "image/png")

    async def huge(self, request: web.Request) -> web.StreamResponse:
        return await self._stream(request, declared=True)

    async def huge_chunked(self, request: web.Request) -> web.StreamResponse:
        return await self._stream(request, declared=False)

    async def _stream(self, request: web.Request, *, declared: bool) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "image/jpeg"})
        if declared:
            response.content_length = HUGE_BYTES
        else:
            response.enable_chunked_encoding()
        await response.prepare(request)
        sent = 0
        try:
            while sent < HUGE_BYTES:
                await response.write(_CHUNK)
                sent += len(_CHUNK)
            await response.write_eof()
        except ConnectionError:  # the client stopped reading, as it should
            pass
        return response
