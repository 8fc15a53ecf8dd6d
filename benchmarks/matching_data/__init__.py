"""Two synthetic DMO guides of the same cities (restaurants, cafés, bars, shops, hotels, sights),
with the truth, for the place-matching quality benchmark (``benchmarks/matching_quality.py``).

Written apart from the matching engine, from how real guides write places
(shared/real-world-divergences.md). Standard library only. The same ``(n, seed)`` gives the same
guides on any platform (only ``random.Random`` with explicit seeds; no iteration over sets or
hashes).

    python benchmarks/matching_data --n 100000 --seed 7 --out DIR   # guide_a.csv, guide_b.csv, truth.csv, ...

Layout of ``generate(n, seed, metros=None)``:

* Places in 32 metro areas (24 US, 4 Canadian, 4 European; ``metros`` keeps some, as a small DMO
  covers one), Zipf-like sizes. A metro has districts: a neighbourhood ("SoHo", "Los Feliz",
  "Buckhead"), a borough or a separate municipality ("Brooklyn", "West Hollywood"), each with its
  postal city, postal codes and streets (``metros``, ``geo``).
* About 3n/4 places; a third in both guides, a third only in guide A, a third only in guide B (the
  share varies by metro), so 40-60 % of guide B has a true match in guide A. Ids are assigned after
  shuffling: A from 1, B from ``B_ID_BASE + 1``.
* Each guide renders a place in its own house style with per-record noise (``render``): the older,
  finer divergence labels (city label, "Palm, The", short forms, accents, "&", phone and street
  formats, suites, missing fields, coordinates...).
* Then the divergence classes of real-world-divergences.md (``CLASSES``; ``address_classes``,
  ``record_classes``, rates in ``divergences.TRANSFORMS``), each from its own random stream
  seeded by the main seed and its name: notes after the street, building and mall names, "St." as
  Street or Saint, street type spellings, ordinals in words or digits of any size, a directional
  in one guide only, another city label, name qualifiers, moves (about 1.5 % of the true pairs:
  same name and phone at another address), phone formats, typing errors in names, house numbers
  and street words, accents and provinces. Several may fall on one pair.
* Hard negatives (``HARD_NEGATIVE_KINDS``), different places that a matcher may take for one:
  chain outlets of one brand in a metro (one brand domain, often one central phone, hotel brands
  named after the place), two places at one address (food halls, a hotel and its restaurant,
  shops of one building), sister places with similar names on one street, neighbours at the next
  house number, unrelated places of one name in one metro, and places of one name at one number
  on the two halves of a street (W 14th St / E 14th St: ``other_directional``).

``generate`` returns a ``Guides``: rows of guide A and B (dicts with ``COLUMNS``), ``truth`` (pairs
(id_a, id_b)), ``divergences`` (id_b -> the labels of its true pair, of ``DIVERGENCES``) and
``hard_negatives`` ((id_a, id_b, kind) for each pair of different places of one hard-negative
group, one in each guide).
"""

from .common import B_ID_BASE, COLUMNS, Guides, fold_accents
from .divergences import CLASSES, DIVERGENCES, HARD_NEGATIVE_KINDS
from .generator import generate, main, write
from .metros import METROS

__all__ = ["B_ID_BASE", "CLASSES", "COLUMNS", "DIVERGENCES", "Guides", "HARD_NEGATIVE_KINDS", "METROS",
           "fold_accents", "generate", "main", "write"]
