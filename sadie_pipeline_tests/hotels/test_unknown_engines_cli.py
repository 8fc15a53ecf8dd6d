"""`sadie hotel engines` on a real database: the uncatalogued booking hosts detection recorded, most
hotels first, with the hotels still waiting for review, sample pages and a limit, per region."""

from __future__ import annotations

from click.testing import CliRunner

from sadie_pipeline.cli import main
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels.unknown_engines import unknown_hosts

# (region, hotel website, unknown host, status, followed booking page)
SEEN = [
    ("US-FL", "https://www.palm-inn.test/", "widgets.tripnest.asia", HotelStatus.ENGINE_REVIEW, None),
    ("US-FL", "https://www.coral-lodge.test/", "widgets.tripnest.asia", HotelStatus.ENGINE_REVIEW,
     "https://www.coral-lodge.test/booking/"),
    ("US-FL", "https://www.keys-motel.test/", "widgets.tripnest.asia", HotelStatus.DETECTED, None),
    ("US-FL", "https://www.dune-house.test/", "cdn.hotelgo-latam.com", HotelStatus.ENGINE_REVIEW, None),
    ("US-FL", "https://www.bay-rooms.test/", "cdn.hotelgo-latam.com", HotelStatus.ENGINE_REVIEW, None),
    ("US-FL", "https://www.reef-stay.test/", "js.hoteria.mx", HotelStatus.ENGINE_REVIEW, None),
    ("US-TX", "https://www.alamo-inn.test/", "static.ryokanlink.jp", HotelStatus.ENGINE_REVIEW, None),
]


def _seed(database) -> None:
    with database.connect() as conn:
        for i, (region, website, host, status, found_on) in enumerate(SEEN):
            hotel_id = conn.execute(
                """INSERT INTO sadie_gtm.hotels (region, city, state, name, website, status)
                   VALUES (%s, 'Town', %s, %s, %s, %s) RETURNING id""",
                (region, region[-2:], f"Hotel {i}", website, status)).fetchone()[0]
            conn.execute(
                """INSERT INTO sadie_gtm.hotel_booking_engines (hotel_id, booking_url, detection_method, confidence,
                                                                unknown_host, found_on_url)
                   VALUES (%s, %s, 'script', 0.5, %s, %s)""",
                (hotel_id, f"https://{host}/loader.js?h={i}", host, found_on))
        # a catalogued detection is no unknown host
        hotel_id = conn.execute("""INSERT INTO sadie_gtm.hotels (region, city, state, name, website, status)
                                   VALUES ('US-FL', 'Town', 'FL', 'Known', 'https://known.test/', %s)
                                   RETURNING id""", (HotelStatus.DETECTED,)).fetchone()[0]
        conn.execute("""INSERT INTO sadie_gtm.hotel_booking_engines (hotel_id, booking_url, detection_method)
                        VALUES (%s, 'https://hotels.cloudbeds.com/reservation/AbC123', 'link')""", (hotel_id,))


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, ["hotel", "engines", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_hosts_listed_most_hotels_first_with_pages(sadie_env, database):
    _seed(database)
    out = _run()
    lines = [line for line in out.splitlines() if "hotels" in line and "waiting" in line]
    assert [line.split()[-1] for line in lines] == [
        "widgets.tripnest.asia", "cdn.hotelgo-latam.com", "js.hoteria.mx", "static.ryokanlink.jp"]
    assert lines[0].split()[:4] == ["3", "hotels", "2", "waiting"]  # one of the three was since detected
    assert "page     https://www.coral-lodge.test/booking/" in out  # the followed page it was seen on
    assert "page     https://www.palm-inn.test/" in out
    assert "example  https://cdn.hotelgo-latam.com/loader.js" in out
    assert out.rstrip().endswith("4 unknown booking hosts")
    assert "cloudbeds" not in out


def test_region_and_limit(sadie_env, database):
    _seed(database)
    out = _run("--region", "us-tx")
    assert "static.ryokanlink.jp" in out and "tripnest" not in out
    assert out.rstrip().endswith("1 unknown booking hosts")
    out = _run("--region", "US-FL", "--limit", "2")
    assert "widgets.tripnest.asia" in out and "cdn.hotelgo-latam.com" in out and "js.hoteria.mx" not in out
    assert out.rstrip().endswith("3 unknown booking hosts (showing 2)")
    assert CliRunner().invoke(main, ["hotel", "engines", "--limit", "0"]).exit_code != 0


def test_samples_are_capped(database):
    _seed(database)
    with database.connect() as conn:
        [top, *_] = unknown_hosts(conn, ["US-FL"], limit=1, samples=2)
    assert (top.host, top.hotels, top.waiting, top.total) == ("widgets.tripnest.asia", 3, 2, 3)
    assert len(top.pages) == 2 and all(p.startswith("https://www.") for p in top.pages)
