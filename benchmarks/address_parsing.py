"""Street-line parsing benchmark: the own parser (core/places/address.py) against usaddress, on
labelled pairs of street lines, one set per real-world divergence class
(/work/shared/real-world-divergences.md and issue 29).

    python benchmarks/address_parsing.py [--pairs 200] [--seed 29] [--repeat 3]

Data: generated here with its own randomness (seeded): streets, numbers, notes after the street,
building and mall names, type spellings, ordinals in words, directionals in one source, typing
errors in street words and house numbers, units, European and Canadian forms; and different-street
negatives (another street, another directional, Peachtree Rd / Peachtree St, neighbouring numbers,
look-alike names). Whitespace runs are collapsed, as the transform does before matching.

Parsers, each giving core.places.address.Street fields (normalised alike by address.street_of, so
that they differ only in how they read the line):
  own        address.parse_street
  usaddress  usaddress.tag (usaddress.parse on RepeatedLabelError), tags mapped to the fields
  pre+usa    usaddress behind the own parser's note cutting (address.cut_notes)
  scourgify  usaddress-scourgify's normalisation (pre_clean_addr_str, parse_address_string,
             normalize_address_components: what normalize_address_record does before it formats
             the lines); where it raises (ambiguous, unparseable) the line has no street

A pair is judged by streets.same_street and the house numbers: "same" when the street level is
>= 2 and the numbers are equal, "typo_number" when they are number_close only, else "different";
correct when that is the pair's label. Cost: microseconds per record (timeit, best of --repeat),
per class and over the common shapes, in this one process.

Prints a table, then one JSON line {"benchmark": "address_parsing", ...}."""

from __future__ import annotations

import argparse
import json
import random
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

try:  # the peers: pip install usaddress usaddress-scourgify (not dependencies of the project)
    import usaddress
except ImportError:
    usaddress = None
try:
    from scourgify.normalize import normalize_address_components, parse_address_string, pre_clean_addr_str
except ImportError:
    normalize_address_components = None

from sadie_pipeline.core.places.address import EMPTY, Street, cut_notes, parse_street, street_of  # noqa: E402
from sadie_pipeline.core.places.streets import number_close, same_street  # noqa: E402

NAMES = ["peachtree", "piedmont", "courtland", "harris", "jane", "hudson", "harrison", "water", "sunset", "paradise",
         "main", "oak", "maple", "riverside", "lexington", "madison", "spring", "magnolia", "washington", "jefferson",
         "franklin", "lincoln", "highland", "monroe", "cedar", "walnut", "chestnut", "market", "mission", "valencia",
         "wilshire", "melrose", "fairfax", "ventura", "colorado", "delaware", "ponce de leon", "lake shore",
         "martin luther king jr", "northside", "west end", "canal", "bourbon", "royal", "decatur", "college"]
TYPELESS = ["broadway", "bowery", "the embarcadero", "the strand"]
TYPES = {"street": ["St", "St.", "Street"], "avenue": ["Ave", "Ave.", "Avenue", "Av."],
         "boulevard": ["Blvd", "Blvd.", "Blv.", "Boulevard"], "road": ["Rd", "Rd.", "Road"],
         "drive": ["Dr", "Dr.", "Drive"], "lane": ["Ln", "Ln.", "La.", "Lane"], "parkway": ["Pkwy", "Pkwy.", "Parkway"],
         "place": ["Pl", "Pl.", "Place"], "court": ["Ct", "Ct.", "Court"], "way": ["Way"]}
DIRS = {"n": ["N", "N.", "North"], "s": ["S", "S.", "South"], "e": ["E", "E.", "East"], "w": ["W", "W.", "West"],
        "ne": ["NE", "N.E.", "Northeast"], "nw": ["NW", "N.W."], "se": ["SE", "S.E."], "sw": ["SW", "S.W."]}
OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e", "ne": "sw", "sw": "ne", "nw": "se", "se": "nw"}
LANDMARKS = ["the east river", "central park", "union square", "the convention center", "city hall", "the pier",
             "neiman marcus", "the train station", "the old courthouse"]
BUILDINGS = ["Lenox Square Mall", "Peachtree Square Shopping Center", "Peachtree House Condominium", "Rio Shopping Mall",
             "Phipps Plaza", "Colony Square", "Tower Place", "the Flatiron Building", "Market Square Shopping Center",
             "One Atlantic Center", "Galleria Mall", "Hotel Lobby", "Ground Level of the Marriott"]
UNITS = ["#8", "# 12", "Suite 4", "Ste. 200", "2nd Floor", "Unit B", "Apt 3C", "Rm 101", "Fl 3"]
SAINTS = ["charles", "marks", "clair", "paul", "louis", "james", "johns", "andrews"]
SPACED = [("northpoint", "north point"), ("lakeshore", "lake shore"), ("southpark", "south park"),
          ("riverwalk", "river walk"), ("oakridge", "oak ridge"), ("westlake", "west lake")]
LOOKALIKES = [("madison", "addison"), ("grant", "grand"), ("pine", "vine"), ("hill", "mill"), ("lake", "blake"),
              ("elm", "ely"), ("hudson", "judson")]
UNITS_WORDS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen " \
              "sixteen seventeen eighteen nineteen".split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
ORD = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth", "nine": "ninth",
       "twelve": "twelfth"}
Pair = tuple[str, str, str]  # (line a, line b, label: same / typo_number / different)


# --- generation -----------------------------------------------------------------------------------

def ordinal_words(n: int) -> str:
    words = []
    if n >= 100:
        words += [UNITS_WORDS[n // 100], "hundred"]
        n %= 100
    if n >= 20:
        words.append(TENS[n // 10])
        n %= 10
    if n:
        words.append(UNITS_WORDS[n])
    last = words[-1]
    last = ORD.get(last) or (last[:-1] + "ieth" if last.endswith("y") else last + "th")
    text = " ".join(words[:-1] + [last])
    return text.replace("ty ", "ty-") if " " in text and "hundred" not in text else text


def ordinal_digits(n: int) -> str:
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def house(rng: random.Random) -> str:
    return str(rng.choice([rng.randint(1, 99), rng.randint(100, 999), rng.randint(1000, 12999)]))


def line(number: str, name: str, kind: str | None, rng: random.Random, predir: str = "", postdir: str = "") -> str:
    parts = [number, rng.choice(DIRS[predir]) if predir else "", name.title(),
             rng.choice(TYPES[kind]) if kind else "", rng.choice(DIRS[postdir]) if postdir else ""]
    return " ".join(p for p in parts if p)


def style(rng: random.Random, text: str) -> str:
    """Case as sources write it, whitespace collapsed as the transform does."""
    text = rng.choice([text, text, text.lower(), text.upper()])
    return " ".join(text.split())


def street(rng: random.Random) -> tuple[str, str | None]:
    if rng.random() < 0.08:
        return rng.choice(TYPELESS), None
    return rng.choice(NAMES), rng.choice(list(TYPES))


def note(rng: random.Random) -> str:
    x, y = rng.sample(NAMES, 2)
    return rng.choice([f"between {x} st. and {y} ave.", f"between {x} and {y} sts.", f"at {x} st.", f"near {x} ave.",
                       f"off {x} rd.", f"corner of {x} st.", f"across from {rng.choice(LANDMARKS)}",
                       f"at {rng.choice(LANDMARKS)}", f"({x} & {y})", f"near {rng.choice(LANDMARKS)}"])


def typo(rng: random.Random, word: str, edits: int = 1) -> str:
    for _ in range(edits):
        k = rng.randrange(1, len(word) - 1)
        op = rng.choice("swap drop double insert replace".split())
        letter = rng.choice("abcdefghijklmnopqrstuvwxyz")
        word = {"swap": word[:k] + word[k + 1] + word[k] + word[k + 2:], "drop": word[:k] + word[k + 1:],
                "double": word[:k] + word[k] + word[k:], "insert": word[:k] + letter + word[k:],
                "replace": word[:k] + letter + word[k + 1:]}[op]
    return word


def number_typo(rng: random.Random, number: str) -> str:
    while True:
        k = rng.randrange(len(number))
        op = rng.choice(["digit", "letter", "drop", "swap"] if len(number) > 2 else ["digit", "letter"])
        if op == "digit":
            out = number[:k] + rng.choice("0123456789") + number[k + 1:]
        elif op == "letter":
            out = number[:k] + rng.choice("abolsz") + number[k + 1:]
        elif op == "drop":
            out = number[:k] + number[k + 1:]
        else:
            k = min(k, len(number) - 2)
            out = number[:k] + number[k + 1] + number[k] + number[k + 2:]
        if out != number and out[0] != "0" and out[0].isdigit():
            return out


def _gen_positive(kind: str, rng: random.Random) -> tuple[str, str]:
    n, (name, t) = house(rng), street(rng)
    base = line(n, name, t, rng)
    if kind == "plain":
        return base, line(n, name, t, rng)
    if kind == "note":
        return base, f"{line(n, name, t, rng)} {note(rng)}"
    if kind == "building":
        b = rng.choice(BUILDINGS)
        return base, rng.choice([f"{line(n, name, t, rng)} {b}", f"{line(n, name, t, rng)} {b} near "
                                 f"{rng.choice(LANDMARKS)}", f"{b}, {line(n, name, t, rng)}"])
    if kind == "st_street":
        x, saint = rng.choice(NAMES), rng.choice(SAINTS)
        tail = rng.choice(["", f" at {x} st.", f" between {x} and {rng.choice(NAMES)} sts.", f" & {x} st."])
        if rng.random() < 0.5:
            return f"{n} {name.title()} St.{tail}", f"{n} {name.title()} Street"
        t2 = rng.choice(["avenue", "street", "place", "road"])
        return f"{n} {rng.choice(['St', 'St.'])} {saint.title()} {rng.choice(TYPES[t2])}", \
            f"{n} Saint {saint.title()} {rng.choice(TYPES[t2])}"
    if kind == "type_spelling":
        t = t or "street"
        if rng.random() < 0.25:
            glued, spaced = rng.choice(SPACED)
            return f"{n} {glued.title()}", line(n, spaced, t, rng)
        other = line(n, name, None if rng.random() < 0.3 else t, rng)
        return f"{n} {name.title()} {rng.choice(TYPES[t])}", other
    if kind == "ordinal":
        k = rng.choice([rng.randint(1, 12), rng.randint(13, 99), rng.randint(100, 199)])
        t = rng.choice(["street", "avenue"])
        return line(n, ordinal_words(k), t, rng), line(n, ordinal_digits(k), t, rng)
    if kind == "directional_one_side":
        d = rng.choice(list(DIRS))
        where = rng.choice(["predir", "postdir"])
        return line(n, name, t, rng, **{where: d}), base
    if kind == "street_typo":
        long = [w for w in name.split() if len(w) >= 5]
        if long and rng.random() < 0.7:
            w = rng.choice(long)
            bad = typo(rng, w, 2 if len(name.replace(" ", "")) >= 8 and rng.random() < 0.3 else 1)
            return base, line(n, name.replace(w, bad, 1), t, rng)
        t2 = rng.choice(["boulevard", "parkway", "avenue", "street"])
        return f"{n} {name.title()} {typo(rng, t2.title())}", line(n, name, t2, rng)
    raise KeyError(kind)


def _gen_more(kind: str, rng: random.Random) -> Pair:
    n, (name, t) = house(rng), street(rng)
    base = line(n, name, t, rng)
    if kind == "number_typo":
        return base, line(number_typo(rng, n), name, t, rng), "typo_number"
    if kind == "number_unit":
        form = rng.random()
        if form < 0.2:
            letter = rng.choice("abcd")
            return line(f"{n}-{letter}", name, t, rng), line(f"{n}{letter.upper()}", name, t, rng), "same"
        if form < 0.3:
            return line(f"{n}-{int(n) + 2}", name, t, rng), line(f"{n} - {int(n) + 2}", name, t, rng), "same"
        if form < 0.4:
            return line(f"{n} 1/2", name, t, rng), line(f"{n} ½", name, t, rng), "same"
        unit = rng.choice(UNITS)
        return base, rng.choice([f"{line(n, name, t, rng)} {unit}", f"{line(n, name, t, rng)}, {unit}"]), "same"
    if kind == "european":
        return (*_european(rng, n), "same")
    if kind == "other_street":
        other = rng.choice([x for x in NAMES if x != name])
        return base, line(n, other, t, rng), "different"
    if kind == "other_direction":
        d = rng.choice(list(DIRS))
        name = rng.choice([name, ordinal_digits(rng.randint(1, 120))])
        return line(n, name, t, rng, predir=d), line(n, name, t, rng, predir=OPPOSITE[d]), "different"
    if kind == "other_type":
        t1, t2 = rng.sample(["street", "road", "avenue", "drive", "boulevard", "lane"], 2)
        return line(n, name, t1, rng), line(n, name, t2, rng), "different"
    if kind == "neighbour_number":
        other = str(int(n) + 1000)  # when every neighbour is a keystroke away ("5" / "15")
        for _ in range(20):
            near = str(max(1, int(n) + rng.choice([-1, 1]) * rng.randint(10, 60)))
            if not number_close(near, n):
                other = near
                break
        return base, line(other, name, t, rng), "different"
    if kind == "lookalike_name":
        if rng.random() < 0.5:
            a, b = rng.choice(LOOKALIKES)
        else:
            k = rng.randint(1, 150)
            a, b = ordinal_digits(k), ordinal_digits(k + rng.choice([1, 2, 10]))
        t = t or "street"
        return line(n, a, t, rng), line(n, b, t, rng), "different"
    return (*_gen_positive(kind, rng), "same")


def _european(rng: random.Random, n: str) -> tuple[str, str]:
    x = rng.choice(["oranien", "friedrich", "linden", "kastanien", "schiller", "goethe"])
    es = rng.choice(["Verdi", "Mallorca", "Aribau", "Provença", "Balmes"])
    fr = rng.choice(["Laurier", "du Parc", "des Pins", "Mont-Royal"])
    saint = rng.choice(["Jean", "Denis", "Paul", "Laurent", "Catherine"])
    return rng.choice([
        (f"{x.title()}straße {n}", rng.choice([f"{x.title()}str. {n}", f"{x.title()}strasse {n}"])),
        (f"Carrer de {es}, {n}", rng.choice([f"C/ de {es}, {n}", f"Calle {es} {n}", f"carrer {es} {n}"])),
        (f"{n}, Avenue {fr}", rng.choice([f"{n} av. {fr}", f"{n} avenue {fr}"])),
        (f"{n} rue Saint-{saint}", rng.choice([f"{n} rue St-{saint}", f"{n}, rue Saint-{saint}"])),
        (f"{n} boulevard Saint-{saint}", f"{n} boul. St-{saint}"),
    ])


POSITIVE = ["plain", "note", "building", "st_street", "type_spelling", "ordinal", "directional_one_side",
            "street_typo", "number_typo", "number_unit", "european"]
NEGATIVE = ["other_street", "other_direction", "other_type", "neighbour_number", "lookalike_name"]
COMMON = ["plain", "type_spelling", "directional_one_side", "number_unit"]


def generate(pairs: int, seed: int) -> dict[str, list[Pair]]:
    rng = random.Random(seed)
    out = {}
    for kind in POSITIVE + NEGATIVE:
        out[kind] = [(style(rng, a), style(rng, b), label) for a, b, label in
                     (_gen_more(kind, rng) for _ in range(pairs))]
    return out


# --- parsers --------------------------------------------------------------------------------------
_NUMBER = ("AddressNumberPrefix", "AddressNumber", "AddressNumberSuffix")
_NAME = ("StreetNamePreModifier", "StreetName", "StreetNamePostModifier")
_UNIT = ("OccupancyType", "OccupancyIdentifier", "SubaddressType", "SubaddressIdentifier", "USPSBoxType", "USPSBoxID")
_STREET = frozenset((*_NUMBER, *_NAME, *_UNIT, "StreetNamePreDirectional", "StreetNamePostDirectional",
                     "StreetNamePreType", "StreetNamePostType"))


def from_tags(tags: dict[str, str]) -> Street:
    """usaddress's labels as Street fields; what is not a street field (building, landmark,
    intersection, second street, place) is the note."""
    def get(keys: tuple[str, ...]) -> str:
        return " ".join(tags[k] for k in keys if k in tags)
    pre, post = tags.get("StreetNamePreType", ""), tags.get("StreetNamePostType", "")
    name = get(_NAME)
    if pre and post:  # "Avenue of the Americas Rd": the first type is a name word
        name = f"{pre} {name}"
    note = " ".join(v for k, v in tags.items() if k not in _STREET)
    return street_of(get(_NUMBER), tags.get("StreetNamePreDirectional", ""), name, post or pre,
                     tags.get("StreetNamePostDirectional", ""), get(_UNIT), note, pre_type=bool(pre and not post))


def usaddress_street(text: str) -> Street:
    if not text:
        return EMPTY
    try:
        tags = usaddress.tag(text)[0]
    except usaddress.RepeatedLabelError:  # the first run of each label; the repeats are notes
        tags, seen, last = {}, set(), None
        for token, label in usaddress.parse(text):
            if label != last and label in seen:
                label = "Repeated"
            seen.add(label)
            tags[label] = f"{tags[label]} {token}" if label in tags else token
            last = label
    return from_tags(tags)


def prepass_street(text: str) -> Street:
    street, cut = cut_notes(text)
    found = usaddress_street(street)
    return found._replace(note=", ".join(filter(None, (found.note, cut)))) if cut else found


def scourgify_street(text: str) -> Street:
    try:
        return from_tags(dict(normalize_address_components(parse_address_string(pre_clean_addr_str(text)))))
    except Exception:  # AmbiguousAddressError, RepeatedLabelError, UnParseableAddressError: not applicable
        return EMPTY


PARSERS: dict[str, Callable[[str], Street]] = {"own": parse_street}
if usaddress is not None:
    PARSERS |= {"usaddress": usaddress_street, "pre+usa": prepass_street}
if usaddress is not None and normalize_address_components is not None:
    PARSERS["scourgify"] = scourgify_street


# --- measurement ----------------------------------------------------------------------------------

def verdict(a: Street, b: Street) -> str:
    if same_street(a, b) < 2 or not a.number or not b.number:
        return "different"
    if a.number == b.number:
        return "same"
    return "typo_number" if number_close(a.number, b.number) else "different"


def accuracy(parse: Callable[[str], Street], pairs: list[Pair]) -> tuple[float, list[Pair]]:
    wrong = [(a, b, label) for a, b, label in pairs if verdict(parse(a), parse(b)) != label]
    return 1 - len(wrong) / len(pairs), wrong


def micros(parse: Callable[[str], Street], records: list[str], repeat: int) -> float:
    runs = timeit.repeat(lambda: [parse(r) for r in records], number=1, repeat=repeat)
    return min(runs) / len(records) * 1e6


def measure(data: dict[str, list[Pair]], repeat: int) -> dict[str, dict[str, dict[str, float]]]:
    results: dict[str, dict[str, dict[str, float]]] = {}
    for name, parse in PARSERS.items():
        parse("100 Main St")  # imports and model loading outside the timing
        per_class = {}
        for kind, pairs in data.items():
            share, _ = accuracy(parse, pairs)
            records = [r for a, b, _ in pairs for r in (a, b)]
            per_class[kind] = {"correct": round(share, 3), "us": round(micros(parse, records, repeat), 1)}
        common = [r for kind in COMMON for a, b, _ in data[kind] for r in (a, b)]
        everything = [r for pairs in data.values() for a, b, _ in pairs for r in (a, b)]
        per_class["common_shapes"] = {"correct": _mean(per_class, COMMON), "us": round(micros(parse, common, repeat), 1)}
        per_class["all"] = {"correct": _mean(per_class, list(data)), "us": round(micros(parse, everything, repeat), 1),
                            "with_street": round(sum(bool(parse(r).name) for r in everything) / len(everything), 3)}
        results[name] = per_class
    return results


def _mean(per_class: dict[str, dict[str, float]], kinds: list[str]) -> float:
    return round(sum(per_class[k]["correct"] for k in kinds) / len(kinds), 3)


def table(results: dict[str, dict[str, dict[str, float]]]) -> str:
    names = list(results)
    rows = [f"{'class':<22}" + "".join(f"{n:>20}" for n in names),
            f"{'':<22}" + "".join(f"{'correct    us/rec':>20}" for _ in names)]
    for kind in results[names[0]]:
        rows.append(f"{kind:<22}" + "".join(
            f"{results[n][kind]['correct']:>11.1%}{results[n][kind]['us']:>9.1f}" for n in names))
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=200, help="labelled pairs per class")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--repeat", type=int, default=3, help="timeit runs per class (the best counts)")
    parser.add_argument("--show-errors", type=int, default=0, metavar="K", help="print K misjudged pairs per class "
                                                                                 "of the own parser")
    args = parser.parse_args(argv)
    data = generate(args.pairs, args.seed)
    results = measure(data, args.repeat)
    print(f"{args.pairs} pairs per class, seed {args.seed}; labels: positives {', '.join(POSITIVE)}; "
          f"negatives {', '.join(NEGATIVE)}")
    print(table(results))
    print("records given a street name: " + ", ".join(f"{n} {r['all']['with_street']:.1%}" for n, r in results.items()))
    if len(PARSERS) < 4:
        print("usaddress or usaddress-scourgify not installed: their columns are left out")
    for kind, pairs in data.items():
        for a, b, label in accuracy(parse_street, pairs)[1][:args.show_errors]:
            print(f"  own wrong [{kind}] {label}: {a!r} / {b!r}\n    {tuple(parse_street(a))}\n    {tuple(parse_street(b))}")
    print(json.dumps({"benchmark": "address_parsing", "pairs_per_class": args.pairs, "seed": args.seed,
                      "metrics": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
