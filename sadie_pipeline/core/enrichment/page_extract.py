"""Page text extraction for contacts: HTML to visible text lines (with ``mailto:``, ``tel:`` and
Cloudflare-protected addresses), and people (name + title) found in lines and team cards."""

from __future__ import annotations

import re
from urllib.parse import unquote

from selectolax.lexbor import LexborHTMLParser

from .emails_phones import decode_cfemail
from .names import _HONORIFIC, _NAME, _TITLE, _canon_title, _clean_name

# --- HTML to lines ------------------------------------------------------------------------------

_BLOCK = re.compile(
    r"<(?:br|hr)\b[^>]*>|</?(?:p|div|li|ul|ol|h[1-6]|tr|td|th|dt|dd|dl|table|section|article|header|footer|"
    r"address|blockquote|figcaption|figure|nav|aside|main|form|label|button|option)\b[^>]*>", re.IGNORECASE)
_DROP_TAGS = ["script", "style", "noscript", "template", "svg", "iframe", "head"]


def _looks_like_html(content: str) -> bool:
    return bool(re.search(r"<(?:html|body|div|p|a|span|h[1-6]|br|li|table|section)\b", content, re.IGNORECASE))


def _html_lines(html: str) -> tuple[list[str], list[str], list[str]]:
    """(visible text lines, e-mails of links, phones of ``tel:`` links)."""
    tree = LexborHTMLParser(_BLOCK.sub(lambda m: "\n" + m.group(0) + "\n", html))
    tree.strip_tags(_DROP_TAGS)
    link_emails: list[str] = []
    link_phones: list[str] = []
    for node in tree.css("[data-cfemail]"):
        email = decode_cfemail(node.attributes.get("data-cfemail") or "")
        if email:
            link_emails.append(email)
            node.replace_with(f" {email} ")
    for node in tree.css("a[href]"):
        href = (node.attributes.get("href") or "").strip()
        low = href.lower()
        email = None
        if low.startswith("mailto:"):
            email = unquote(href[7:].split("?", 1)[0]).split(",")[0].strip()
        elif "/cdn-cgi/l/email-protection#" in low:
            email = decode_cfemail(href.rsplit("#", 1)[1]) or None
        if email:
            link_emails.append(email)
            if email.lower() not in (node.text() or "").lower():
                node.insert_after(f" {email} ")
        elif low.startswith("tel:"):
            number = unquote(href[4:]).strip()
            link_phones.append(number)
            if not re.search(r"\d{3}", node.text() or ""):
                node.insert_after(f" {number} ")
    root = tree.body if tree.body is not None else tree.root
    text = root.text(deep=True, separator=" ") if root is not None else ""
    lines = [" ".join(line.split()) for line in text.replace("\r", "\n").split("\n")]
    return [line for line in lines if line], link_emails, link_phones


# --- people -------------------------------------------------------------------------------------------

_SEP_AFTER_NAME = r"\s*(?:,|\s[-–—|]\s|:|\(|[-–—|])\s*(?:(?:is\s+)?(?:our|the|your|hotel|resort|inn)\s+)?"
_P_TITLE_NAME = re.compile(rf"(?i:(?P<title>{_TITLE}))\b(?P<sep>\s*[:\-–—|,]\s*|\s+(?:is\s+)?)(?P<name>{_NAME})")
_P_PAIR_TITLE = re.compile(
    rf"(?P<name>{_NAME})\s+(?:and|&)\s+(?P<name2>{_NAME}){_SEP_AFTER_NAME}(?P<title>(?i:{_TITLE}))\b")
_P_TITLE_PAIR = re.compile(
    rf"(?i:(?P<title>(?:your\s+|our\s+)?(?:co-?owners|owners|proprietors|innkeepers|hosts|founders|co-?founders)))"
    rf"\s*[:,\-–—]?\s*(?:are\s+)?(?P<name>{_NAME})\s+(?:and|&)\s+(?P<name2>{_NAME})")
_P_BY = re.compile(
    rf"(?i:\b(?P<verb>owned(?:\s+and\s+operated)?|operated|run|managed|hosted))\s+by\s+(?:(?i:the)\s+)?"
    rf"(?P<name>{_NAME})(?:\s+(?:and|&)\s+(?P<name2>{_NAME}))?")
# "managed by Orange Blossom Hospitality": the name runs on into a company word, so it is a business
_COMPANY_AFTER = re.compile(r"\s+(?:hotel\s+management|hotel\s+partners|hotel\s+group|hospitality|management|group|"
                            r"partners|holdings|properties|resorts|lodging|hotels|llc|l\.l\.c\.|inc\b|ltd\b|corp\b|"
                            r"company|co\.)", re.IGNORECASE)
_TITLE_LINE = re.compile(rf"^(?:(?:our|the|your)\s+)?(?P<title>{_TITLE})\b(?:\s*(?:,|at|of|-|–|—|\|)\s*.*)?$",
                         re.IGNORECASE)
_NAME_LINE = re.compile(rf"^(?:(?:Mr|Mrs|Ms|Dr)\.?\s+)?(?P<name>{_NAME})$")
# Names are case-sensitive, titles are not; "Jane Doe General Manager" (no separator, as in stripped
# page text) needs the title in Title Case.
_P_NAME_TITLE = re.compile(
    rf"(?P<name>{_NAME})(?P<sep>{_SEP_AFTER_NAME}|\s+is\s+(?:the\s+|our\s+|your\s+)?|\s+(?=[A-Z]))"
    rf"(?i:(?P<title>{_TITLE}))\b")


class _Found:
    __slots__ = ("end", "evidence", "name", "start", "title")

    def __init__(self, name: str, title: str | None, start: int, end: int, evidence: str):
        self.name = name
        self.title = title
        self.start = start
        self.end = end
        self.evidence = evidence


def _people_in_line(line: str, offset: int) -> list[_Found]:
    found: list[_Found] = []
    taken: list[tuple[int, int]] = []

    def free(m: re.Match) -> bool:
        return not any(a < m.end() and m.start() < b for a, b in taken)

    def evidence(m: re.Match) -> str:
        return line[max(0, m.start() - 40):m.end() + 80].strip()

    def add(raw: str, title: str | None, keep: str, m: re.Match, min_tokens: int = 1) -> None:
        name = _clean_name(raw, keep, min_tokens)
        if name:
            found.append(_Found(name, _canon_title(title) if title else None, offset + m.start(), offset + m.end(),
                                evidence(m)))
            taken.append((m.start(), m.end()))

    def pair(m: re.Match, title: str | None, keep_first: str) -> None:
        n1 = _clean_name(m.group("name"), keep_first)
        n2 = _clean_name(m.group("name2"), "prefix")
        if not n1 or not n2:
            return
        if len(n1.split()) == 1 and len(n2.split()) > 1:  # "Bob and Linda Smith": Bob shares the surname
            n1 = f"{n1} {n2.split()[-1]}"
        t = _canon_title(title) if title else None
        found.append(_Found(n1, t, offset + m.start(), offset + m.end(), evidence(m)))
        found.append(_Found(n2, t, offset + m.start(), offset + m.end(), evidence(m)))
        taken.append((m.start(), m.end()))

    for m in _P_TITLE_PAIR.finditer(line):
        title = re.sub(r"^(?:your|our)\s+", "", m.group("title"), flags=re.IGNORECASE)
        pair(m, title, "prefix")
    for m in _P_PAIR_TITLE.finditer(line):
        if free(m):
            pair(m, m.group("title"), "suffix")
    for m in _P_BY.finditer(line):
        if not free(m) or _COMPANY_AFTER.search(m.group(0)) or _COMPANY_AFTER.match(line, m.end()):
            continue
        verb = m.group("verb").lower()
        title = "Owner" if verb.startswith("owned") else ("Host" if verb == "hosted" else "Manager")
        if m.group("name2"):
            pair(m, title, "prefix")
        else:
            add(m.group("name"), title, "prefix", m)
    for m in _P_NAME_TITLE.finditer(line):
        if free(m):
            add(m.group("name"), m.group("title"), "suffix", m, min_tokens=1 if m.group("sep").strip() else 2)
    for m in _P_TITLE_NAME.finditer(line):
        if free(m):
            punct = bool(m.group("sep").strip(" is"))
            add(m.group("name"), m.group("title"), "prefix", m, min_tokens=1 if punct else 2)
    return found


def _people_in_cards(lines: list[str], offsets: list[int], taken_lines: set[int]) -> list[_Found]:
    """Team cards: a line that is only a name next to a line that is only a title."""
    found = []
    for i, line in enumerate(lines):
        if i in taken_lines or len(line) > 60:
            continue
        nm = _NAME_LINE.match(line)
        if not nm:
            continue
        name = _clean_name(nm.group("name"), "prefix")
        if not name or name != _HONORIFIC.sub("", nm.group("name")).strip():
            continue
        for j in (i + 1, i - 1):
            if 0 <= j < len(lines) and j not in taken_lines and len(lines[j]) <= 80:
                tm = _TITLE_LINE.match(lines[j])
                if tm:
                    lo, hi = min(i, j), max(i, j)
                    found.append(_Found(name, _canon_title(tm.group("title")), offsets[lo],
                                        offsets[hi] + len(lines[hi]), f"{lines[lo]} | {lines[hi]}"))
                    taken_lines.update((i, j))
                    break
    return found
