"""Idempotent merges of enrichment results (seed 001, "Idempotent Re-enrichment" and the
decision-maker ``ON CONFLICT`` rule), as pure functions on row dicts, so the same rules can be
unit-tested here and mirrored by the SQL upserts.

One hotel's enrichment row, ``merge_enrichment(existing, new)``; the rule of each column:

===========  =======================================================================================
rule         meaning
===========  =======================================================================================
coalesce     (default) the new value only fills an empty one (None, "", empty list/dict); 0 and
             False are values, as in SQL's ``COALESCE(NULLIF(x, ''), ...)``
or           ``layers_completed | new`` (ints) / ``a OR b`` (bools): bits and flags only accumulate
distinct     ``array_agg(DISTINCT ...)``: the union, sorted, without None/""
greatest     ``GREATEST(a, b)`` ignoring NULLs: higher confidence always wins
now          set to `now` on every merge (``updated_at``: timestamps always update)
keep         the first value ever written (``hotel_id``, ``created_at``)
===========  =======================================================================================

Value groups make COALESCE priority-aware (the seed's "only overwrite if new source has higher
priority"): a group's confidence column decides for all its columns together, so a value, its
evidence and its confidence never come from different runs. The new group replaces the old one
when the old value is empty or the new confidence is strictly higher.

``force_refresh=True`` (the seed's periodic freshness pass): every non-empty new value overwrites
(groups and confidences included); empty new values never erase; bitmasks and flags still only
accumulate (OR) and sources still union.

Merging is idempotent: ``merge(merge(e, n), n) == merge(e, n)`` apart from ``updated_at``.

Decision makers, ``upsert_decision_makers(existing, incoming)``: one row per person per hotel,
matched by (hotel, normalised name) or by (hotel, e-mail), and a first-name-only row ("Maria",
from a review reply) joins the one full name with that first name ("Maria Lopez") when it is the
only one. Merged like the seed's ``ON CONFLICT``: email = the incoming one when its confidence is
higher, else COALESCE; ``email_verified`` OR; sources DISTINCT; confidence GREATEST; the fuller
name and the more specific title win; other columns COALESCE.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from .names import is_first_name_only, is_generic_title, name_key, split_name, title_rank

__all__ = [
    "COALESCE",
    "DECISION_MAKER_RULES",
    "DISTINCT",
    "ENRICHMENT_GROUPS",
    "ENRICHMENT_RULES",
    "GREATEST",
    "KEEP",
    "NOW",
    "OR",
    "changed_fields",
    "find_match",
    "is_empty",
    "merge_decision_maker",
    "merge_enrichment",
    "same_decision_maker",
    "upsert_decision_makers",
]

COALESCE, OR, DISTINCT, GREATEST, NOW, KEEP = "coalesce", "or", "distinct", "greatest", "now", "keep"
_RULES = {COALESCE, OR, DISTINCT, GREATEST, NOW, KEEP}

ENRICHMENT_RULES: Mapping[str, str] = {
    "hotel_id": KEEP,
    "created_at": KEEP,
    "layers_completed": OR,
    "sources": DISTINCT,
    "confidence": GREATEST,
    "updated_at": NOW,
}
#: confidence column -> the columns it governs (see "Value groups").
ENRICHMENT_GROUPS: Mapping[str, tuple[str, ...]] = {
    "room_count_confidence": ("room_count", "room_count_evidence", "room_count_source"),
    "research_confidence": ("property_type", "affiliation", "brand", "parent_company", "management_company",
                            "amenities", "research_evidence"),
}
DECISION_MAKER_RULES: Mapping[str, str] = {
    "id": KEEP,
    "hotel_id": KEEP,
    "created_at": KEEP,
    "email_verified": OR,
    "sources": DISTINCT,
    "confidence": GREATEST,
    "updated_at": NOW,
}


def is_empty(value: Any) -> bool:
    """NULL-or-blank: None, "" (or whitespace), an empty list/tuple/set/dict."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        return len(value) == 0
    return False


def _now(now: datetime | None) -> datetime:
    return now if now is not None else datetime.now(UTC)


def _or(old: Any, new: Any) -> Any:
    if isinstance(old, bool) or isinstance(new, bool):
        return bool(old) or bool(new)
    return int(old or 0) | int(new or 0)


def _distinct(old: Any, new: Any) -> list:
    items = set()
    for value in (old, new):
        if is_empty(value):
            continue
        for item in ([value] if isinstance(value, str) else value):
            if not is_empty(item):
                items.add(item)
    return sorted(items, key=lambda v: (str(type(v)), v))


def _greatest(old: Any, new: Any) -> Any:
    values = [v for v in (old, new) if v is not None]
    return max(values) if values else None


def _merge_value(rule: str, old: Any, new: Any, present_old: bool, force_refresh: bool, now: datetime) -> Any:
    if rule == KEEP:
        return old if present_old and not is_empty(old) else new
    if rule == OR:
        return _or(old, new)
    if rule == DISTINCT:
        return _distinct(old, new)
    if rule == GREATEST:
        if force_refresh and new is not None:
            return new
        return _greatest(old, new)
    if rule == NOW:
        return now
    if force_refresh:
        return old if is_empty(new) else new
    return new if is_empty(old) else old


def _group_winner(old: Mapping[str, Any], new: Mapping[str, Any], conf_col: str, cols: Sequence[str],
                  force_refresh: bool) -> Mapping[str, Any]:
    if all(is_empty(new.get(c)) for c in cols):
        return old
    old_has = any(not is_empty(old.get(c)) for c in cols)
    if force_refresh or not old_has:
        return new
    old_conf, new_conf = old.get(conf_col), new.get(conf_col)
    if new_conf is not None and (old_conf is None or new_conf > old_conf):
        return new
    return old


def merge_enrichment(existing: Mapping[str, Any] | None, new: Mapping[str, Any], *, force_refresh: bool = False,
                     now: datetime | None = None, rules: Mapping[str, str] | None = None,
                     groups: Mapping[str, Sequence[str]] | None = None) -> dict[str, Any]:
    """The enrichment row after writing `new` over `existing` (None: a first insert)."""
    rules = {**ENRICHMENT_RULES, **(rules or {})}
    bad = set(rules.values()) - _RULES
    if bad:
        raise ValueError(f"unknown merge rules: {sorted(bad)}")
    groups = ENRICHMENT_GROUPS if groups is None else groups
    old = dict(existing or {})
    stamp = _now(now)
    out: dict[str, Any] = {}
    grouped: set[str] = set()
    for conf_col, cols in groups.items():
        members = (*cols, conf_col)
        if not any(c in old or c in new for c in members):
            continue
        winner = _group_winner(old, new, conf_col, cols, force_refresh)
        for c in members:
            if c in old or c in new:
                out[c] = winner.get(c)
            grouped.add(c)
    for key in dict.fromkeys([*old, *new]):
        if key in grouped:
            continue
        rule = rules.get(key, COALESCE)
        out[key] = _merge_value(rule, old.get(key), new.get(key), key in old, force_refresh, stamp)
    for key, rule in rules.items():
        if rule == NOW:
            out[key] = stamp
        elif key == "created_at" and existing is None and "created_at" not in out:
            out[key] = stamp
    return out


def changed_fields(before: Mapping[str, Any] | None, after: Mapping[str, Any],
                   ignore: Iterable[str] = ("updated_at",)) -> list[str]:
    """Columns whose value differs between two rows (for asset metadata: "what did this run add")."""
    before = before or {}
    skip = set(ignore)
    return [k for k in after if k not in skip and (k not in before or before[k] != after[k])]


# --- decision makers ---------------------------------------------------------------------------------

def _email(dm: Mapping[str, Any]) -> str:
    value = dm.get("email")
    return value.strip().lower() if isinstance(value, str) else ""


def same_decision_maker(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Same hotel and the same normalised name or the same e-mail (the seed's conflict key)."""
    if a.get("hotel_id") != b.get("hotel_id"):
        return False
    ka, kb = name_key(a.get("full_name")), name_key(b.get("full_name"))
    if ka and ka == kb:
        return True
    ea, eb = _email(a), _email(b)
    return bool(ea) and ea == eb


def merge_decision_maker(existing: Mapping[str, Any], incoming: Mapping[str, Any], *, force_refresh: bool = False,
                         now: datetime | None = None) -> dict[str, Any]:
    """One decision maker after the seed's ``ON CONFLICT ... DO UPDATE`` with `incoming`."""
    stamp = _now(now)
    old, new = dict(existing), dict(incoming)
    out: dict[str, Any] = {}
    for key in dict.fromkeys([*old, *new]):
        rule = DECISION_MAKER_RULES.get(key, COALESCE)
        out[key] = _merge_value(rule, old.get(key), new.get(key), key in old, force_refresh, stamp)
    old_conf, new_conf = old.get("confidence"), new.get("confidence")
    higher = new_conf is not None and (old_conf is None or new_conf > old_conf)
    # email: the seed's priority-aware rule
    if not is_empty(new.get("email")) and (higher or force_refresh or is_empty(old.get("email"))):
        out["email"] = new["email"]
    elif "email" in old or "email" in new:
        out["email"] = old.get("email") if not is_empty(old.get("email")) else new.get("email")
    # name: the fuller one (a surname beats a first name alone)
    old_name, new_name = old.get("full_name"), new.get("full_name")
    if not is_empty(new_name) and (is_empty(old_name) or (is_first_name_only(old_name)
                                                          and not is_first_name_only(new_name))):
        out["full_name"] = new_name
    elif not is_empty(old_name):
        out["full_name"] = old_name
    # title: the more specific one, ties to the more confident source
    old_title, new_title = old.get("title"), new.get("title")
    if not is_empty(new_title) and (is_empty(old_title) or force_refresh
                                    or title_rank(new_title) > title_rank(old_title)
                                    or (is_generic_title(old_title) and not is_generic_title(new_title))
                                    or (title_rank(new_title) == title_rank(old_title) and higher)):
        out["title"] = new_title
    elif "title" in old or "title" in new:
        out["title"] = old_title if not is_empty(old_title) else new_title
    if "first_name_only" in out:
        out["first_name_only"] = is_first_name_only(out.get("full_name"))
    out["updated_at"] = stamp
    return out


def _first(dm: Mapping[str, Any]) -> str:
    return split_name(dm.get("full_name"))[0]


def _match(rows: list[dict[str, Any]], dm: Mapping[str, Any]) -> int | None:
    same_hotel = [i for i, r in enumerate(rows) if r.get("hotel_id") == dm.get("hotel_id")]
    key = name_key(dm.get("full_name"))
    if key:
        for i in same_hotel:
            if name_key(rows[i].get("full_name")) == key:
                return i
    email = _email(dm)
    if email:
        for i in same_hotel:
            if _email(rows[i]) == email:
                return i
    first = _first(dm)
    if first:
        if is_first_name_only(dm.get("full_name")):
            cands = [i for i in same_hotel if _first(rows[i]) == first and not is_first_name_only(
                rows[i].get("full_name"))]
        else:
            cands = [i for i in same_hotel if _first(rows[i]) == first and is_first_name_only(
                rows[i].get("full_name"))]
            if cands and any(_first(r) == first and not is_first_name_only(r.get("full_name"))
                             for j, r in enumerate(rows) if j in same_hotel):
                cands = []  # another full name with that first name already: ambiguous
        if len(cands) == 1:
            return cands[0]
    return None


def find_match(rows: Sequence[Mapping[str, Any]], dm: Mapping[str, Any]) -> int | None:
    """The index in `rows` of the decision maker `dm` merges into (None: a new person)."""
    return _match([dict(r) for r in rows], dm)


def upsert_decision_makers(existing: Iterable[Mapping[str, Any]], incoming: Iterable[Mapping[str, Any]], *,
                           force_refresh: bool = False, now: datetime | None = None) -> list[dict[str, Any]]:
    """`existing` rows with every `incoming` row merged into its match or appended (in order).
    Incoming rows matching each other are merged too, so a batch may repeat a person."""
    stamp = _now(now)
    rows = [dict(r) for r in existing]
    for dm in incoming:
        i = _match(rows, dm)
        if i is None:
            row = dict(dm)
            if "sources" in row:
                row["sources"] = _distinct([], row["sources"])
            row.setdefault("created_at", stamp)
            row["updated_at"] = stamp
            rows.append(row)
        else:
            rows[i] = merge_decision_maker(rows[i], dm, force_refresh=force_refresh, now=stamp)
    return rows
