"""The listings page over real HTTP: filters by status, DMO, category (a group takes its subtypes) and
region (country, or country and state), with the counts by status of the other filters above the
list; a user of one DMO counts only its listings. A listing's timeline: a record imported twice
through the pipeline shows both imports (job, DMO) with the field the second one changed, and a
person's edit beside them, newest first."""

from __future__ import annotations

import re

import pytest

from sadie_pipeline.web.users import add_user
from sadie_pipeline_tests.listings.helpers import GRILL, SIMPLE_CONFIG, import_file, register, write_csv
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.data import add_dmo, add_listing
from sadie_pipeline_tests.web.server import logged_in, page_token

PLACES = (  # name, DMO, category, state, country, status
    ("Harbour Hotel", "pei", "lodging.hotel", "PE", "CA", "active"),
    ("Bean Cafe", "pei", "restaurant.cafe", "PE", "CA", "hidden"),
    ("Cove Inn", "ns", "lodging.inn", "NS", "CA", "active"),
    ("Maine Lodge", "ns", "lodging", "ME", "US", "missing_from_import"),
    ("Old Museum", "pei", "attraction.museum", "PE", "CA", "archived"),
)


@pytest.fixture
def places(database, users) -> dict[str, int]:
    ids = {}
    with database.connect() as conn:
        dmos = {slug: add_dmo(conn, slug) for slug in ("pei", "ns")}
        for name, dmo, category, state, country, status in PLACES:
            listing, _ = add_listing(conn, dmos[dmo], name, category=category, visible=status == "active")
            conn.execute("UPDATE public.listings SET listing_status = %s WHERE id = %s", (status, listing))
            conn.execute("UPDATE public.locations SET state = %s, country = %s WHERE id = "
                         "(SELECT location_id FROM public.listings WHERE id = %s)", (state, country, listing))
            ids[name] = listing
        add_user(conn, "pat", PASSWORD, "viewer", dmos=["pei"])
    return ids


def _names(html: str) -> set[str]:
    found = re.findall(r'<a href="/listings/\d+">([^<]+)</a>', html.split("<tbody>")[1])
    return {name for name in found if not name.isdigit()}  # the id's link apart


def _counts(html: str) -> dict[str, int]:
    block = html.split('id="status-counts"')[1].split("</p>")[0]
    return {s: int(n.replace(",", "")) for s, n in re.findall(r'data-status="([\w]+)">[\w]+ ([\d,]+)</a>', block)}


def test_filters_and_counts_by_status(web, places):
    with logged_in(web, "vera", PASSWORD) as vera:
        def page(**params):
            response = vera.get("/listings", params=params)
            assert response.status_code == 200, response.text[:300]
            return _names(response.text), _counts(response.text)

        names, counts = page()
        assert names == {p[0] for p in PLACES}
        assert counts == {"all": 5, "active": 2, "hidden": 1, "missing_from_import": 1, "archived": 1}
        names, counts = page(category="lodging")  # a group takes its subtypes
        assert names == {"Harbour Hotel", "Cove Inn", "Maine Lodge"}
        assert counts == {"all": 3, "active": 2, "missing_from_import": 1}
        assert page(category="lodging.inn")[0] == {"Cove Inn"}
        assert page(category="Lodging_")[0] == set()  # its _ taken literally
        names, counts = page(category="lodging", status="active")  # the counts leave the status out
        assert names == {"Harbour Hotel", "Cove Inn"} and counts["missing_from_import"] == 1
        names, counts = page(dmo="ns")
        assert names == {"Cove Inn", "Maine Lodge"} and counts == {"all": 2, "active": 1, "missing_from_import": 1}
        assert page(region="CA/NS")[0] == {"Cove Inn"}
        assert page(region="US")[0] == {"Maine Lodge"}
        names, counts = page(region="CA", status="archived")
        assert names == {"Old Museum"} and counts["all"] == 4
        assert page(region="ZZ/<script>")[0] == set()
        html = vera.get("/listings").text
        assert '<option value="CA/PE"' in html and '<option value="US/ME"' in html and '<option value="US"' in html
        assert 'data-status="hidden"' in html and 'href="?status=hidden"' in html


def test_a_user_of_one_dmo_counts_only_its_listings(web, places):
    with logged_in(web, "pat", PASSWORD) as pat:
        html = pat.get("/listings").text
        assert _names(html) == {"Harbour Hotel", "Bean Cafe", "Old Museum"}
        assert _counts(html) == {"all": 3, "active": 1, "hidden": 1, "archived": 1}
        assert '<option value="US' not in html  # the regions of its own listings
        assert pat.get("/listings", params={"dmo": "ns"}).status_code == 403


@pytest.mark.slow  # two imports through Dagster
def test_the_timeline_shows_each_import_with_what_it_changed_and_a_hand_edit(web, database, local_object_store,
                                                                             instance, tmp_path, users):
    register(database, instance, "tl-dmo", SIMPLE_CONFIG)
    _, first = import_file(database, local_object_store, instance, "tl-dmo",
                           write_csv(tmp_path / "a.csv", [GRILL]))
    changed = {**GRILL, "Description": "Lobster suppers on the wharf."}
    _, second = import_file(database, local_object_store, instance, "tl-dmo",
                            write_csv(tmp_path / "b.csv", [changed]))
    assert (first["inserted"], second["updated"]) == (1, 1)
    with database.connect() as conn:
        listing = conn.execute("SELECT listing_id FROM public.listing_info").fetchone()[0]
    with logged_in(web, "rita", PASSWORD) as rita:
        token = page_token(rita, f"/listings/{listing}")
        rita.post(f"/listings/{listing}/edit", data={"name": "Harbourfront Grill & Bar", "csrf_token": token})
        timeline = rita.get(f"/listings/{listing}").text.split('id="history"')[1].split("</table>")[0]
    rows = re.findall(r"<tr(?: class=\"import\" data-job=\"(\d+)\")?><td>[^<]*</td><td>(.*?)</td><td>([^<]*)</td>"
                      r"<td>([^<]*)</td>\s*<td class=\"small\">(.*?)</td>", timeline, re.S)
    imports = [(int(job), dmo, who, detail) for job, _, dmo, who, detail in rows if job]
    assert [job for job, *_ in imports] == [second["job_id"], first["job_id"]]  # newest first
    assert all(dmo == "tl-dmo" and who == "pipeline" for _, dmo, who, _ in imports)
    assert imports[0][3] == "description: Seafood on the wharf. → Lobster suppers on the wharf."
    assert imports[1][3] == "first imported"
    assert f'href="/jobs/{second["job_id"]}"' in timeline and "b.csv" in timeline
    edit = [r for r in rows if r[1] == "edit"]
    assert edit and edit[0][3] == "rita" and "name: Harbourfront Grill → Harbourfront Grill &amp; Bar" in edit[0][4]
    assert rows.index(edit[0]) < rows.index(next(r for r in rows if r[0] == str(second["job_id"])))
