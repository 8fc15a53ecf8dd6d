"""Contacts from a hotel's own contact / about / team pages (seed 001, "Website Scrape" layer,
``LAYER_WEBSITE``): people with their titles, e-mail addresses, phone numbers.

* ``contact_page_links(html, base_url)``: which links of a homepage to follow (contact, team,
  about pages, English and French; same site only; at most 5, best first).
* ``extract_contacts(html_or_text, region)``: ``Contacts(people, emails, phones, faxes)``.
  People come from "Jane Doe, General Manager", "General Manager: Jane Doe", "Jane Doe is our
  owner", "owned and operated by Bob and Linda Smith", "Your hosts, Bob & Linda" and team cards
  (a name line followed by a title line). E-mails come from the text, ``mailto:`` links,
  Cloudflare-protected addresses (``data-cfemail``) and obfuscations such as
  ``jane [at] hotel [dot] com``; phones from the text and ``tel:`` links, as E.164 through
  ``normalize.phone_to_e164`` with the hotel's region (numbers labelled "fax" are kept apart).
  A person's e-mail and phone are the ones in their line or card, or an address whose local part
  spells their name (``jane.doe@``, ``jdoe@``).
* Seed confidence modifiers: ``first_name_only`` (-0.30), ``generic_title`` (-0.10, e.g. a bare
  "Manager"), generic mailboxes (``info@``, ``reservations@``, ``frontdesk@`` ...) flagged and never
  attached to a person.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

from selectolax.lexbor import LexborHTMLParser

from sadie_pipeline.core.entity_resolution import website_parts
from sadie_pipeline.core.normalize import PhoneError, match_key, normalize_email, phone_to_e164

from .confidence import contact_confidence

__all__ = [
    "GENERIC_MAILBOXES",
    "Contacts",
    "EmailContact",
    "Person",
    "contact_page_links",
    "decode_cfemail",
    "extract_contacts",
    "find_emails",
    "find_phones",
    "is_first_name_only",
    "is_generic_mailbox",
    "is_generic_title",
    "name_key",
    "split_name",
    "title_rank",
]

SOURCE = "website_scrape"


@dataclass(frozen=True)
class Person:
    full_name: str
    title: str | None
    email: str | None
    phone: str | None
    first_name_only: bool
    generic_title: bool
    confidence: float
    evidence: str
    source: str = SOURCE


@dataclass(frozen=True)
class EmailContact:
    email: str
    generic: bool
    on_site: bool | None  # None when the site's domain is unknown


@dataclass(frozen=True)
class Contacts:
    people: tuple[Person, ...]
    emails: tuple[EmailContact, ...]
    phones: tuple[str, ...]
    faxes: tuple[str, ...]


# --- generic mailboxes and titles -----------------------------------------------------------------

GENERIC_MAILBOXES = frozenset("""
info information infos hello hi contact contacts contactus contact-us enquiries enquiry inquiries inquiry
reservations reservation reservaciones reservas res resv rez booking bookings book reserve stay stays
frontdesk front-desk front.desk front_desk desk reception recepcion guestservices guest-services
guest.services guestservice guests concierge welcome office admin administration mail email webmaster
web website support help service services sales salesoffice events event groups group weddings wedding
catering banquets meetings marketing media press pr news newsletter careers jobs hr recruiting
accounting accounts accountspayable ap billing invoices finance payments privacy legal noreply no-reply
donotreply do-not-reply postmaster abuse hostmaster spa restaurant dining bar team staff management
manager gm hotel inn resort motel lodge front general feedback questions orders shop gifts giftcards
""".split())

GENERIC_TITLES = frozenset({
    "manager", "management", "host", "hostess", "hosts", "staff", "team", "team member", "employee", "associate",
    "concierge", "front desk", "reception", "receptionist", "reservations", "sales", "contact", "agent",
})


def is_generic_mailbox(email: str | None) -> bool:
    """True for role mailboxes (``info@``, ``reservations.miami@``, ``frontdesk2@`` ...)."""
    if not email or "@" not in email:
        return False
    local = email.rsplit("@", 1)[0].lower().strip()
    if local in GENERIC_MAILBOXES:
        return True
    base = re.sub(r"\d+$", "", local)
    if base in GENERIC_MAILBOXES:
        return True
    first = re.split(r"[._+\-]", local, maxsplit=1)[0]
    return re.sub(r"\d+$", "", first) in GENERIC_MAILBOXES


def is_generic_title(title: str | None) -> bool:
    """True when the title says little about the person's role (seed: "Manager" vs "General
    Manager"); a missing title is generic too."""
    if not title:
        return True
    return " ".join(title.lower().replace(".", "").split()) in GENERIC_TITLES


# --- titles -----------------------------------------------------------------------------------------

_AREAS = (r"(?:sales\s*(?:and|&)\s*marketing|sales|marketing|operations|revenue(?:\s+management)?|finance|rooms|"
          r"food\s*(?:and|&)\s*beverage|f\s*&\s*b|events|catering|human\s+resources|engineering|housekeeping|"
          r"guest\s+services|group\s+sales|e-?commerce|distribution|hospitality|hotel\s+operations|business\s+development)")
_MANAGER_AREAS = (r"(?:sales\s*(?:and|&)\s*marketing|sales|marketing|revenue|front\s+office|front\s+desk|reservations|"
                  r"operations|property|events?|catering|office|guest\s+services|guest\s+relations|rooms\s+division|"
                  r"night|spa|food\s*(?:and|&)\s*beverage|f\s*&\s*b|banquets?|group\s+sales|housekeeping|"
                  r"hotel|resort|inn|lodge|general|assistant\s+general|business\s+development|accounts?|"
                  r"human\s+resources|hr|maintenance|facilities)")
_TITLE = (
    r"(?:(?:assistant|associate|executive|senior|regional|area|corporate|deputy)\s+)?"
    r"(?:director\s+of\s+" + _AREAS + r"|" + _MANAGER_AREAS + r"\s+manager|"
    r"(?:vice\s+president|vp)\s+(?:of\s+)?" + _AREAS + r"|"
    r"managing\s+director|managing\s+partner|owner\s*/\s*operator|owner\s*(?:and|&)\s*operator|owner\s*/\s*"
    r"(?:general\s+manager|innkeeper)|co-?owners?|owners?|proprietors?|innkeepers?|co-?founders?|founders?|"
    r"(?:chief\s+(?:executive|operating|financial|commercial|marketing)\s+officer)|ceo|coo|cfo|president|"
    r"partner|executive\s+chef|executive\s+housekeeper|chief\s+engineer|hosts?|hostess|concierge|"
    r"manager)"
)
_TITLE_RE = re.compile(_TITLE, re.IGNORECASE)
_ABBREV = {"ceo": "CEO", "coo": "COO", "cfo": "CFO", "vp": "VP", "hr": "HR", "f&b": "F&B", "f & b": "F&B"}
_SMALL = frozenset({"of", "and", "the"})


def _canon_title(raw: str) -> str:
    t = " ".join(raw.replace("&", " & ").split())
    t = re.sub(r"\s*/\s*", "/", t)
    words = []
    for w in t.split(" "):
        lw = w.lower()
        if lw in _ABBREV:
            words.append(_ABBREV[lw])
        elif lw in _SMALL and words:
            words.append(lw)
        else:
            words.append("/".join("-".join(p[:1].upper() + p[1:].lower() for p in part.split("-"))
                                  for part in w.split("/")))
    title = " ".join(words)
    # plural heading words ("Owners", "Innkeepers") describe one person each
    return re.sub(r"(Owner|Proprietor|Innkeeper|Founder|Partner|Host)s$", r"\1", title)


_RANK = [
    (re.compile(r"\b(?:owner|proprietor|innkeeper|founder|president|ceo|chief executive|managing director|"
                r"managing partner|principal)\b", re.I), 100),
    (re.compile(r"^general manager|/general manager", re.I), 90),
    (re.compile(r"\b(?:assistant general manager|hotel manager|resort manager|inn manager|lodge manager|coo|cfo|"
                r"chief|director of operations|partner)\b", re.I), 80),
    (re.compile(r"\bdirector of (?:sales|marketing|revenue)|\bvp\b|vice president", re.I), 70),
    (re.compile(r"\bdirector\b", re.I), 60),
    (re.compile(r"\bmanager\b", re.I), 50),
]


def title_rank(title: str | None) -> int:
    """How much of a decision maker a title makes someone: owner 100, GM 90, AGM/hotel manager 80,
    director of sales/marketing/revenue 70, other directors 60, other managers 50, generic 20."""
    if is_generic_title(title):
        return 20
    for pattern, rank in _RANK:
        if pattern.search(title or ""):
            return rank
    return 30


# --- names ------------------------------------------------------------------------------------------

_UP = "A-ZÀ-ÖØ-Þ"
_LO = "a-zß-öø-ÿ"
_TITLE_START = (r"(?:General|Assistant|Associate|Director|Manager|Owners?|Co-Owners?|Proprietors?|Innkeepers?|"
                r"Founders?|Co-Founders?|President|Vice|Chief|Executive|Senior|Regional|Area|Corporate|Deputy|Sales|"
                r"Marketing|Revenue|Front|Reservations|Operations|Property|Events?|Catering|Office|Guest|Managing|"
                r"Partner|Hosts?|Hostess|Concierge|Night|Spa|Rooms|Banquets?|Group|Housekeeping|Business|Accounts?|"
                r"Maintenance|Facilities|Hotel|Resort|Inn|Lodge|Human)\b")
_TOKEN = (rf"(?!{_TITLE_START})(?:(?:Mc|Mac|O['’]|D['’])[{_UP}][{_LO}]+|[{_UP}][{_LO}]+(?:[-'’][{_UP}]?[{_LO}]+)*"
          rf"|[{_UP}]\.)")
_PARTICLE = r"(?:de|da|del|della|di|du|van|von|der|den|la|le|st\.|bin|al)"
_NAME = rf"(?:{_TOKEN}(?:\s+(?:{_PARTICLE}\s+)?{_TOKEN}){{0,3}}(?:,?\s+(?:Jr\.?|Sr\.?|II|III|IV))?)"
_HONORIFIC = re.compile(r"^(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam|chef)\.?\s+", re.IGNORECASE)
_SUFFIX = re.compile(r",?\s+(?:jr|sr|ii|iii|iv|phd|md|cpa|cha|chia|chdm|mba)\.?$", re.IGNORECASE)

_NAME_STOP = frozenset("""
hotel hotels inn inns suite suites resort resorts motel lodge lodges beach beaches contact contacts us about our
your their his her its team meet meeting the a an welcome welcomes general manager managers management director
directors sales marketing owner owners operator operated operating owned front desk reservations reservation
email e-mail mail phone tel telephone call fax address street st avenue ave road rd drive dr boulevard blvd lane
ln way suite home rooms room book booking now privacy policy terms gallery news blog careers jobs events event
dining spa amenities amenity location locations directions map check in out guest guests services service office
operations family staff group company llc inc ltd corp hospitality property properties and of for with by at on
to from since est established new old north south east west downtown airport city town county state park
monday tuesday wednesday thursday friday saturday sunday january february march july
september october november december today tonight special specials offer offers package packages deals
president founder chef host hosts hostess innkeeper innkeepers proprietor partner partners principal ceo coo cfo
director chief executive assistant senior vice revenue finance housekeeping engineering concierge catering
restaurant bar lounge pool fitness wifi parking breakfast free click here more read learn view see visit
follow like share copyright rights reserved all site website web page home menu search login sign up subscribe
thank thanks you we i me my is are was be been can will would should please hello hi dear best regards
sincerely cheers warm greetings questions question info information sent message send submit name first last
florida miami california texas canada usa america united states ocean sea bay harbour harbor island lake
mountain river valley grand royal plaza court village garden gardens house manor cottage villa historic
ask meet email call write text reach join say greet message visit contact speak talk chat dial phone
western plus express premier select signature collection sheraton westin wyndham ramada radisson doubletree
courtyard fairfield springhill towneplace homewood embassy clarion econo travelodge days super red roof aloft
moxy kimpton staybridge candlewood sonesta ascend tapestry curio autograph tribute canopy cambria hyatt
suites comfort quality choice accor novotel ibis sofitel fairmont omni loews
""".split())

_TITLE_WORDS = frozenset("manager director owner president founder chef host innkeeper proprietor partner "
                         "principal operator concierge".split())


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def split_name(full_name: str | None) -> tuple[str, str]:
    """(first, last) in lower-case ASCII letters only (honorifics, suffixes, middle names, initials,
    apostrophes and hyphens removed: "Dr. Mary-Jane O'Brien Jr." -> ("maryjane", "obrien")); last
    is "" for a single name."""
    if not full_name:
        return "", ""
    name = _SUFFIX.sub("", _HONORIFIC.sub("", " ".join(full_name.split())))
    tokens = [re.sub(r"[^a-z]", "", _fold(t).lower()) for t in name.split()]
    tokens = [t for t in tokens if len(t) > 1 or (t and len(tokens) == 1)]
    if not tokens:
        return "", ""
    return tokens[0], (tokens[-1] if len(tokens) > 1 else "")


def name_key(full_name: str | None) -> str:
    """The normalised name decision makers are merged on: ``match_key`` of the name without
    honorific or suffix, accents folded ("Mr. José  Pérez, Jr." -> "jose perez")."""
    if not full_name:
        return ""
    name = _SUFFIX.sub("", _HONORIFIC.sub("", " ".join(full_name.split())))
    return match_key(_fold(name))


def is_first_name_only(full_name: str | None) -> bool:
    """True when the name has no surname ("Maria", "Chef Tony", "J.")."""
    first, last = split_name(full_name)
    return bool(first) and not last


def _name_tokens_ok(tokens: list[str]) -> bool:
    words = [t for t in tokens if not re.fullmatch(r"[A-Z]\.", t)]
    if not words:
        return False
    for t in words:
        low = t.lower().strip(".,")
        if low in _NAME_STOP or low in _TITLE_WORDS or len(low) < 2:
            return False
    return True


def _clean_name(raw: str, keep: str, min_tokens: int = 1) -> str | None:
    """A valid person name from `raw`, trimmed from the left (``keep="suffix"``, the name sits just
    before what follows) or from the right (``keep="prefix"``); None when nothing valid is left."""
    raw = _HONORIFIC.sub("", raw.strip())
    suffix_m = re.search(r",?\s+(?:Jr\.?|Sr\.?|II|III|IV)$", raw)
    suffix = suffix_m.group(0) if suffix_m else ""
    core = raw[: len(raw) - len(suffix)] if suffix else raw
    tokens = core.split()
    candidates = ([tokens[i:] for i in range(len(tokens))] if keep == "suffix"
                  else [tokens[:j] for j in range(len(tokens), 0, -1)])
    for toks in candidates:
        toks_wo_particles = [t for t in toks if not re.fullmatch(_PARTICLE, t)]
        if len(toks_wo_particles) < min_tokens or re.fullmatch(_PARTICLE, toks[0]) or re.fullmatch(_PARTICLE, toks[-1]):
            continue
        if toks_wo_particles and _name_tokens_ok(toks_wo_particles):
            return " ".join(toks) + (suffix if keep == "suffix" or len(toks) == len(tokens) else "")
    return None


# --- e-mails ----------------------------------------------------------------------------------------

_EMAIL_RE = re.compile(r"(?<![\w.+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                       r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}\b")
_AT = r"(?P<at>\s*\[\s*at\s*\]\s*|\s*\(\s*at\s*\)\s*|\s*\{\s*at\s*\}\s*|\s*<\s*at\s*>\s*|\s+at\s+|\s+@\s*|\s*@\s+)"
_DOT = r"(?:\s*\[\s*dot\s*\]\s*|\s*\(\s*dot\s*\)\s*|\s*\{\s*dot\s*\}\s*|\s*<\s*dot\s*>\s*|\s+dot\s+|\s*\.\s*)"
_OBFUSCATED = re.compile(rf"(?<![\w.+-])(?P<user>[A-Za-z0-9][A-Za-z0-9._%+-]*){_AT}"
                         rf"(?P<domain>[A-Za-z0-9-]+(?:{_DOT}[A-Za-z0-9-]+)*{_DOT}[A-Za-z]{{2,24}})\b", re.IGNORECASE)
_DOT_WORD = re.compile(r"\[\s*dot\s*\]|\(\s*dot\s*\)|\{\s*dot\s*\}|<\s*dot\s*>|\s+dot\s+", re.IGNORECASE)
_JUNK_TLDS = frozenset("png jpg jpeg gif webp svg bmp ico css js json xml pdf doc docx zip mp4 mov".split())
_PLACEHOLDER_DOMAINS = frozenset("""
example.com example.org example.net domain.com yourdomain.com your-domain.com email.com test.com sentry.io
wixpress.com sentry.wixpress.com sentry-next.wixpress.com mysite.com website.com company.com hotel.com
yourhotel.com placeholder.com
""".split())


def decode_cfemail(hex_string: str) -> str | None:
    """The address behind Cloudflare's e-mail obfuscation (``data-cfemail`` / ``#hex`` in
    ``/cdn-cgi/l/email-protection``): every byte XOR the first."""
    try:
        data = bytes.fromhex(hex_string.strip())
    except ValueError:
        return None
    if len(data) < 2:
        return None
    key = data[0]
    try:
        return bytes(b ^ key for b in data[1:]).decode("utf-8")
    except UnicodeDecodeError:
        return None


def _valid_email(raw: str) -> str | None:
    try:
        email = normalize_email(raw.strip().strip(".,;:()[]<>\"'"))
    except ValueError:
        return None
    if not email:
        return None
    domain = email.rsplit("@", 1)[1]
    if domain.rsplit(".", 1)[-1] in _JUNK_TLDS or domain in _PLACEHOLDER_DOMAINS:
        return None
    if any(domain.endswith("." + d) for d in ("sentry.io", "wixpress.com")):
        return None
    return email


def _email_spans(text: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []
    for m in _EMAIL_RE.finditer(text):
        email = _valid_email(m.group(0))
        if email:
            out.append((m.start(), m.end(), email))
            taken.append((m.start(), m.end()))
    for m in _OBFUSCATED.finditer(text):
        if any(a < m.end() and m.start() < b for a, b in taken):
            continue
        at = m.group("at")
        plain_word_at = at.strip().lower() == "at"
        if plain_word_at and not _DOT_WORD.search(m.group("domain")):
            continue  # "rooms at Booking.com" is not an address
        if "@" not in at and not re.search(r"at", at, re.IGNORECASE):
            continue
        domain = re.sub(_DOT, ".", m.group("domain"), flags=re.IGNORECASE)
        email = _valid_email(f"{m.group('user')}@{domain}")
        if email:
            out.append((m.start(), m.end(), email))
    out.sort()
    return out


def find_emails(text: str | None) -> list[str]:
    """Every address in `text`, plain or obfuscated, normalised, in order of appearance, once."""
    seen: dict[str, None] = {}
    for _, _, email in _email_spans(text or ""):
        seen.setdefault(email, None)
    return list(seen)


# --- phones -------------------------------------------------------------------------------------

_PHONE_RE = re.compile(
    r"(?<![\w+/.,$-])(?:\+\s?\d{1,3}[\s.\-]?)?(?:\(\d{1,4}\)[\s.\-]?)?\d{1,4}(?:[ \t.\-]\d{2,4}){1,4}"
    r"(?:\s*(?:x|ext\.?|extension)\s*\d{1,5})?(?![\w/-]|[.,]\d)", re.IGNORECASE)
_DATE_LIKE = re.compile(r"^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$")
_FAX_BEFORE = re.compile(r"\bfax\b[^\d]{0,12}$", re.IGNORECASE)


def _phone_spans(text: str, region: str) -> list[tuple[int, int, str, bool]]:
    """(start, end, E.164, is_fax) of every phone number in `text`."""
    out = []
    nanp = region.upper() in ("US", "CA")
    for m in _PHONE_RE.finditer(text):
        raw = m.group(0).strip()
        digits = re.sub(r"\D", "", re.split(r"(?i)x|ext", raw)[0])
        if _DATE_LIKE.match(raw) or len(digits) < 7 or len(digits) > 15:
            continue
        if nanp and not raw.startswith("+") and len(digits) < 10:
            continue
        try:
            e164 = phone_to_e164(raw, region)
        except PhoneError:
            continue
        if not e164:
            continue
        fax = bool(_FAX_BEFORE.search(text[max(0, m.start() - 20):m.start()]))
        out.append((m.start(), m.end(), e164, fax))
    return out


def find_phones(text: str | None, region: str = "US") -> list[str]:
    """Every phone number in `text` (faxes excluded) in E.164, in order of appearance, once."""
    seen: dict[str, None] = {}
    for _, _, e164, fax in _phone_spans(text or "", region):
        if not fax:
            seen.setdefault(e164, None)
    return list(seen)


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
        if not free(m):
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


def _name_matches_email(full_name: str, email: str) -> bool:
    """True when the local part spells the name: first.last, flast, lastf, firstlast, lastfirst,
    firstl or (for first names of 3+ letters) first."""
    first, last = split_name(full_name)
    local = re.sub(r"[^a-z]", "", email.split("@", 1)[0].lower())
    if not first or len(local) < 2:
        return False
    forms = {first + last, first[0] + last, last + first[0], last + first, first + last[:1]} if last else set()
    forms = {f for f in forms if len(f) >= 3}
    if len(first) >= 3:
        forms.add(first)
    return local in forms


_NEAR_CHARS = 160  # how far after a person's mention their e-mail may be
_NEAR_PHONE_CHARS = 80  # ... and their phone (a direct line sits right by the name)
_TOLL_FREE = re.compile(r"^\+1(?:800|833|844|855|866|877|888)")


def extract_contacts(content: str | bytes | None, region: str = "US", *, site_domain: str | None = None
                     ) -> Contacts:
    """People, e-mails and phones of a contact/about/team page (HTML, or text such as the stored
    stripped website text).

    `region` is the ISO country code numbers without a country code belong to (``"US"``,
    ``"CA"``); `site_domain` (the hotel's website or domain) marks which e-mails are on-site.
    A person's e-mail is an address spelling their name anywhere on the page, else the first
    personal (non-generic) address within 160 characters after the mention and before the next
    person; their phone the first number within 80 characters that is neither a fax nor toll-free
    (central reservations)."""
    if not content:
        return Contacts((), (), (), ())
    if isinstance(content, (bytes, bytearray)):
        content = bytes(content).decode("utf-8", errors="replace")
    if _looks_like_html(content):
        lines, link_emails, link_phones = _html_lines(content)
    else:
        lines = [" ".join(line.split()) for line in content.splitlines()]
        lines = [line for line in lines if line]
        link_emails, link_phones = [], []
    doc = "\n".join(lines)
    offsets, pos = [], 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1

    email_spans = _email_spans(doc)
    phone_spans = _phone_spans(doc, region)
    all_emails: dict[str, None] = {}
    for _, _, e in email_spans:
        all_emails.setdefault(e, None)
    for raw in link_emails:
        e = _valid_email(raw)
        if e:
            all_emails.setdefault(e, None)
    phones: dict[str, None] = {}
    faxes: dict[str, None] = {}
    for _, _, p, fax in phone_spans:
        (faxes if fax else phones).setdefault(p, None)
    for raw in link_phones:
        try:
            p = phone_to_e164(raw, region)
        except PhoneError:
            continue
        if p and p not in faxes:
            phones.setdefault(p, None)

    found: list[_Found] = []
    taken_lines: set[int] = set()
    for i, line in enumerate(lines):
        people = _people_in_line(line, offsets[i])
        if people:
            taken_lines.add(i)
            found.extend(people)
    found.extend(_people_in_cards(lines, offsets, taken_lines))
    found.sort(key=lambda f: f.start)

    personal = [e for e in all_emails if not is_generic_mailbox(e)]
    named = {e: [f for f in found if _name_matches_email(f.name, e)] for e in personal}
    used: set[str] = set()
    starts = sorted({f.start for f in found})
    people_by_key: dict[str, Person] = {}
    for f in found:
        email = next((e for e in personal if e not in used and f in named[e]), None)
        nxt = next((s for s in starts if s > f.start), len(doc))
        stop = min(nxt, f.end + _NEAR_CHARS) if nxt > f.end else f.end + _NEAR_CHARS
        if email is None:
            email = next((e for a, _, e in email_spans
                          if f.start <= a < stop and e not in used and not is_generic_mailbox(e) and not named[e]),
                         None)
        phone_stop = min(stop, f.end + _NEAR_PHONE_CHARS)
        phone = next((p for a, _, p, fax in phone_spans
                      if f.start <= a < phone_stop and not fax and not _TOLL_FREE.match(p)), None)
        if email:
            used.add(email)
        first_only = is_first_name_only(f.name)
        generic = is_generic_title(f.title)
        person = Person(
            full_name=f.name, title=f.title, email=email, phone=phone, first_name_only=first_only,
            generic_title=generic,
            confidence=contact_confidence(SOURCE, first_name_only=first_only, generic_title=generic),
            evidence=" ".join(f.evidence.split())[:300],
        )
        key = name_key(f.name)
        old = people_by_key.get(key)
        if old is None:
            people_by_key[key] = person
        else:  # the same person twice on a page: keep the better title, fill the blanks
            better = old if title_rank(old.title) >= title_rank(person.title) else person
            people_by_key[key] = replace(better, email=old.email or person.email, phone=old.phone or person.phone)

    # "Maria" on a page that also names "Maria Lopez" is Maria Lopez
    people = list(people_by_key.values())
    full = [p for p in people if not p.first_name_only]
    kept = []
    for p in people:
        if p.first_name_only:
            first = split_name(p.full_name)[0]
            if sum(1 for q in full if split_name(q.full_name)[0] == first) == 1:
                continue
        kept.append(p)

    parts = website_parts(site_domain) if site_domain else None
    site = parts[0] if parts else None
    emails = tuple(
        EmailContact(e, is_generic_mailbox(e),
                     None if site is None else (e.rsplit("@", 1)[1] == site or e.rsplit("@", 1)[1].endswith("." + site)))
        for e in all_emails
    )
    return Contacts(tuple(kept), emails, tuple(phones), tuple(faxes))


# --- which pages to fetch ---------------------------------------------------------------------------

_LINK_KINDS = [
    (3.0, re.compile(r"contact|get-in-touch|reach-us|nous-joindre|joindre|contactez|contacto|kontakt|"
                     r"\bfind-us\b", re.IGNORECASE)),
    (2.5, re.compile(r"\bteam\b|our-team|\bstaff\b|management|leadership|\bpeople\b|meet-|\bowners?\b|"
                     r"innkeepers?|our-hosts|\bhosts?\b|equipe|équipe|\bwho-we-are\b", re.IGNORECASE)),
    (2.0, re.compile(r"about|our-story|\bhistory\b|a-propos|à-propos|apropos|qui-sommes-nous|nosotros|"
                     r"\bimpressum\b", re.IGNORECASE)),
]
_TEXT_KINDS = [
    (3.0, re.compile(r"\bcontact|get in touch|nous joindre|contactez|contacto|kontakt|find us\b", re.IGNORECASE)),
    (2.5, re.compile(r"\b(?:our team|the team|team|staff|management|leadership|meet the|owners?|innkeepers?|"
                     r"your hosts?|équipe|equipe)\b", re.IGNORECASE)),
    (2.0, re.compile(r"\b(?:about|our story|history|à propos|a propos|qui sommes-nous|who we are)\b", re.IGNORECASE)),
]
_SKIP_PATH = re.compile(r"career|jobs?\b|employment|privacy|terms|cookie|legal-notice|login|sign-?in|account|"
                        r"cart|checkout|booking|reserv|/book\b|wp-admin|feed|\.(?:pdf|jpe?g|png|gif|webp|svg|docx?|"
                        r"zip|mp4)$", re.IGNORECASE)


def _canonical(url: str) -> str:
    p = urlsplit(url)
    path = p.path.rstrip("/") or ""
    return urlunsplit((p.scheme.lower(), p.netloc.lower(), path, p.query, ""))


def contact_page_links(html: str | bytes | None, base_url: str, max_links: int = 5) -> list[str]:
    """Absolute URLs of the homepage's contact, team and about pages, same site only (the
    registrable domain of `base_url`, any subdomain), without fragments, once each, at most
    `max_links`: contact pages first, then team/staff/owners, then about/history, each in page
    order. Careers, privacy, booking and file links are skipped."""
    if not html or not base_url:
        return []
    if isinstance(html, (bytes, bytearray)):
        html = bytes(html).decode("utf-8", errors="replace")
    base_parts = website_parts(base_url)
    if base_parts is None:
        return []
    site = base_parts[0]
    base_canon = _canonical(urljoin(base_url, "."))
    base_self = _canonical(base_url)
    tree = LexborHTMLParser(html)
    scored: dict[str, tuple[float, int, str]] = {}
    for order, node in enumerate(tree.css("a[href]")):
        href = (node.attributes.get("href") or "").strip()
        low = href.lower()
        if not href or low.startswith(("mailto:", "tel:", "javascript:", "#", "data:", "sms:", "whatsapp:")):
            continue
        url = urljoin(base_url, href).split("#", 1)[0]
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            continue
        wp = website_parts(url)
        if wp is None or wp[0] != site:
            continue
        canon = _canonical(url)
        if canon in (base_self, base_canon) or not parts.path.strip("/") and not parts.query:
            continue
        path = unquote(parts.path)
        if _SKIP_PATH.search(path):
            continue
        text = " ".join((node.text() or "").split()) or (node.attributes.get("title") or node.attributes.get(
            "aria-label") or "")
        score = 0.0
        for s, pattern in _LINK_KINDS:
            if pattern.search(path.replace("_", "-")):
                score = max(score, s)
        for s, pattern in _TEXT_KINDS:
            if len(text) <= 40 and pattern.search(text):
                score = max(score, s)
        if score <= 0:
            continue
        if canon not in scored or scored[canon][0] < score:
            prev_order = scored[canon][1] if canon in scored else order
            scored[canon] = (score, prev_order, url)
    ranked = sorted(scored.values(), key=lambda t: (-t[0], t[1]))
    return [url for _, _, url in ranked[:max_links]]
