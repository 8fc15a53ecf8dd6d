"""The controlled category vocabulary (seed 002): every source's categories become one of these
values, `group` or `group.subtype`, so that hotel discovery and attraction proximity read the
category and not free text. A DMO's `transform.category_map` maps its own values first; the
default synonyms below map the common ones; a value neither knows stays as given (lowercased) and
is counted as unmapped, so a person can add it to the map and re-stage."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from enum import StrEnum


class CategoryGroup(StrEnum):
    LODGING = "lodging"
    ATTRACTION = "attraction"
    RESTAURANT = "restaurant"
    EVENT = "event"
    ACTIVITY = "activity"
    SHOP = "shop"
    SERVICE = "service"


SUBTYPES: dict[CategoryGroup, tuple[str, ...]] = {
    CategoryGroup.LODGING: ("hotel", "motel", "inn", "resort", "bed_and_breakfast", "hostel", "lodge",
                            "campground", "vacation_rental", "cabin"),
    CategoryGroup.ATTRACTION: ("museum", "gallery", "park", "beach", "garden", "zoo", "aquarium", "landmark",
                               "historic_site", "theater", "winery", "amusement_park", "farm", "marina"),
    CategoryGroup.RESTAURANT: ("cafe", "bar", "brewery", "bakery", "ice_cream"),
    CategoryGroup.EVENT: ("festival", "concert"),
    CategoryGroup.ACTIVITY: ("tour", "golf", "spa", "outdoor", "sports"),
    CategoryGroup.SHOP: ("market", "mall", "antiques"),
    CategoryGroup.SERVICE: ("visitor_center", "transportation"),
}

VOCABULARY: frozenset[str] = frozenset(
    [g.value for g in CategoryGroup] + [f"{g.value}.{s}" for g, subs in SUBTYPES.items() for s in subs])

# Words and phrases of source categories, most specific first: the first one found in a value
# decides ("Boutique hotel" is a hotel, "Art museum" a museum, "Hotel restaurant" a hotel).
DEFAULT_SYNONYMS: tuple[tuple[str, str], ...] = (
    ("rental agency", "service"), ("property management", "service"), ("real estate", "service"),
    ("travel agency", "service"), ("bed and breakfast", "lodging.bed_and_breakfast"), ("b and b", "lodging.bed_and_breakfast"),
    ("bnb", "lodging.bed_and_breakfast"), ("guest house", "lodging.inn"), ("guesthouse", "lodging.inn"),
    ("vacation rental", "lodging.vacation_rental"), ("vacation home", "lodging.vacation_rental"),
    ("holiday home", "lodging.vacation_rental"), ("cottage", "lodging.vacation_rental"),
    ("rv park", "lodging.campground"), ("campground", "lodging.campground"), ("camping", "lodging.campground"),
    ("amusement park", "attraction.amusement_park"), ("theme park", "attraction.amusement_park"),
    ("water park", "attraction.amusement_park"), ("adventure park", "attraction.amusement_park"),
    ("historic site", "attraction.historic_site"), ("historic", "attraction.historic_site"),
    ("visitor center", "service.visitor_center"), ("visitor centre", "service.visitor_center"),
    ("nature center", "attraction.park"), ("shopping mall", "shop.mall"), ("ice cream", "restaurant.ice_cream"),
    ("hotel", "lodging.hotel"), ("suites", "lodging.hotel"), ("motel", "lodging.motel"), ("inn", "lodging.inn"),
    ("resort", "lodging.resort"), ("hostel", "lodging.hostel"), ("lodge", "lodging.lodge"),
    ("cabin", "lodging.cabin"), ("lodging", "lodging"), ("accommodation", "lodging"),
    ("museum", "attraction.museum"), ("gallery", "attraction.gallery"), ("galleries", "attraction.gallery"), ("garden", "attraction.garden"),
    ("zoo", "attraction.zoo"), ("aquarium", "attraction.aquarium"), ("beach", "attraction.beach"),
    ("park", "attraction.park"), ("lighthouse", "attraction.landmark"), ("landmark", "attraction.landmark"),
    ("monument", "attraction.landmark"), ("theater", "attraction.theater"), ("theatre", "attraction.theater"),
    ("winery", "attraction.winery"), ("vineyard", "attraction.winery"), ("farm", "attraction.farm"),
    ("marina", "attraction.marina"), ("attraction", "attraction"), ("sightseeing", "attraction"),
    ("brewery", "restaurant.brewery"), ("brewpub", "restaurant.brewery"), ("distillery", "restaurant.brewery"),
    ("cafe", "restaurant.cafe"), ("coffee", "restaurant.cafe"), ("bakery", "restaurant.bakery"),
    ("bar", "restaurant.bar"), ("pub", "restaurant.bar"), ("tavern", "restaurant.bar"),
    ("restaurant", "restaurant"), ("dining", "restaurant"), ("food", "restaurant"), ("eatery", "restaurant"),
    ("festival", "event.festival"), ("concert", "event.concert"), ("event", "event"),
    ("tour", "activity.tour"), ("golf", "activity.golf"), ("spa", "activity.spa"), ("hiking", "activity.outdoor"),
    ("kayak", "activity.outdoor"), ("fishing", "activity.outdoor"), ("outdoor", "activity.outdoor"),
    ("sport", "activity.sports"), ("activity", "activity"), ("activities", "activity"), ("recreation", "activity"),
    ("market", "shop.market"), ("mall", "shop.mall"), ("antique", "shop.antiques"), ("shopping", "shop"), ("shop", "shop"),
    ("store", "shop"), ("boutique", "shop"), ("retail", "shop"), ("transport", "service.transportation"), ("transportation", "service.transportation"),
)

_WORDS = re.compile(r"[^a-z0-9]+")


def category_text(value: str) -> str:
    """A source category as words: folded, lowercased, "&" as "and" ("Bed & Breakfast" ->
    "bed and breakfast")."""
    folded = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode().lower().replace("&", " and ")
    return " ".join(_WORDS.split(folded)).strip()


def _synonym_patterns(synonyms: tuple[tuple[str, str], ...]) -> list[tuple[re.Pattern[str], str]]:
    # whole words, plurals included ("hotels"): "inn" matches neither "dinner" nor "innovation"
    return [(re.compile(rf"\b{re.escape(word)}(?:s|es)?\b"), value) for word, value in synonyms]


_DEFAULTS = _synonym_patterns(DEFAULT_SYNONYMS)


class CategoryMapper:
    """Built once per job from the config's `category_map` (source value -> vocabulary value,
    validated by the config), applied to every record."""

    def __init__(self, category_map: Mapping[str, str] | None = None):
        self.own = {category_text(k): v for k, v in (category_map or {}).items()}
        # A source spells its categories a few dozen ways across thousands of records: each spelling
        # is mapped once (the synonym patterns cost ~50 us a record). Bounded for free-text columns.
        self._seen: dict[str, str | None] = {}

    def __call__(self, value: str | None) -> str | None:
        """The vocabulary value of a source category; the value lowercased when nothing maps it."""
        if value is None:
            return None
        key = str(value)
        if key in self._seen:
            return self._seen[key]
        mapped = self._map(key)
        if len(self._seen) < 10_000:
            self._seen[key] = mapped
        return mapped

    def _map(self, value: str) -> str | None:
        if not value.strip():
            return None
        text = category_text(value)
        if text in self.own:
            return self.own[text]
        for spelled in (text.replace(" ", "."), text.replace(" ", "_")):  # "lodging.hotel", "vacation_rental"
            if spelled in VOCABULARY:
                return spelled
        for pattern, mapped in _DEFAULTS:
            if pattern.search(text):
                return mapped
        return value.strip().lower()


def is_known(category: str | None) -> bool:
    return category in VOCABULARY


def group_of(category: str | None) -> str | None:
    """The vocabulary group of a category ("lodging" for "lodging.hotel"); None when unmapped."""
    return category.split(".", 1)[0] if category in VOCABULARY else None
