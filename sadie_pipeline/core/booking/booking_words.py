"""Words for booking a stay in the languages of the markets independent hotels sell in, shared by
the unknown-engine rules (URLs, link text, form fields, widget names). Regional engines put them in
their hosts and paths ("foglalas.", "/varaa/", "boeken.", "/bokning"), so English alone misses them."""

#: host or path words: English, German, Italian, Spanish/Portuguese/French, Dutch, Nordic, Central and
#: Eastern European, Greek, Russian, Japanese, Korean, Chinese (transliterated where URLs are)
URL_WORDS = (
    "book", "reserv", "availab", "buch", "prenot", "rezerv", "rezerw", "engine", "check-?in", "arrival",
    "boek", "boka", "bokning", "bestill", "bestil", "varaa", "varaus", "foglal", "broneeri", "bronir",
    "kratis", "yoyaku", "yeyak", "yuding",
)

#: link text that surely means booking a room, beyond "book now" / "check availability"
TEXT_WORDS = (
    r"\bbuchen\b", r"\bprenota", r"r[ée]server", r"\bboek", r"\breserveer", r"\brezerv", r"\brezerw",
    r"\bboka\b", r"\bbokning", r"\bbestill?\b", r"\bvaraa\b", r"\bvaraus", r"\bfoglal", r"\bbroneeri",
    r"κράτηση", r"бронир", r"забронир", r"予約", r"预订", r"預訂", r"예약", r"đặt phòng",
)

#: form field names of a stay search: arrival, departure, nights, guests
FIELD_WORDS = (
    "check", "arriv", "depart", "adult", "guest", "night", "date", "llegada", "salida", "huesped",
    "anreise", "abreise", "arrivo", "partenza", "chegada", "partida", "hospedes", "aankomst", "vertrek",
    "ankomst", "avresa", "afrejse", "saapu", "lahto", "erkez", "tavoz", "przyjazd", "wyjazd", "prijezd",
    "odjezd", "prijazd", "odhod", "dolazak", "odlazak", "sosire", "plecare", "giris", "cikis", "zaezd",
    "vyezd", "personen", "gaeste", "gast", "ospiti", "osob", "vendeg", "henkil", "persons", "pax", "rooms",
)
