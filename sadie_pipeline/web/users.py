"""Web users (viewer, reviewer, admin; optionally limited to some DMOs, with grants beyond them) and
API keys. Passwords follow core/passwords.py's policy and are stored as argon2 hashes (argon2-cffi);
a user's session_version ends its sessions when its password or access changes. An API key is shown
once and stored as its sha256 digest."""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum

import psycopg
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from sadie_pipeline.core.passwords import password_problem
from sadie_pipeline.web.queries import one, rows, sql

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,62}")
_HASHER = PasswordHasher()
# verified against when the name is unknown, so a wrong name takes as long as a wrong password
_DUMMY_HASH = _HASHER.hash(secrets.token_urlsafe(16))


class Role(IntEnum):
    """Each listings role may do what the roles below it may; sales stands apart (leads and hotels,
    nothing of the listings side), and an admin may do what sales may."""
    SALES = 0     # the leads pages: approves, holds and rejects leads, hotel pages, re-runs a layer
    VIEWER = 1    # reads every page
    REVIEWER = 2  # decides reviews, uploads, promotes, edits listings, decides hotel pairs, requeues
    ADMIN = 3     # edits DMO configs and users

    @classmethod
    def named(cls, name: str) -> Role:
        try:
            return cls[name.upper()]
        except KeyError:
            raise UserError(f"unknown role {name!r}: viewer, reviewer, admin or sales") from None

    @property
    def label(self) -> str:
        return self.name.lower()


class Grant(StrEnum):
    """What a user limited to some DMOs may see beyond them (a user of every DMO sees it all)."""
    HOTELS = "hotels"  # the hotel pages (hotel pairs): hotels belong to no DMO

    @classmethod
    def named(cls, name: str) -> Grant:
        try:
            return cls(name.strip().lower())
        except ValueError:
            raise UserError(f"unknown grant {name[:40]!r}: {', '.join(cls)}") from None


class UserError(ValueError):
    """A person's mistake (bad name, role, DMO, weak password): one line."""


@dataclass(frozen=True)
class User:
    id: int
    name: str
    role: Role
    dmos: tuple[str, ...]  # empty: every DMO
    grants: frozenset[Grant] = frozenset()
    session_version: int = 1  # a session of an older version is over

    def can(self, role: Role) -> bool:
        """Sales: the sales user and admins; a listings role: that role or a higher one, never sales."""
        if role is Role.SALES:
            return self.role in (Role.SALES, Role.ADMIN)
        return self.role is not Role.SALES and self.role >= role

    @property
    def sees_leads(self) -> bool:
        """The leads pages read: sales, and every listings user of every DMO (or with the hotels grant)."""
        return self.role is Role.SALES or self.sees_hotels

    def sees_dmo(self, slug: str) -> bool:
        return not self.dmos or slug in self.dmos

    @property
    def sees_hotels(self) -> bool:
        return not self.dmos or Grant.HOTELS in self.grants

    @property
    def dmo_filter(self) -> list[str] | None:
        """The DMO slugs its queries are limited to (None: all), as the SQL's %(dmos)s."""
        return list(self.dmos) or None


def _user(row: dict) -> User:
    grants = frozenset(Grant(g) for g in row.get("grants") or () if g in set(Grant))
    return User(row["id"], row["name"], Role.named(row["role"]), tuple(row["dmos"] or ()), grants,
                row.get("session_version", 1))


def add_user(conn: psycopg.Connection, name: str, password: str | None, role: str, dmos: Sequence[str] = (),
             grants: Sequence[str] = ()) -> User:
    """Creates the user, or replaces the role, DMOs and grants of an existing one, and its password
    when one is given (none: the password is kept). A new password, or a change of access, ends the
    user's sessions."""
    if not NAME.fullmatch(name):
        raise UserError(f"bad user name {name[:40]!r}: letters, digits and . _ @ - (at most 63)")
    level = Role.named(role)
    if level is Role.SALES and dmos:
        raise UserError("a sales user sees leads, not DMOs: give it no DMOs")
    unknown = [r[0] for r in conn.execute(sql("users", "unknown_dmos"), {"dmos": list(dmos)})]
    if unknown:
        raise UserError(f"no DMO {', '.join(map(repr, unknown))}")
    params = {"name": name, "role": level.label, "dmos": sorted(set(dmos)),
              "grants": sorted({Grant.named(g).value for g in grants})}
    if password:
        problem = password_problem(password, name)
        if problem:
            raise UserError(problem)
        found = conn.execute(sql("users", "add"), {**params, "hash": _HASHER.hash(password)}).fetchone()
    else:
        found = conn.execute(sql("users", "change"), params).fetchone()
        if found is None:
            raise UserError(f"{name} is a new user: give a password")
    return User(found[0], name, level, tuple(params["dmos"]), frozenset(map(Grant, params["grants"])), found[1])


def list_users(conn: psycopg.Connection) -> list[dict]:
    return rows(conn, "users", "list")


def remove_user(conn: psycopg.Connection, name: str) -> None:
    if conn.execute(sql("users", "remove"), {"name": name}).fetchone() is None:
        raise UserError(f"no user {name[:40]!r}")


def get_user(conn: psycopg.Connection, user_id: int) -> User | None:
    row = one(conn, "users", "by_id", {"id": user_id})
    return _user(row) if row else None


def user_named(conn: psycopg.Connection, name: str) -> User | None:
    row = one(conn, "users", "by_name", {"name": name})
    return _user(row) if row else None


def authenticate(conn: psycopg.Connection, name: str, password: str) -> User | None:
    """The user when the password is theirs, else None (an unknown name costs the same time)."""
    row = one(conn, "users", "by_name", {"name": name})
    try:
        _HASHER.verify(row["password_hash"] if row else _DUMMY_HASH, password)
    except (VerificationError, InvalidHashError):
        return None
    if row is None:
        return None
    if _HASHER.check_needs_rehash(row["password_hash"]):
        conn.execute(sql("users", "rehash"), {"id": row["id"], "hash": _HASHER.hash(password)})
    return _user(row)


@dataclass(frozen=True)
class ApiKey:
    id: int
    name: str
    requests_per_minute: int
    dmo: str | None = None     # the DMO whose listings it reads; None: every DMO (the company's own apps)
    dmo_id: int | None = None


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def add_api_key(conn: psycopg.Connection, name: str, requests_per_minute: int = 600, dmo: str | None = None) -> str:
    """A new key for `name` (shown once: only its digest is stored), reading one DMO's listings
    (`dmo`, a slug) or every DMO's (None)."""
    if not NAME.fullmatch(name):
        raise UserError(f"bad key name {name[:40]!r}: letters, digits and . _ @ - (at most 63)")
    dmo = (dmo or "").strip() or None
    if dmo is not None and [r[0] for r in conn.execute(sql("users", "unknown_dmos"), {"dmos": [dmo]})]:
        raise UserError(f"no DMO {dmo[:40]!r}")
    key = "sk_" + secrets.token_urlsafe(32)
    try:
        conn.execute(sql("users", "add_key"), {"name": name, "hash": _digest(key), "rpm": requests_per_minute,
                                               "dmo": dmo})
    except psycopg.errors.UniqueViolation:
        raise UserError(f"an API key named {name!r} exists; revoke it first or choose another name") from None
    return key


def list_api_keys(conn: psycopg.Connection) -> list[dict]:
    return rows(conn, "users", "list_keys")


def replace_api_key(conn: psycopg.Connection, name: str, dmo: str | None = None) -> str:
    """A new key under `name`, the old one (live or revoked) gone: the demo's key on every run."""
    conn.execute(sql("users", "forget_key"), {"name": name})
    return add_api_key(conn, name, dmo=dmo)


def revoke_api_key(conn: psycopg.Connection, name: str) -> None:
    if conn.execute(sql("users", "revoke_key"), {"name": name}).fetchone() is None:
        raise UserError(f"no live API key {name[:40]!r}")


def api_key(conn: psycopg.Connection, key: str) -> ApiKey | None:
    row = one(conn, "users", "key_by_hash", {"hash": _digest(key)})
    return ApiKey(row["id"], row["name"], row["requests_per_minute"], row["dmo"], row["dmo_id"]) if row else None
