"""Unit tests for sadie_pipeline.core.hours.parse_hours."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.hours import DAYS, HoursError, parse_hours

WEEKDAYS_9_TO_5 = tuple((d, "09:00", "17:00") for d in range(1, 6))


def test_day_ids_monday_is_one_sunday_is_seven():
    assert DAYS["mon"] == 1 and DAYS["sun"] == 7
    assert sorted(DAYS.values()) == list(range(1, 8))


def test_weekday_range_and_single_day():
    assert parse_hours("Mon-Fri 09:00-17:00; Sat 10:00-14:00") == WEEKDAYS_9_TO_5 + ((6, "10:00", "14:00"),)


def test_result_is_a_sorted_tuple_regardless_of_input_order():
    rows = parse_hours("Sat 10:00-14:00; Mon-Fri 09:00-17:00")
    assert isinstance(rows, tuple)
    assert rows == WEEKDAYS_9_TO_5 + ((6, "10:00", "14:00"),)
    assert list(rows) == sorted(rows)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Mon 9am-5pm", ((1, "09:00", "17:00"),)),
        ("Mon 9 am - 5 pm", ((1, "09:00", "17:00"),)),
        ("Tue 9:30am - 5:30pm", ((2, "09:30", "17:30"),)),
        ("Wed 12pm-11pm", ((3, "12:00", "23:00"),)),    # noon stays 12
        ("Thu 11am to 12am", ((4, "11:00", "00:00"),)),  # midnight is 00
        ("Fri 6-22", ((5, "06:00", "22:00"),)),          # bare hours
        ("Sat 9\u201317", ((6, "09:00", "17:00"),)),     # en dash between times
    ],
)
def test_time_forms(text, expected):
    assert parse_hours(text) == expected


@pytest.mark.parametrize(
    "text",
    ["Monday-Friday: 9am-5pm", "MON - FRI 09:00-17:00", "Mon.-Fri. 09:00 - 17:00", "mon-fri: 9:00am to 5:00pm"],
)
def test_day_name_forms(text):
    assert parse_hours(text) == WEEKDAYS_9_TO_5


def test_wrap_around_range_fri_to_mon():
    assert parse_hours("Fri-Mon 10:00-16:00") == (
        (1, "10:00", "16:00"), (5, "10:00", "16:00"), (6, "10:00", "16:00"), (7, "10:00", "16:00"),
    )


def test_full_week_range():
    assert [r[0] for r in parse_hours("Mon-Sun 08:00-20:00")] == list(range(1, 8))


@pytest.mark.parametrize("text", ["Sun closed", "Sun: Closed", "Sat-Sun closed"])
def test_closed_days_produce_no_rows(text):
    assert parse_hours(text) == ()


def test_closed_day_alongside_open_days():
    assert parse_hours("Mon-Fri 09:00-17:00; Sat-Sun closed") == WEEKDAYS_9_TO_5


def test_split_shifts_on_one_day_are_both_kept():
    assert parse_hours("Mon 09:00-12:00\nMon 13:00-17:00") == ((1, "09:00", "12:00"), (1, "13:00", "17:00"))


def test_same_day_and_open_time_later_part_wins():
    assert parse_hours("Mon 09:00-17:00; Mon 09:00-18:00") == ((1, "09:00", "18:00"),)


def test_blank_parts_and_trailing_commas_are_ignored():
    assert parse_hours("Mon 09:00-17:00,;\n ;Sat 10:00-14:00,") == ((1, "09:00", "17:00"), (6, "10:00", "14:00"))


@pytest.mark.parametrize("text", [None, "", "   ", "\n"])
def test_empty_is_no_rows(text):
    assert parse_hours(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "whenever",
        "open daily",
        "Xyz 09:00-17:00",            # unknown day
        "Mon-Xyz 09:00-17:00",
        "Mon 25:00-26:00",            # hour out of range
        "Mon 18:00-24:30",            # past midnight
        "Mon 09:61-10:00",            # minute out of range
        "Mon 09:00",                  # no closing time
        "Mon-Fri 09:00-17:00; lunch", # one bad part spoils the lot
    ],
)
def test_garbage_raises(text):
    with pytest.raises(HoursError):
        parse_hours(text)


def test_hours_error_is_a_value_error():
    assert issubclass(HoursError, ValueError)


def test_repeated_text_gives_equal_result():
    # results are cached; a second call must give the same immutable value
    text = "Tue-Thu 11:00-21:00"
    first, second = parse_hours(text), parse_hours(text)
    assert first == second == tuple((d, "11:00", "21:00") for d in (2, 3, 4))


def test_closed_overrides_an_earlier_range():
    assert parse_hours("Mon-Sun 09:00-17:00; Sun closed") == tuple((d, "09:00", "17:00") for d in range(1, 7))


def test_parts_apply_in_order():
    # a later range reopens a day closed before it; closed drops every shift of its days
    assert parse_hours("Sat-Sun closed; Sun 12:00-16:00") == ((7, "12:00", "16:00"),)
    assert parse_hours("Mon 09:00-12:00; Mon 13:00-17:00; Tue 09:00-17:00; Mon closed") == ((2, "09:00", "17:00"),)
    assert parse_hours("Mon-Sun 09:00-17:00; Fri-Mon closed") == tuple((d, "09:00", "17:00") for d in (2, 3, 4))


def test_closed_note_naming_no_day_is_ignored():
    assert parse_hours("Mon-Fri 09:00-17:00; Holidays closed") == WEEKDAYS_9_TO_5


def test_midnight_as_24_00_is_accepted():
    assert parse_hours("Fri 18:00-24:00") == ((5, "18:00", "24:00"),)


def test_any_whitespace_inside_a_part():
    assert parse_hours("Mon\u00a0-\tFri  9\u00a0am -  5 pm\r\nSat 10:00-14:00") == WEEKDAYS_9_TO_5 + ((6, "10:00", "14:00"),)
