"""Dead letters as a person sees them (`sadie deadletters list|requeue`, real PostgreSQL) and the
Slack alert when a layer's open dead letters reach the threshold (the sandbox's Slack)."""

from __future__ import annotations

from click.testing import CliRunner
from dagster import build_sensor_context

from sadie_pipeline.cli import main
from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.definitions import defs
from sadie_pipeline.operations.alerts import dead_letter_alert_sensor
from sadie_pipeline.operations.dead_letters import open_by_layer, requeue
from sadie_pipeline.resource_defs import configured
from sadie_pipeline.resources.reliability import ItemOutcome, record_dead_letters
from sadie_pipeline_tests.hotels.leads_data import add_hotel


def _run(*args):
    return CliRunner().invoke(main, list(args))


def _fail(conn, layer, *hotel_ids, error="read timed out after 30 s"):
    record_dead_letters(conn, layer, [ItemOutcome(f"hotel:{h}", "dead_letter", error_class=ErrorClass.TRANSIENT,
                                                  attempts=3, last_error=error) for h in hotel_ids])


def _succeed(conn, layer, *hotel_ids):
    record_dead_letters(conn, layer, [ItemOutcome(f"hotel:{h}", "ok") for h in hotel_ids])


def _ids(database):
    with database.connect() as conn:
        return dict(conn.execute("SELECT item_key || '/' || layer, id FROM pipeline.dead_letters").fetchall())


def _hotels(database):
    """A detected hotel still missing its layers and an enriched one that has them all."""
    with database.connect() as conn:
        waiting = add_hotel(conn, "Waiting Inn", status=HotelStatus.DETECTED)
        conn.execute("UPDATE sadie_gtm.hotel_owner_enrichment SET layers_completed = 0 WHERE hotel_id = %s",
                     (waiting,))
        done = add_hotel(conn, "Done Inn")
        _fail(conn, "room_counts", waiting)
        _fail(conn, "rdap_owner", done, error="RDAP 503\nService Unavailable")
        _fail(conn, "hotel_research", done)
        _succeed(conn, "hotel_research", done)
    return waiting, done


def test_list_shows_a_readable_table_and_which_run_retries_each(sadie_env, database):
    waiting, done = _hotels(database)
    out = _run("deadletters", "list")
    assert out.exit_code == 0, out.output
    header, *rows, total = out.output.splitlines()
    assert header.split()[:3] == ["ID", "LAYER", "ITEM"] and total == "2 dead letters unresolved"
    by_item = {row.split()[2]: row for row in rows}
    assert "rdap_owner" in by_item[f"hotel:{done}"] and "next refresh run" in by_item[f"hotel:{done}"]
    assert "RDAP 503 Service Unavailable" in by_item[f"hotel:{done}"]  # one line per dead letter
    assert "room_counts" in by_item[f"hotel:{waiting}"] and "next run" in by_item[f"hotel:{waiting}"]
    assert all(" open " in row and " transient " in row for row in rows)

    only = _run("deadletters", "list", "--layer", "room_counts").output.splitlines()
    assert len(only) == 3 and f"hotel:{waiting}" in only[1]
    everything = _run("deadletters", "list", "--all").output
    assert "hotel_research" in everything and " resolved " in everything and "3 dead letters" in everything


def test_mistakes_end_with_one_line(sadie_env, database):
    _hotels(database)
    for args, message in [(("list", "--layer", "room_count"), "unknown layer 'room_count'"),
                          (("requeue", "--layer", "nope"), "unknown layer 'nope'"),
                          (("requeue", "4242", "1"), "no dead letter with id 4242")]:
        out = _run("deadletters", *args)
        assert out.exit_code == 1 and message in out.output and "Traceback" not in out.output, out.output
    assert _run("deadletters", "requeue").exit_code == 2  # neither ids nor --layer
    assert _run("deadletters", "requeue", "1", "--layer", "room_counts").exit_code == 2
    with database.connect() as conn:  # the refused requeue of ids 4242 and 1 changed nothing
        assert conn.execute("SELECT count(*) FROM pipeline.dead_letters WHERE requeued_at IS NOT NULL").fetchone()[0] == 0


def test_requeue_by_id_and_by_layer_until_the_item_fails_again(sadie_env, database):
    waiting, done = _hotels(database)
    ids = _ids(database)
    out = _run("deadletters", "requeue", str(ids[f"hotel:{waiting}/room_counts"]), "--by", "ops")
    assert out.exit_code == 0 and out.output.splitlines()[-1] == "requeued 1", out.output
    assert " requeued " in out.output.splitlines()[1] and "next run" in out.output
    with database.connect() as conn:
        assert open_by_layer(conn) == {"rdap_owner": 1}
        assert conn.execute("SELECT requeued_by FROM pipeline.dead_letters WHERE id = %s",
                            (ids[f"hotel:{waiting}/room_counts"],)).fetchone()[0] == "ops"

    out = _run("deadletters", "requeue", "--layer", "rdap_owner")
    assert out.output.splitlines()[-1] == "requeued 1" and "next refresh run" in out.output
    resolved = _run("deadletters", "requeue", str(ids[f"hotel:{done}/hotel_research"])).output
    assert "already resolved, left alone" in resolved and resolved.splitlines()[-1] == "requeued 0"

    with database.connect() as conn:
        assert open_by_layer(conn) == {}
        _fail(conn, "room_counts", waiting)  # the retry failed: open again, attempts added up
        assert open_by_layer(conn) == {"room_counts": 1}
        assert conn.execute("SELECT attempts FROM pipeline.dead_letters WHERE layer = 'room_counts'").fetchone()[0] == 6
    assert " open " in _run("deadletters", "list", "--layer", "room_counts").output


def _tick(database, cursor):
    context = build_sensor_context(cursor=cursor, resources={"database": database, "slack": configured("slack")})
    result = dead_letter_alert_sensor(context)
    return result, context.cursor


def test_the_alert_is_posted_once_per_crossing(database, sb, monkeypatch):
    for name, value in sb.client_env().items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("SADIE_DEAD_LETTER_ALERT_THRESHOLD", "2")
    assert defs.get_sensor_def("dead_letter_alert_sensor") is not None
    with database.connect() as conn:
        hotels = [add_hotel(conn, f"Hotel {n}") for n in range(3)]
        _fail(conn, "room_counts", hotels[0])
        _fail(conn, "rdap_owner", *hotels)
    _, cursor = _tick(database, None)
    [message] = sb.inspect("slack")["messages"]
    assert "*rdap_owner* (3)" in message["text"] and "room_counts" not in message["text"]

    _, cursor = _tick(database, cursor)  # still over: not announced again
    with database.connect() as conn:
        _fail(conn, "room_counts", hotels[1])  # room_counts crosses now
    _, cursor = _tick(database, cursor)
    messages = sb.inspect("slack")["messages"]
    assert len(messages) == 2 and "*room_counts* (2)" in messages[1]["text"] and "rdap_owner" not in messages[1]["text"]

    with database.connect() as conn:
        requeue(conn, layer="rdap_owner", by="ops")
    _, cursor = _tick(database, cursor)  # rdap_owner back under the threshold
    assert len(sb.inspect("slack")["messages"]) == 2
    with database.connect() as conn:
        _fail(conn, "rdap_owner", *hotels)  # failed again after the requeue: a new crossing
    _tick(database, cursor)
    messages = sb.inspect("slack")["messages"]
    assert len(messages) == 3 and "*rdap_owner* (3)" in messages[2]["text"]


def test_without_slack_the_crossing_waits(database, monkeypatch):
    monkeypatch.delenv("SADIE_SLACK_BOT_TOKEN", raising=False)
    monkeypatch.setenv("SADIE_DEAD_LETTER_ALERT_THRESHOLD", "1")
    with database.connect() as conn:
        _fail(conn, "room_counts", add_hotel(conn, "Lonely Inn"))
    result, cursor = _tick(database, None)
    assert "SADIE_SLACK_BOT_TOKEN" in result.skip_message and cursor is None

