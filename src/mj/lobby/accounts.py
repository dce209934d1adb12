"""Accounts: registering, logging in and out, and who a request comes from.

Passwords are hashed with Argon2id (argon2-cffi, its default cost) in a worker
thread, so hashing never stalls the tables; only the hash is stored, and neither the
password nor the hash is ever logged. A login gives the browser a random session
token in an HttpOnly, SameSite=Lax cookie; the database keeps only the token's
SHA-256, so a copy of the database opens no session. Attempts to register or log in
are limited per client address and per account name (:class:`RateLimit`).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import re
import secrets
import time
import unicodedata
from collections import deque
from dataclasses import dataclass
from datetime import timedelta
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, or_, select
from sqlalchemy.exc import IntegrityError

from mj.lobby.models import Account, LoginSession
from mj.lobby.store import Store, now

COOKIE: Final = "mj_session"
SESSION_DAYS: Final = 30
#: The cookie holding a guest's key: a random token, like a session's, that binds the seats the guest takes to
#: this browser (their name, listed publicly, does not; :meth:`mj.lobby.play.TablePlay.holds`). It lasts as long
#: as a session; the database keeps only its SHA-256.
GUEST_COOKIE: Final = "mj_guest"
#: What :func:`secrets.token_urlsafe` makes of 32 bytes: the only guest keys the lobby takes from a browser.
_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{43}")
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 200
#: Names people are known by: letters, digits, space, ``_`` and ``-``; ``Robot...`` is kept for the robots.
NAME: Final = re.compile(r"[^\W][\w -]{0,29}")
#: Alphabets whose letters look alike (Latin ``a``, Cyrillic ``а``, Greek ``α``): a name writes in one of them at most.
LOOKALIKE_SCRIPTS: Final = frozenset({"LATIN", "GREEK", "CYRILLIC"})
#: Attempts allowed per client address or account name, per window.
ATTEMPTS: Final = 10
WINDOW_SECONDS: Final = 300.0
#: Clients and names remembered by the rate limit at most (the oldest are forgotten first).
MAX_TRACKED: Final = 10_000

_hasher: Final = PasswordHasher()


class AccountError(ValueError):
    """A request about an account that cannot be carried out; the message says why."""


class TooManyAttempts(AccountError):
    pass


@dataclass(frozen=True, slots=True)
class Who:
    id: int
    name: str


def check_name(name: object) -> str:
    """A name a person may play under (a guest's or an account's), in NFKC form (a full-width ``Ａnn`` is
    ``Ann``); :class:`AccountError` if not."""
    if isinstance(name, str):
        name = unicodedata.normalize("NFKC", name.strip())
    if not isinstance(name, str) or not NAME.fullmatch(name) or name.endswith(" "):
        raise AccountError("a name is 1 to 30 letters, digits, spaces, '_' or '-', starting with a letter or digit")
    if name_key(name).startswith("robot"):
        raise AccountError("names starting with 'Robot' are kept for the robots")
    scripts = {unicodedata.name(c, "").split(" ", 1)[0] for c in name if c.isalpha()} & LOOKALIKE_SCRIPTS
    if len(scripts) > 1:
        raise AccountError(
            f"a name's letters are of one alphabet, not {' and '.join(s.title() for s in sorted(scripts))}"
        )
    return name


def name_key(name: str) -> str:
    """What names that look alike have in common (``Ann``, ``ann``, ``ANN``): no two accounts share it."""
    return unicodedata.normalize("NFKC", name).casefold()


def _check_password(password: object) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return password


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def guest_key(cookie: str | None) -> str:
    """This browser's guest key: the one its cookie holds, else a new one (for a cookie of no lobby's making too)."""
    return cookie if cookie is not None and _TOKEN.fullmatch(cookie) else secrets.token_urlsafe(32)


class RateLimit:
    """At most :data:`ATTEMPTS` per key in any :data:`WINDOW_SECONDS`, in memory and bounded."""

    def __init__(self, attempts: int = ATTEMPTS, window: float = WINDOW_SECONDS) -> None:
        self.attempts = attempts
        self.window = window
        self._seen: dict[str, deque[float]] = {}

    def allow(self, *keys: str) -> bool:
        """Count one attempt under each key; False if any key is over its limit (then nothing is counted)."""
        moment = time.monotonic()
        recent = []
        for key in keys:
            times = self._seen.get(key, deque())
            while times and moment - times[0] > self.window:
                times.popleft()
            if len(times) >= self.attempts:
                return False
            recent.append((key, times))
        for key, times in recent:
            times.append(moment)
            self._seen.pop(key, None)
            self._seen[key] = times  # most recently used last
        while len(self._seen) > MAX_TRACKED:
            del self._seen[next(iter(self._seen))]
        return True


class Accounts:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.limit = RateLimit()

    def _attempt(self, client: str, name: str) -> None:
        if not self.limit.allow(f"client:{client}", f"name:{name.lower()}"):
            raise TooManyAttempts("too many attempts: wait a few minutes")

    async def register(self, client: str, name: object, password: object) -> tuple[Who, str]:
        """A new account, logged in: who it is and its session token."""
        checked = check_name(name)
        secret = _check_password(password)
        self._attempt(client, checked)
        hashed = await asyncio.get_running_loop().run_in_executor(None, _hasher.hash, secret)
        try:
            with self.store.session() as s, s.begin():
                account = Account(name=checked, name_key=name_key(checked), password_hash=hashed, created_at=now())
                s.add(account)
        except IntegrityError:
            raise AccountError(f"the name {checked!r} is taken (or one that differs only in case)") from None
        who = Who(account.id, account.name)
        return who, self._open_session(who)

    async def login(self, client: str, name: object, password: object) -> tuple[Who, str]:
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > MAX_PASSWORD:
            raise AccountError("wrong name or password")
        typed = name.strip()
        if not NAME.fullmatch(typed):  # no account's name: not worth an attempt, nor a key the rate limit keeps
            raise AccountError("wrong name or password")
        self._attempt(client, typed)
        with self.store.session() as s:  # the name as typed, else its NFKC form (a full-width Ａnn is Ann)
            named = s.scalars(select(Account).where(Account.name.in_({typed, unicodedata.normalize("NFKC", typed)})))
            account = min(named.all(), key=lambda a: a.name != typed, default=None)
        stored = account.password_hash if account is not None else _dummy_hash()
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(None, _hasher.verify, stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            raise AccountError("wrong name or password") from None
        if account is None:
            raise AccountError("wrong name or password")
        if _hasher.check_needs_rehash(stored):
            rehashed = await loop.run_in_executor(None, _hasher.hash, password)
            with self.store.session() as s, s.begin():
                found = s.get(Account, account.id)
                if found is not None:
                    found.password_hash = rehashed
        who = Who(account.id, account.name)
        return who, self._open_session(who)

    def _open_session(self, who: Who) -> str:
        token = secrets.token_urlsafe(32)
        with self.store.session() as s, s.begin():
            s.execute(delete(LoginSession).where(LoginSession.expires_at <= now()))  # the expired ones are forgotten
            s.add(LoginSession(token_hash=token_hash(token), account_id=who.id,
                               expires_at=now() + timedelta(days=SESSION_DAYS)))  # fmt: skip
        return token

    def exists(self, name: str) -> bool:
        """Whether an account has this name, or one that differs from it only in case."""
        with self.store.session() as s:
            query = select(Account.id).where(or_(Account.name == name, Account.name_key == name_key(name)))
            return s.scalars(query).first() is not None

    def logout(self, token: str) -> None:
        with self.store.session() as s, s.begin():
            s.execute(delete(LoginSession).where(LoginSession.token_hash == token_hash(token)))

    def who(self, token: str | None) -> Who | None:
        """The account a session token belongs to, while the session lasts."""
        if not token or len(token) > 100:
            return None
        with self.store.session() as s:
            row = s.execute(
                select(Account.id, Account.name)
                .join(LoginSession, LoginSession.account_id == Account.id)
                .where(LoginSession.token_hash == token_hash(token), LoginSession.expires_at > now())
            ).first()
        return None if row is None else Who(row[0], row[1])


@functools.cache
def _dummy_hash() -> str:
    """A hash of no one's password, verified for unknown names so that they take as long as known ones."""
    return _hasher.hash(secrets.token_hex(16))
