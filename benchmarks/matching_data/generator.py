"""The two guides: which guide lists each place, moves, the records in each guide's style with
the divergence classes, ids, the truth and the hard-negative pairs; writing them as CSV."""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import sys
import time

from .common import B_ID_BASE, COLUMNS, Guides, Place, fold_accents, hash_seed
from .divergences import MOVE_RATE, apply_classes, pair_divergences
from .metros import METROS
from .places import Builder
from .render import STYLE_A, STYLE_B, render


class Generator(Builder):
    def assign_guides(self, places: list[Place], rng: random.Random) -> None:
        """A metro-level share of places in both guides; the rest in one guide, half each."""
        for p in places:
            x = rng.random()
            both = self.both_share[p.metro]
            p.in_a = x < both or x >= both + (1 - both) / 2
            p.in_b = x < both + (1 - both) / 2

    def add_other_directionals(self) -> None:
        """Hard negatives on the two halves of one street, from a stream of their own (placed after
        the others, so that they shift nothing else)."""
        us = [m for m in self.metros if METROS[m][3] == "US"]
        if not us:
            return
        rng = random.Random(hash_seed(self.rng_seed, "other_directional"))
        added = []
        for _ in range(max(1, round(self.n * 0.004))):
            m = rng.choices(us, [METROS[k][6] for k in us])[0]
            d = rng.choices(range(len(METROS[m][10])), [x[4] for x in METROS[m][10]])[0]
            added += self.add_other_directional(m, d, rng)
        self.assign_guides(added, rng)

    def move(self, p: Place, rng: random.Random) -> Place:
        """Where a moved place was: the same metro, another number and street (or the same street),
        sometimes another district."""
        m, d = p.metro, p.district
        x = rng.random()
        if x < 0.25:
            street = p.street
        else:
            if x > 0.75 and len(METROS[m][10]) > 1:
                d = rng.randrange(len(METROS[m][10]))
            street = self.pick_street(m, d, rng)
        number = self.number(street, rng)
        while number == p.number:
            number = self.number(street, rng)
        lat, lng = self.coords(street, number)
        return p.copy(district=d, street=street, number=number, zip=self.zip_for(m, d, street, number), lat=lat,
                      lng=lng, suite=None, building=None)

    def moves(self) -> dict[int, tuple[int, Place]]:
        """pid -> (the guide that lists the old address, the place there), for about 1.5 % of the
        places in both guides."""
        out = {}
        for p in self.places:
            rng = self.streams.draw("move", MOVE_RATE if p.in_a and p.in_b else 0.0)
            if rng is not None:
                p.moved = True
                out[p.pid] = (rng.randrange(2), self.move(p, rng))
        return out

    def render_all(self, moved: dict[int, tuple[int, Place]]) -> tuple[list, list]:
        rows_a, rows_b = [], []
        for p in self.places:
            for side, listed, style, rows in ((0, p.in_a, STYLE_A, rows_a), (1, p.in_b, STYLE_B, rows_b)):
                if not listed:
                    continue
                shown = moved[p.pid][1] if p.pid in moved and moved[p.pid][0] == side else p
                draft = render(shown, style, self.rng)
                apply_classes(draft, shown, side, self.streams, self)
                rows.append((p, draft.row(), draft))
        return rows_a, rows_b

    def run(self) -> Guides:
        self.build()
        self.both_share = [self.rng.uniform(0.27, 0.40) for _ in METROS]
        self.assign_guides(self.places, self.rng)
        self.add_other_directionals()
        moved = self.moves()
        rows_a, rows_b = self.render_all(moved)
        self.rng.shuffle(rows_a)
        self.rng.shuffle(rows_b)
        id_a, id_b = {}, {}
        for base, rows, ids in ((0, rows_a, id_a), (B_ID_BASE, rows_b, id_b)):
            for k, (p, row, _) in enumerate(rows, 1):
                row["id"] = base + k
                ids[p.pid] = base + k
        trace_a = {p.pid: (row, draft) for p, row, draft in rows_a}
        truth, divergences = [], {}
        for p, row, draft in rows_b:
            if p.pid in trace_a:
                truth.append((id_a[p.pid], row["id"]))
                row_a, draft_a = trace_a[p.pid]
                divergences[row["id"]] = pair_divergences(row_a, draft_a, row, draft, p.pid in moved)
        truth.sort()
        return Guides([r for _, r, _ in rows_a], [r for _, r, _ in rows_b], truth, divergences,
                      self.hard_negative_pairs(id_a, id_b))

    def hard_negative_pairs(self, id_a: dict[int, int], id_b: dict[int, int]) -> list[tuple[int, int, str]]:
        members: dict[int, list[Place]] = {}
        for p in self.places:
            if p.group is not None:
                members.setdefault(p.group, []).append(p)
        pairs = []
        for group in sorted(members):
            ps = members[group]
            pairs += [(id_a[p.pid], id_b[q.pid], ps[0].group_kind) for p in ps if p.pid in id_a
                      for q in ps if q is not p and q.pid in id_b]
        # unrelated places of one name in one metro (not outlets of one chain)
        by_name: dict[tuple[int, str], list[Place]] = {}
        for p in self.places:
            if p.chain is None:
                by_name.setdefault((p.metro, fold_accents(p.name).lower()), []).append(p)
        for key in sorted(by_name):
            ps = by_name[key]
            pairs += [(id_a[p.pid], id_b[q.pid], "same_name") for p in ps if len(ps) > 1 and p.pid in id_a
                      for q in ps if q is not p and q.pid in id_b and (p.group is None or p.group != q.group)]
        pairs.sort()
        return pairs


def generate(n: int = 100_000, seed: int = 7, metros: list[str] | None = None) -> Guides:
    """Two guides of about n records together (see the package docstring); metros: the names of the
    metros to keep (a small DMO covers one), all of them by default."""
    keep = None if metros is None else [k for k, m in enumerate(METROS) if m[0] in metros]
    return Generator(n, seed, keep).run()


def write(guides: Guides, out: str) -> None:
    os.makedirs(out, exist_ok=True)
    for name, rows in (("guide_a.csv", guides.a), ("guide_b.csv", guides.b)):
        with open(os.path.join(out, name), "w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, COLUMNS)
            writer.writeheader()
            writer.writerows(rows)
    with open(os.path.join(out, "truth.csv"), "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id_a", "id_b", "divergences"])
        for id_a, id_b in guides.truth:
            writer.writerow([id_a, id_b, " ".join(guides.divergences[id_b])])
    with open(os.path.join(out, "hard_negatives.csv"), "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id_a", "id_b", "kind"])
        writer.writerows(guides.hard_negatives)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Two synthetic DMO guides with the truth")
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--metro", action="append", help="keep only this metro (repeatable): a small DMO")
    parser.add_argument("--out", required=True, help="directory for guide_a.csv, guide_b.csv, truth.csv, "
                                                     "hard_negatives.csv")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    guides = generate(args.n, args.seed, args.metro)
    write(guides, args.out)
    print(json.dumps({"a": len(guides.a), "b": len(guides.b), "truth": len(guides.truth),
                      "hard_negatives": len(guides.hard_negatives),
                      "seconds": round(time.perf_counter() - started, 2)}), file=sys.stderr)
    return 0
