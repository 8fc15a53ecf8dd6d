"""A DMO's import schedule (config `import.schedule`): manual, a frequency or a cron string, and
when it is due. Times are UTC; a frequency runs at a fixed minute so that DMOs of one frequency
start together and the run queue spreads them."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum

from croniter import croniter


class Frequency(StrEnum):
    MANUAL = "manual"
    HOURLY = "hourly"
    DAILY = "daily"
    WEEKLY = "weekly"


CRON_OF: dict[Frequency, str] = {
    Frequency.HOURLY: "0 * * * *",
    Frequency.DAILY: "0 3 * * *",     # at night, before the hotel side's weekly discovery (04:00 Mondays)
    Frequency.WEEKLY: "0 3 * * 1",
}


class ScheduleError(ValueError):
    pass


def cron_of(schedule: str) -> str | None:
    """The cron string of a schedule; None for manual. Raises ScheduleError for anything else."""
    value = schedule.strip().lower()
    if value == Frequency.MANUAL:
        return None
    if value in CRON_OF:
        return CRON_OF[Frequency(value)]
    if len(value.split()) == 5 and croniter.is_valid(value):
        return value
    raise ScheduleError("should be manual, hourly, daily, weekly or a cron string of five fields such as '30 2 * * *'")


def next_run(schedule: str, after: dt.datetime) -> dt.datetime | None:
    """The first run strictly after `after` (UTC); None for manual."""
    cron = cron_of(schedule)
    return None if cron is None else croniter(cron, _utc(after)).get_next(dt.datetime)


def latest_due(schedule: str, now: dt.datetime) -> dt.datetime | None:
    """The last run time at or before `now` (UTC): the tick a sensor starts a pull for; None for manual."""
    cron = cron_of(schedule)
    if cron is None:
        return None
    now = _utc(now)
    if croniter.match(cron, now.replace(second=0, microsecond=0)):
        return now.replace(second=0, microsecond=0)
    return croniter(cron, now).get_prev(dt.datetime)


def _utc(moment: dt.datetime) -> dt.datetime:
    return moment.replace(tzinfo=dt.UTC) if moment.tzinfo is None else moment.astimezone(dt.UTC)
