"""`make demo` ends with the app's people: an admin, a salesperson and an API key of one DMO, each
working, and a second demo replaces them rather than failing on the names it used."""

from __future__ import annotations

import re

from sadie_pipeline.web.demo import DEMO_ADMIN, DEMO_SALES, demo_admin
from sadie_pipeline.web.users import Role, api_key, authenticate
from sadie_pipeline_tests.web.data import add_dmo

LINE = re.compile(r"log in as (\S+), password (\S+)\n  sales \(leads before the launch\): (\S+), password (\S+)"
                  r"\n  API key of the app of DMO visit-pei: (\S+) ")


def test_the_demo_prints_an_admin_a_salesperson_and_a_dmo_key_that_work(database):
    with database.connect() as conn:
        add_dmo(conn, "visit-pei")
    for _ in range(2):  # a second demo replaces the people and the key of the first
        found = LINE.search(demo_admin(database))
        assert found, "the demo's lines changed"
        admin, admin_pw, sales, sales_pw, key = found.groups()
        with database.connect() as conn:
            assert (admin, sales) == (DEMO_ADMIN, DEMO_SALES)
            assert authenticate(conn, admin, admin_pw).role is Role.ADMIN
            assert authenticate(conn, sales, sales_pw).role is Role.SALES
            assert api_key(conn, key).dmo == "visit-pei"
