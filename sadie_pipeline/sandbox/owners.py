"""Who owns each hotel of the sandbox world, and what every owner source says about it.

`owner_truth(place)` is deterministic for a place (a hash of its id), so every service (WHOIS,
the Wayback Machine, crt.sh, licence registers, ABN Lookup, Serper reviews, Common Crawl, the
SMTP servers, the Microsoft account check) answers from the same truth, and benchmarks score
against it. The sources disagree the way real ones do: most registrations are privacy-masked
and only some have an older unmasked snapshot; a share of certificates carry an organisation;
a few registrants are the web agency, not the owner (`agency_registrant`, a trap for precision);
review replies are signed in several styles, some only readable by a person or an LLM.

Mail: `mailboxes` are the addresses that exist. `mail_kind` says how the domain's MX answers:
``normal`` (250 for a mailbox, 550 otherwise), ``catch_all`` (250 for everything: no answer
proves anything), ``greylist`` (451 to the first attempt of each sender/recipient, then as
normal) and ``silent`` (port 25 accepts nothing: timeouts). Domains on Microsoft's MX are checked
with the account-existence call instead (`o365`), which knows the same mailboxes.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass
from functools import lru_cache

from .world import Place

__all__ = ["AbnRecord", "Licence", "OwnerTruth", "Person", "Review", "WhoisSnapshot", "abn_check_digits",
           "owner_truth"]

_FIRST = ["Helen", "George", "Anita", "Raymond", "Gloria", "Victor", "Irene", "Samuel", "Teresa", "Harold",
          "Nadia", "Oscar", "Ruth", "Felix", "Marta", "Kenji", "Leila", "Tomas", "Grace", "Arjun"]
_LAST = ["Whitaker", "Delgado", "Brennan", "Castillo", "Hargrove", "Lindqvist", "Moreau", "Okonkwo", "Petrakis",
         "Quintero", "Rasmussen", "Sorensen", "Thornton", "Valente", "Wexler", "Yamada", "Zielinski", "Abernathy",
         "Bellamy", "Crowley"]
_AGENCIES = [("Pixel Harbor Web Design", "Kevin Marsh"), ("Sunlit Media Studio", "Dana Pruitt"),
             ("BlueWave Digital", "Corey Tran")]
MAIL_KINDS = ("normal", "catch_all", "greylist", "silent")


@dataclass(frozen=True)
class Person:
    name: str
    title: str
    email: str | None = None


@dataclass(frozen=True)
class WhoisSnapshot:
    """A registration record as archived on `date` (ISO); masked: privacy-protected values."""

    date: str
    name: str | None
    org: str | None
    email: str | None
    masked: bool


@dataclass(frozen=True)
class Licence:
    number: str
    licensee: str           # the business licensed (the owning company)
    owner_name: str | None  # the person listed as owner / principal
    mailing_address: str
    rooms: int | None
    status: str = "Current"


@dataclass(frozen=True)
class AbnRecord:
    abn: str
    entity_name: str
    trading_names: tuple[str, ...]
    state: str
    status: str             # Active | Cancelled
    directors: tuple[str, ...]  # ASIC's officeholders of the company


@dataclass(frozen=True)
class Review:
    author: str
    rating: int
    text: str
    response: str | None
    date: str


@dataclass(frozen=True)
class OwnerTruth:
    owner: Person                      # the person who owns the hotel
    manager: Person | None             # the general manager (the site's first contact), if any
    company: str                       # the owning entity
    rdap_useful: bool                  # False: the TLD has no useful RDAP, only port-43 WHOIS
    agency_registrant: Person | None   # the registrant is the web agency (not the owner)
    whois: WhoisSnapshot               # the current registration record
    whois_history: tuple[WhoisSnapshot, ...]  # archived records, oldest first
    cert_type: str                     # DV | OV | EV
    cert_org: str | None               # the O= of an OV/EV certificate
    cert_sans: tuple[str, ...]         # the names on the certificate (sibling domains included)
    licence: Licence | None
    abn: AbnRecord | None
    reviews: tuple[Review, ...]
    in_common_crawl: bool
    cc_people: tuple[Person, ...]      # people named on the crawled contact / about / team pages
    mailboxes: frozenset[str]
    mail_kind: str
    o365: bool

    def true_people(self) -> frozenset[str]:
        """Names that are this hotel's owner or staff (an owner-precision hit)."""
        names = {self.owner.name} | ({self.manager.name} if self.manager else set())
        return frozenset(names)

    def exists(self, email: str) -> bool:
        return email.strip().lower() in self.mailboxes


def _rng(place: Place, what: str) -> random.Random:
    return random.Random(hashlib.sha256(f"{place.id}\x1f{what}".encode()).hexdigest())


def _local(name: str) -> tuple[str, str]:
    parts = re.sub(r"[^a-z ]+", "", name.lower()).split()
    return parts[0], parts[-1]


def abn_check_digits(body: str) -> str:
    """An 11-digit ABN whose first two digits make ABR's modulus-89 check pass, for a 9-digit body."""
    weights = (10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19)
    for lead in range(10, 100):
        digits = [int(c) for c in f"{lead}{body}"]
        digits[0] -= 1
        if sum(d * w for d, w in zip(digits, weights)) % 89 == 0:
            return f"{lead}{body}"
    raise ValueError(body)


def _people(place: Place, rnd: random.Random, domain: str | None) -> tuple[Person, Person | None]:
    staff = [c for c in place.contacts if c.name]
    manager = Person(staff[0].name, staff[0].title, staff[0].email) if staff else None
    first, last = rnd.choice(_FIRST), rnd.choice(_LAST)
    owner_email = f"{first.lower()}.{last.lower()}@{domain}" if domain else None
    return Person(f"{first} {last}", "Owner", owner_email), manager


def _whois(place: Place, rnd: random.Random, owner: Person, company: str,
           agency: Person | None) -> tuple[WhoisSnapshot, tuple[WhoisSnapshot, ...]]:
    rdap = place.rdap or {}
    created = rdap.get("created") or f"{rnd.randint(2000, 2020)}-0{rnd.randint(1, 9)}-1{rnd.randint(0, 9)}"
    masked = bool(rdap.get("privacy", rnd.random() < 0.6))
    who = agency or owner
    if masked:
        current = WhoisSnapshot("2026-01-15", None, None, None, True)
    else:
        current = WhoisSnapshot("2026-01-15", rdap.get("name") or who.name, rdap.get("org") or company,
                                rdap.get("email") or who.email, False)
    history: list[WhoisSnapshot] = []
    year = int(created[:4])
    if masked and rnd.random() < 0.75:  # archived before the registrar turned privacy on
        history.append(WhoisSnapshot(f"{min(year + 2, 2017)}-06-0{rnd.randint(1, 9)}", who.name, company, who.email,
                                     False))
    history.append(WhoisSnapshot("2019-03-02", None, None, None, True) if masked else current)
    return current, tuple(history)


def _reviews(rnd: random.Random, manager: Person | None, owner: Person) -> tuple[Review, ...]:
    signer = manager or owner
    first = signer.name.split()[0]
    styles = [f"{first}, {signer.title}", f"{signer.name}, {signer.title}", f"- {first} ({signer.title})",
              "The Front Desk Team", f"Warm regards from all of us - {first}, who runs the place for the family"]
    style = rnd.choices(range(len(styles)), weights=(45, 25, 12, 10, 8))[0]
    out = []
    for i in range(rnd.randint(2, 5)):
        rating = rnd.choice((5, 5, 4, 3, 2))
        response = None
        if rnd.random() < 0.6:
            response = f"Thank you for staying with us and for your kind words!\n{styles[style]}"
        out.append(Review(f"Guest {i + 1}", rating, "Lovely stay, friendly staff.", response, f"2026-0{i + 1}-12"))
    return tuple(out)


def _mail(place: Place, rnd: random.Random, owner: Person, manager: Person | None,
          domain: str | None) -> tuple[frozenset[str], str]:
    if not domain or place.mail is None:  # no MX: the domain receives no mail at all
        return frozenset(), "normal"
    boxes = {f"info@{domain}", f"reservations@{domain}"}
    if manager and manager.email:
        boxes.add(manager.email.lower())
    for c in place.contacts:
        if c.email:
            boxes.add(c.email.lower())
    if owner.email and rnd.random() < 0.8:
        boxes.add(owner.email)
    kind = rnd.choices(MAIL_KINDS, weights=(75, 10, 10, 5))[0]
    return frozenset(boxes), kind


@lru_cache(maxsize=100_000)
def owner_truth(place: Place) -> OwnerTruth:
    """The owner truth of a hotel of the world (deterministic for its id)."""
    rnd = _rng(place, "owner")
    domain = place.domain
    owner, manager = _people(place, rnd, domain)
    words = place.name.split()
    company = place.management if place.management and rnd.random() < 0.5 else f"{' '.join(words[:2])} Hospitality LLC"
    agency = None
    if rnd.random() < 0.05:
        agency_name, person = rnd.choice(_AGENCIES)
        agency = Person(person, "Webmaster", f"{person.split()[0].lower()}@{agency_name.split()[0].lower()}.test")
    current, history = _whois(place, rnd, owner, company, agency)
    cert_type = rnd.choices(("DV", "OV", "EV"), weights=(65, 28, 7))[0]
    siblings = tuple(sorted({f"{w}.{domain}" for w in ("www", "book")} if domain else ()))
    licensed = place.country == "US" and place.state in ("FL", "TX") and rnd.random() < 0.9
    licence = Licence(f"{place.state}{rnd.randint(1000000, 9999999)}", company,
                      owner.name if rnd.random() < 0.85 else None, f"PO Box {rnd.randint(100, 9999)}, {place.city}, "
                      f"{place.state}", place.rooms) if licensed else None
    abn = None
    if place.country == "AU":
        abn = AbnRecord(abn_check_digits(f"{rnd.randint(0, 999_999_999):09d}"), company.upper().replace(" LLC", " PTY LTD"),
                        (place.name,), place.state, "Active", (owner.name.upper(),))
    mailboxes, mail_kind = _mail(place, rnd, owner, manager, domain)
    cc_people = tuple(p for p in (manager, owner if rnd.random() < 0.5 else None) if p)
    return OwnerTruth(
        owner=owner, manager=manager, company=company, rdap_useful=rnd.random() >= 0.15, agency_registrant=agency,
        whois=current, whois_history=history, cert_type=cert_type, cert_org=company if cert_type != "DV" else None,
        cert_sans=siblings, licence=licence, abn=abn, reviews=_reviews(rnd, manager, owner),
        in_common_crawl=bool(domain) and rnd.random() < 0.65, cc_people=cc_people, mailboxes=mailboxes,
        mail_kind="normal" if place.mail == "microsoft" else mail_kind, o365=place.mail == "microsoft")
