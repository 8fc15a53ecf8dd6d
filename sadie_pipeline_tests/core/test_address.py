"""Street lines as fields (core.places.address): the real-world divergences of
/work/shared/real-world-divergences.md, the different-street negatives, and a parser that never
raises."""

from __future__ import annotations

import random
import string

import pytest

from sadie_pipeline.core.places.address import EMPTY, Street, cut_notes, parse_street, street_of
from sadie_pipeline.core.places.streets import DIFFERENT, SAME, SAME_TYPO, UNKNOWN, number_close, same_street


def fields(line: str) -> tuple[str, str, str, str, str]:
    s = parse_street(line)
    return s.number, s.predir, s.name, s.type, s.postdir


# --- notes after the street, buildings ------------------------------------------------------------

@pytest.mark.parametrize("line, expected, note", [
    ("42 e. 20th st. between park ave. s and broadway", ("42", "e", "20th", "street", ""),
     "between park ave s and broadway"),
    ("95 ave. a at 6th st.", ("95", "", "a", "avenue", ""), "at 6th st"),
    ("57 jane st. off hudson st.", ("57", "", "jane", "street", ""), "off hudson st"),
    ("2 harrison st. near hudson st.", ("2", "", "harrison", "street", ""), "near hudson st"),
    ("1 water st. at the east river", ("1", "", "water", "street", ""), "at the east river"),
    ("3393 peachtree rd. lenox square mall near neiman marcus", ("3393", "", "peachtree", "road", ""),
     "lenox square mall near neiman marcus"),
    ("2290 peachtree rd. peachtree square shopping center", ("2290", "", "peachtree", "road", ""),
     "peachtree square shopping center"),
    ("2637 peachtree rd. peachtree house condominium", ("2637", "", "peachtree", "road", ""),
     "peachtree house condominium"),
    ("595 piedmont ave. rio shopping mall", ("595", "", "piedmont", "avenue", ""), "rio shopping mall"),
    ("255 courtland st. at harris st.", ("255", "", "courtland", "street", ""), "at harris st"),
    ("Lenox Square Mall, 3393 Peachtree Rd", ("3393", "", "peachtree", "road", ""), "lenox square mall"),
    ("1501 Broadway Paramount Building", ("1501", "", "broadway", "", ""), "paramount building"),
    ("100 S. Main St. (lobby level)", ("100", "s", "main", "street", ""), "lobby level"),
    ("River Walk, 206 River Walk Ct", ("206", "", "river walk", "court", ""), "river walk"),
])
def test_notes_and_buildings_leave_the_street(line, expected, note):
    assert fields(line) == expected
    assert parse_street(line).note == note


@pytest.mark.parametrize("line", ["42 e. 20th st.  between park ave. s and broadway",
                                  "3393 peachtree rd.  lenox square mall  near neiman marcus"])
def test_double_spaces_change_nothing(line):
    assert parse_street(line) == parse_street(" ".join(line.split()))


def test_a_line_that_starts_with_a_note_has_no_street():
    s = parse_street("in central park at 67th st.")
    assert (s.number, s.name) == ("", "")
    assert s.note == "in central park at 67th st"
    assert same_street(s, parse_street("1 central park w")) == UNKNOWN


def test_cut_notes_keeps_the_street_for_another_parser():
    assert cut_notes("255 courtland st. at harris st.") == ("255 courtland st", "at harris st")
    assert cut_notes("5 main st. suite 4 near the pier") == ("5 main st suite 4", "near the pier")
    assert cut_notes(None) == ("", "")


# --- St as Street or Saint ------------------------------------------------------------------------

@pytest.mark.parametrize("line, name, kind", [
    ("255 courtland st. at harris st.", "courtland", "street"),
    ("100 St Charles Ave", "saint charles", "avenue"),
    ("5 St. Marks Pl", "saint marks", "place"),
    ("1234 Rue Saint-Denis", "saint denis", "rue"),
    ("1234 rue St-Denis", "saint denis", "rue"),
    ("12 Old St Augustine Rd", "old saint augustine", "road"),
    ("100 Ste-Catherine St W", "sainte catherine", "street"),
    ("1100 N St NW", "n", "street"),
])
def test_st_is_street_at_the_end_and_saint_before_a_name(line, name, kind):
    s = parse_street(line)
    assert (s.name, s.type) == (name, kind)


def test_saint_spelled_or_not_is_one_street():
    assert same_street(parse_street("100 St. Charles Ave"), parse_street("100 Saint Charles Avenue")) == SAME
    assert same_street(parse_street("1234 rue St-Jean"), parse_street("1234 rue Saint-Jean")) == SAME


# --- types, ordinals, directionals ----------------------------------------------------------------

@pytest.mark.parametrize("a, b", [
    ("100 sunset blv.", "100 sunset blvd."), ("100 sunset blvd.", "100 sunset boulevard"),
    ("1 main pkwy", "1 main parkway"), ("5 shady la.", "5 shady ln."), ("7 old mill road", "7 old mill rd."),
    ("804 northpoint", "804 north point st."), ("10 ninth ave.", "10 9th ave."), ("1 second ave.", "1 2nd ave."),
    ("1 twenty-first st.", "1 21st st."), ("1 one hundred twenty-fifth st", "1 125th st"), ("100 W 21 St", "100 W 21st St"),
    ("3000 w. paradise rd.", "3000 paradise rd."), ("2637 peachtree rd. ne", "2637 peachtree rd."),
    ("8358 sunset blvd. west", "8358 sunset blvd."), ("100 sunset Boelevard", "100 sunset blvd"),
    ("100 main Pakrway", "100 main parkway"), ("949 Highland Stret", "949 highland st"),
    ("1234 rue Sherbrooke", "1234 Sherbrooke St"), ("335 West End Ln", "335 N.E. West End Ln"),
])
def test_same_street_written_otherwise(a, b):
    sa, sb = parse_street(a), parse_street(b)
    assert same_street(sa, sb) == SAME, (sa, sb)
    assert sa.number == sb.number


def test_ordinals_as_digits_of_any_size():
    assert parse_street("1 twenty-first st.").name == "21st"
    assert parse_street("1 one hundred twenty-fifth st").name == "125th"
    assert parse_street("1 22th st").name == "22nd"
    assert parse_street("1 eleventh ave").name == "11th"


@pytest.mark.parametrize("a, b", [
    ("100 W 14th St", "100 E 14th St"), ("2290 Peachtree Rd", "2290 Peachtree St"), ("12 Main St", "12 Main Ave"),
    ("100 14th St", "100 15th St"), ("12 Oak St", "12 Elm St"), ("804 northpoint", "804 south point st."),
    ("100 Avenue A", "100 Avenue B"), ("1 W 14th St", "1 14th St E"),
])
def test_different_streets(a, b):
    assert same_street(parse_street(a), parse_street(b)) == DIFFERENT


def test_one_directional_on_each_side_that_agree_is_the_same():
    assert same_street(parse_street("1 W 14th St"), parse_street("1 14th St W")) == SAME


def test_types_and_directionals_are_canonical():
    assert parse_street("10 N.E. Peachtree Road").predir == "ne"
    assert parse_street("10 Sherbrooke Ouest").postdir == "w"
    assert parse_street("8358 sunset blvd. west").postdir == "w"
    assert {parse_street(f"1 x {t}").type for t in ("blv.", "blvd", "boulevard", "boul.")} == {"boulevard"}
    assert {parse_street(f"1 x {t}").type for t in ("sts.", "st", "street")} == {"street"}


# --- typing errors --------------------------------------------------------------------------------

def test_typing_errors_in_street_words():
    assert same_street(parse_street("10 Riverscide Dr"), parse_street("10 Riverside Dr")) == SAME_TYPO
    assert same_street(parse_street("84 harriln place"), parse_street("84 harrison pl")) == SAME_TYPO
    assert same_street(parse_street("1 Boelevard Pakrway"), parse_street("1 Boulevard Pkwy")) == SAME_TYPO
    assert same_street(parse_street("1 Oak St"), parse_street("1 Oat St")) == DIFFERENT  # too short to tell


@pytest.mark.parametrize("a, b, close", [
    ("384", "38a", True), ("759", "749", True), ("12374", "12375", True), ("293b", "293", True),
    ("293-b", "293", True), ("12-14", "12", True), ("123-1/2", "123", True), ("100", "100", True),
    ("100", "165", False), ("42", "4200", False), ("2290", "2300", False), ("", "42", False),
])
def test_number_close(a, b, close):
    assert number_close(a, b) is close


# --- house numbers, units, European and Canadian forms ---------------------------------------------

@pytest.mark.parametrize("line, number", [
    ("293-b main st", "293b"), ("293B Main St", "293b"), ("12-14 main st", "12-14"), ("123 1/2 main st", "123-1/2"),
    ("123 ½ main st", "123-1/2"), ("0042 main st", "0042"), ("9b4 main st", "9b4"), ("One Market St", "1"),
])
def test_house_numbers(line, number):
    assert parse_street(line).number == number
    assert parse_street(line).name == ("market" if "Market" in line else "main")


@pytest.mark.parametrize("line, unit", [
    ("5 main st #8", "unit 8"), ("5 main st Suite 4", "suite 4"), ("5 main st Ste. 200", "suite 200"),
    ("5 main st 2nd Floor", "floor 2"), ("5 main st Unit B", "unit b"), ("5 main st, Suite 200, Atlanta", "suite 200"),
    ("5 main st bldg 2 ste 300", "building 2 suite 300"),
])
def test_units_come_out(line, unit):
    s = parse_street(line)
    assert (s.number, s.name, s.type, s.unit) == ("5", "main", "street", unit)


@pytest.mark.parametrize("line, expected", [
    ("Oranienstraße 197", ("197", "", "oranien", "strasse", "")),
    ("Oranienstr. 197", ("197", "", "oranien", "strasse", "")),
    ("Carrer de Verdi, 92", ("92", "", "verdi", "carrer", "")),
    ("C/ de Verdi, 92", ("92", "", "verdi", "calle", "")),
    ("263, Avenue Laurier", ("263", "", "laurier", "avenue", "")),
    ("1234 rue Saint-Jean", ("1234", "", "saint jean", "rue", "")),
    ("12 rue de la Paix", ("12", "", "paix", "rue", "")),
    ("Via del Corso 12", ("12", "", "corso", "via", "")),
    ("US Highway 1", ("", "", "1", "highway", "")),
    ("Route 66", ("", "", "66", "route", "")),
])
def test_european_canadian_and_route_forms(line, expected):
    assert fields(line) == expected


def test_european_spellings_are_one_street():
    assert same_street(parse_street("Oranienstraße 197"), parse_street("Oranienstr. 197")) == SAME
    assert same_street(parse_street("Carrer de Verdi, 92"), parse_street("C/ de Verdi, 92")) == SAME
    assert same_street(parse_street("263, Avenue Laurier"), parse_street("263 av. Laurier")) == SAME


# --- the fields of another parser, empty input, arbitrary text -------------------------------------

def test_street_of_normalises_another_parsers_fields():
    s = street_of("293-B", "W.", "St. Marks", "Pl.", "", "Ste 4", "near the pier")
    assert s == Street("293b", "w", "saint marks", "place", "", "ste 4", "near the pier")
    assert street_of(name="21", type="St").name == "21st"


@pytest.mark.parametrize("line", [None, "", "   ", ",", ",,", "()", "#"])
def test_empty_gives_an_empty_street(line):
    s = parse_street(line)
    assert (s.number, s.name, s.type) == ("", "", "")
    assert same_street(s, parse_street("1 Main St")) == UNKNOWN
    assert parse_street(None) == EMPTY


def test_parse_never_raises_on_arbitrary_text():
    rng = random.Random(29)
    alphabet = string.ascii_letters + string.digits + " .,#-/()[]&'½ßéÉ\t\n" + "stndrdaveblvd"
    words = ["st", "ste", "la", "the", "at", "and", "n", "w", "1/2", "-", "#", "suite", "2nd", "floor", "one",
             "hundred", "first", "rue", "c/", "(", ")", ",", "route", "99", "0", "box", "po"]
    for _ in range(3000):
        line = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        if rng.random() < 0.5:
            line = " ".join(rng.choice(words) for _ in range(rng.randint(0, 8)))
        a, b = parse_street(line), parse_street(line[::-1])
        assert isinstance(a, Street) and all(isinstance(v, str) for v in a)
        assert same_street(a, b) in (UNKNOWN, DIFFERENT, SAME_TYPO, SAME)
        number_close(a.number, b.number)
        cut_notes(line)
