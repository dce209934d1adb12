"""Growing delays after failed passwords (``--auth-basic``), per address and per player id; rate limits.

Every failure doubles the wait before the next attempt from the same address, or
for the same id, is checked, up to a cap; a success does not reset it (a guesser
succeeding once learns nothing more), time does: a key not failing for
:data:`FORGET_AFTER` seconds starts again from the first delay. The server holds
back a locked attempt's ``AuthInfo`` until the wait is over rather than refusing
it, so that the rightful player, too, only waits.

Keys are kept for the most recently failing :data:`MAX_KEYS` addresses and ids,
so that a flood of addresses cannot fill the memory.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Final

#: The wait after the first failure, in seconds; each further failure doubles it.
FIRST_DELAY: Final = 0.5
#: The longest wait.
MAX_DELAY: Final = 30.0
#: A key that has not failed for this long is forgotten.
FORGET_AFTER: Final = 600.0
#: How many keys are remembered at most (the oldest failures are forgotten first).
MAX_KEYS: Final = 4096


@dataclass(slots=True)
class _Record:
    failures: int
    #: Until when attempts under this key wait (loop time).
    until: float
    last: float


class AuthPenalties:
    """Failure counts and the time each key is locked until."""

    def __init__(self, first: float = FIRST_DELAY, cap: float = MAX_DELAY) -> None:
        self.first = first
        self.cap = cap
        self._records: OrderedDict[Hashable, _Record] = OrderedDict()

    def failed(self, keys: tuple[Hashable, ...], now: float) -> tuple[int, float]:
        """Record a failure under every key: the largest failure count and the wait it now imposes."""
        worst = 0
        for key in keys:
            record = self._records.pop(key, None)
            if record is None or now - record.last > FORGET_AFTER:
                record = _Record(0, now, now)
            record.failures += 1
            record.last = now
            record.until = now + min(self.cap, self.first * 2 ** min(record.failures - 1, 32))
            self._records[key] = record
            worst = max(worst, record.failures)
        while len(self._records) > MAX_KEYS:
            self._records.popitem(last=False)
        return worst, self.wait(keys, now)

    def wait(self, keys: tuple[Hashable, ...], now: float) -> float:
        """Seconds an attempt under ``keys`` must still wait (0: it may be checked now)."""
        longest = 0.0
        for key in keys:
            record = self._records.get(key)
            if record is not None:
                longest = max(longest, record.until - now)
        return longest


class RateLimit:
    """A token bucket: ``burst`` actions at once, then ``rate`` a second (one client's chat lines or saves)."""

    __slots__ = ("_last", "_tokens", "burst", "rate")

    def __init__(self, burst: float, rate: float, now: float) -> None:
        self.burst = burst
        self.rate = rate
        self._tokens = burst
        self._last = now

    def take(self, now: float) -> bool:
        """Whether one more action is allowed at ``now`` (it is then counted)."""
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True
