"""Whether a page must be rendered by a browser before it can be judged, and its visible text.

The structural signals are read before `visible_text` strips <script> and friends from the tree
(it mutates it): a page whose scripts are all inline still counts as having scripts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from selectolax.lexbor import LexborHTMLParser

from sadie_pipeline.core.booking.catalogue import LODGING_CATEGORIES
from sadie_pipeline.core.booking.page import CONF_VENDOR, Page
from sadie_pipeline.core.booking.scan import Detection

TEXT_MAX_BYTES = 50_000

_SPA_ROOTS = ", ".join(("#root", "#app", "#__next", "#__nuxt", "#___gatsby", "#svelte", "#q-app",
                         "app-root", "[ng-app]", "[data-reactroot]", "#main-app", "#application"))
_NOSCRIPT_JS_RE = re.compile(
    r"enable javascript|javascript (?:is |must be )?(?:required|disabled|enabled)|requires? javascript"
    r"|turn on javascript|activate javascript|javascript to run this app|javascript aktivieren"
    r"|activez (?:le )?javascript|habilita(?:r)? (?:el )?javascript|abilita(?:re)? javascript"
    r"|support javascript|javascript-enabled",
    re.I,
)
_CHALLENGE_MARKERS = ("cf-browser-verification", "/cdn-cgi/challenge-platform/", "challenges.cloudflare.com",
                      "_incapsula_resource", "captcha-delivery.com", "cf_chl_opt", "px-captcha")
_CHALLENGE_TITLES = ("just a moment", "attention required", "access denied", "checking your browser",
                     "please wait", "one moment, please")
_MIN_TEXT_CHARS = 250  # below this a page with scripts is treated as script-rendered
_SPA_TEXT_CHARS = 1_000
_NOSCRIPT_TEXT_CHARS = 2_500
# An empty booking/reservation/availability/widget container: a script fills it after load.
_WIDGET_SELECTOR = ", ".join(f"{tag}[{attr}*={word!r} i]" for tag in ("div", "section", "aside", "span")
                             for attr in ("id", "class") for word in ("book", "reserv", "availab", "widget"))
_WIDGET_NAME_RE = re.compile(r"(?<![a-z])(?:book|reserv|availab|widget)", re.I)  # not "facebook-feed"


@dataclass(slots=True)
class Structure:
    challenge: bool
    empty_spa_root: bool
    noscript_js: bool
    dead_booking_button: bool
    empty_widget: bool
    has_scripts: bool


def structure(page: Page, html: str | bytes | None) -> Structure:
    """The page's JavaScript signals (call before `visible_text`, which strips the scripts)."""
    tree = page.tree
    title_node = tree.css_first("title")
    title = title_node.text(strip=True).lower() if title_node is not None else ""
    head_html = ""
    if html:
        raw = html if isinstance(html, str) else bytes(html).decode("utf-8", errors="replace")
        head_html = raw[:20_000].lower()
    challenge = any(m in head_html for m in _CHALLENGE_MARKERS) or (
        bool(title) and any(title.startswith(t) for t in _CHALLENGE_TITLES) and len(head_html) < 20_000
    )
    empty_root = any(len(n.text(deep=True, strip=True)) < 40 for n in tree.css(_SPA_ROOTS))
    noscript_js = any(_NOSCRIPT_JS_RE.search(n.text(deep=True) or "") for n in tree.css("noscript"))
    has_scripts = any(n.attrs.get("src") or n.attrs.get("data-src") or (n.text(deep=False) or "").strip()
                      for n in tree.css("script"))
    return Structure(challenge, empty_root, noscript_js, _dead_booking_button(page), _empty_widget(tree),
                     has_scripts)


def _dead_booking_button(page: Page) -> bool:
    """A "Book now" that goes nowhere without JavaScript."""
    for node in page.intent_nodes():
        attrs = node.attrs
        if node.tag == "a":
            href = (attrs.get("href") or "").strip().lower()
            if href and not href.startswith(("#", "javascript:")):
                continue
        elif (attrs.get("type") or "").lower() == "submit" and _inside_form_with_action(node):
            continue
        return True
    return False


def _empty_widget(tree: LexborHTMLParser) -> bool:
    for node in tree.css(_WIDGET_SELECTOR):
        names = f"{node.attrs.get('id') or ''} {node.attrs.get('class') or ''}"
        if (_WIDGET_NAME_RE.search(names) and node.css_first("a[href], iframe, form") is None
                and len(node.text(deep=True, strip=True)) < 40):
            return True
    return False


def _inside_form_with_action(node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.tag == "form":
            return bool((parent.attrs.get("action") or "").strip())
        parent = parent.parent
    return False


def judge(s: Structure, text: str, detections: tuple[Detection, ...], has_booking_links: bool) -> bool:
    """True when only a browser can tell what the page books through."""
    if s.challenge:
        return True
    n = len(text)
    if n < _MIN_TEXT_CHARS and s.has_scripts:
        return True
    if n < 60:
        return True
    if s.empty_spa_root and n < _SPA_TEXT_CHARS and s.has_scripts:
        return True
    if s.noscript_js and n < _NOSCRIPT_TEXT_CHARS:
        return True
    lodging = [d for d in detections if d.category in LODGING_CATEGORIES and d.confidence > CONF_VENDOR]
    if lodging and all(d.booking_url is None for d in lodging):
        return True  # a widget loaded by script: only a browser shows where it books
    if lodging or not s.has_scripts:
        return False
    if s.empty_widget:
        return True  # an empty booking container and a script to fill it
    return s.dead_booking_button and not has_booking_links  # "Book now" wired up by JavaScript


# --- visible text ----------------------------------------------------------------------------

_INVISIBLE_TAGS = ["script", "style", "noscript", "template", "svg", "iframe", "object", "embed",
                   "canvas", "head"]


def visible_text(tree: LexborHTMLParser) -> str:
    """Visible text of the parsed page, whitespace collapsed (mutates the tree: call last)."""
    tree.strip_tags(_INVISIBLE_TAGS)
    root = tree.body if tree.body is not None else tree.root
    if root is None:
        return ""
    return " ".join(root.text(deep=True, separator=" ").split())


def truncate_utf8(text: str, max_bytes: int) -> str:
    if max_bytes <= 0:
        return ""
    if len(text) * 4 <= max_bytes:  # cannot exceed even if every char took 4 bytes
        return text
    data = text.encode("utf-8")
    if len(data) <= max_bytes:
        return text
    return data[:max_bytes].decode("utf-8", errors="ignore").rstrip()


def strip_to_text(html: str | bytes | None, max_bytes: int = TEXT_MAX_BYTES) -> str:
    """The page's visible text (no scripts, styles, noscript or templates), whitespace collapsed,
    truncated to `max_bytes` of UTF-8 without splitting a character (seed: <= 50 KB per hotel)."""
    if not html:
        return ""
    if isinstance(html, (bytes, bytearray)):
        html = bytes(html).decode("utf-8", errors="replace")
    return truncate_utf8(visible_text(LexborHTMLParser(html)), max_bytes)
