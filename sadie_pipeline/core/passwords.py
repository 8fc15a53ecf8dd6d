"""The password policy of web users: long enough, not one of the 10,000 most common passwords (the
list bundled in data/common-passwords.txt: the top of the list Royce Williams compiled from
breach corpora, as Django ships it, lowercased), not the user's name, not a few characters repeated.
Offline: nothing is sent anywhere to check a password."""

from __future__ import annotations

from functools import cache
from pathlib import Path

MIN_LENGTH = 10
MAX_LENGTH = 1000          # the login form's limit: a longer password could never log in
MIN_DISTINCT = 5           # "aaaaaaaaaa" and "ababababab" are long but guessed at once
COMMON_PASSWORDS = Path(__file__).resolve().parent.parent / "data" / "common-passwords.txt"


@cache
def common_passwords() -> frozenset[str]:
    return frozenset(line.strip() for line in COMMON_PASSWORDS.read_text(encoding="utf-8").splitlines() if line.strip())


def password_problem(password: str, name: str = "") -> str | None:
    """Why the password is refused (one line a person can act on), or None when it is acceptable."""
    if len(password) < MIN_LENGTH:
        return f"the password is too short: at least {MIN_LENGTH} characters (a few words make a good one)"
    if len(password) > MAX_LENGTH:
        return f"the password is too long: at most {MAX_LENGTH} characters"
    folded = password.casefold()
    if len(set(folded)) < MIN_DISTINCT:
        return f"the password repeats too few characters: use at least {MIN_DISTINCT} different ones"
    if folded in common_passwords() or folded.strip() in common_passwords():
        return "the password is one of the most common passwords, which are tried first: choose another"
    if name and name.casefold() == folded.strip():
        return "the password is the user's name: choose another"
    return None
