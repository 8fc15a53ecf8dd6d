"""The Slack alert when a layer's open dead letters reach SADIE_DEAD_LETTER_ALERT_THRESHOLD.

The sensor's cursor holds the layers already announced as over the threshold, so a crossing is
announced once, not at every tick; a layer that falls back below it leaves the cursor and is
announced again at its next crossing. The cursor moves only after Slack took the message: an
unconfigured or failing Slack leaves the crossing to be announced by a later tick."""

from __future__ import annotations

import json

from dagster import DefaultSensorStatus, SensorEvaluationContext, SkipReason, sensor

from sadie_pipeline.operations.dead_letters import open_by_layer
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.slack import SlackResource
from sadie_pipeline.settings import env_count

DEFAULT_DEAD_LETTER_ALERT_THRESHOLD = 50
ALERT_INTERVAL_S = 300


def dead_letter_alert_threshold() -> int:
    """Open dead letters of one layer that raise the alert (read at each tick, like the
    schedules' settings in hotels/schedules.py)."""
    return env_count("SADIE_DEAD_LETTER_ALERT_THRESHOLD", DEFAULT_DEAD_LETTER_ALERT_THRESHOLD)


def crossings(counts: dict[str, int], threshold: int, announced: set[str]) -> tuple[dict[str, int], set[str]]:
    """(layers newly at or over the threshold with their counts, every layer at or over it now)."""
    over = {layer for layer, n in counts.items() if n >= threshold}
    return {layer: counts[layer] for layer in sorted(over - announced)}, over


def alert_message(new: dict[str, int], threshold: int) -> str:
    layers = ", ".join(f"*{layer}* ({n})" for layer, n in new.items())
    return (f":warning: Open dead letters reached the threshold of {threshold}: {layers}. "
            "See `sadie deadletters list --layer LAYER`; requeue with `sadie deadletters requeue`.")


@sensor(minimum_interval_seconds=ALERT_INTERVAL_S, default_status=DefaultSensorStatus.RUNNING,
        description="Posts to Slack when a layer's open dead letters reach SADIE_DEAD_LETTER_ALERT_THRESHOLD "
                    "(once per crossing).")
def dead_letter_alert_sensor(context: SensorEvaluationContext, database: Database, slack: SlackResource):
    announced = set(json.loads(context.cursor)) if context.cursor else set()
    threshold = dead_letter_alert_threshold()
    with database.connect() as conn:
        counts = open_by_layer(conn)
    new, over = crossings(counts, threshold, announced)
    if not new:
        if over != announced:  # layers back under the threshold may cross again
            context.update_cursor(json.dumps(sorted(over)))
        return SkipReason(f"no layer newly at {threshold} open dead letters")
    if not slack.configured():
        return SkipReason(slack.not_configured_message())
    slack.post(alert_message(new, threshold))
    context.update_cursor(json.dumps(sorted(over)))
    return SkipReason(f"announced {', '.join(new)} in Slack")
