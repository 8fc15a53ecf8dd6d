"""`make demo`'s last part on its own: its moto server, a handful of Key West prospects through the
queue and back, printed; nothing of the queue left in the environment."""

from __future__ import annotations

import os
from pathlib import Path

from sadie_pipeline.demo_hybrid import run_hybrid_demo


def test_the_demo_sends_enriches_and_pulls_back(database, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster"))
    monkeypatch.setenv("SADIE_HOME", str(tmp_path / "sadie"))   # nothing may land in the default store
    (tmp_path / "dagster").mkdir()
    lines: list[str] = []
    run_hybrid_demo(database, lines.append, tmp_path)
    text = "\n".join(lines)
    assert "sent 8 messages in 1 batch request(s)" in text, text
    assert "8 enriched" in text and "a second pull: 0 new" in text, text
    assert "8 new results" in text and "8 loaded into sadie_gtm.hybrid_results" in text, text
    assert len(list((tmp_path / "hybrid-demo" / "US-FL").glob("*.md"))) == 8
    assert "SADIE_HYBRID_QUEUE_URL" not in os.environ
    assert not (tmp_path / "sadie" / "objects" / "indexes").exists()   # the cloud's objects are in its bucket
