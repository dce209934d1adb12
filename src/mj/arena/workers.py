"""The arena's worker processes: each plays one game at a time, and one that dies ends the run naming the games.

``multiprocessing.Pool`` waits for ever for the result of a worker that died (killed,
a crash in a compiled module, a task it could not unpickle): the arena hung without a
word. :class:`concurrent.futures.ProcessPoolExecutor` notices a death and fails every
game in flight instead; no more games than workers are ever in flight here, so the
error can name the games one of which the dead worker held. A game travels pickled
and the worker unpickles it itself, so one it cannot read is reported as such instead
of killing the worker.

An exception a game raises in a worker (a fault: :class:`~mj.arena.game.GameError`, or
a bug) is raised again in the parent, its traceback in the worker attached as its cause.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import connection
from types import TracebackType
from typing import Generic, TypeVar

from mj.arena.game import GameError, GameSetup

_Result = TypeVar("_Result")


class WorkerError(GameError):
    """A game that a worker process could not play: it died, or the game could not travel to it."""


class _Unreadable(Exception):
    """A worker could not unpickle the game it was sent (the parent names the game)."""


def _start_worker() -> None:
    """Ctrl-C reaches the whole process group: the parent stops its workers itself; a worker
    whose parent was killed ends too, instead of waiting for games for ever. A worker is forked
    with Ctrl-C blocked (:meth:`Workers.__enter__`) and lets it through only once it ignores it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent.sentinel,), daemon=True).start()


def _end_with(parent: int) -> None:
    connection.wait([parent])
    os._exit(1)


def _play_pickled(play: Callable[[GameSetup], _Result], task: bytes) -> _Result:
    try:
        setup = pickle.loads(task)
    except Exception as exc:
        raise _Unreadable(f"{type(exc).__name__}: {exc}".partition("\n")[0]) from None
    return play(setup)


class Workers(Generic[_Result]):
    """``jobs`` worker processes playing games with ``play``, started on entering, stopped on leaving.

    All are started on entering, never later, so a thread the caller starts afterwards
    (the progress display) is never copied into a forked worker.
    """

    def __init__(self, play: Callable[[GameSetup], _Result], jobs: int):
        self._play = play
        self._jobs = jobs
        self._pool = ProcessPoolExecutor(jobs, initializer=_start_worker)

    def __enter__(self) -> Workers[_Result]:
        # The executor starts its processes with its first task (all of them at once where
        # it forks): start them now. A Ctrl-C that reached a worker before it could ignore
        # it killed that worker and left the run waiting for ever, so they are forked with it
        # blocked; one meanwhile reaches the parent once they are started.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self._pool.submit(int).result()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        # After an error the games still in flight (one a worker at most) are let finish.
        self._pool.shutdown(wait=True, cancel_futures=True)

    def results(self, setups: Iterable[GameSetup]) -> Iterator[_Result]:
        """The result of every game, in the order they finish; :class:`WorkerError` if a worker dies."""
        waiting = iter(setups)
        flying: dict[Future[_Result], GameSetup] = {}
        while True:
            while len(flying) < self._jobs and (game := next(waiting, None)) is not None:
                flying[self._pool.submit(_play_pickled, self._play, pickle.dumps(game))] = game
            if not flying:
                return
            done, _ = wait(flying, return_when=FIRST_COMPLETED)
            for future in done:
                game = flying.pop(future)
                try:
                    yield future.result()
                except _Unreadable as exc:
                    raise WorkerError(f"{_name(game)}: the worker process cannot read the game: {exc}") from None
                except BrokenProcessPool:
                    games = sorted([game, *flying.values()], key=_order)
                    which = "it" if len(games) == 1 else "one of them"
                    named = " or ".join(map(_name, games))
                    raise WorkerError(f"{named}: the worker process playing {which} died") from None


def _order(game: GameSetup) -> tuple[int, int]:
    return game.seed, game.rotation


def _name(game: GameSetup) -> str:
    return f"seed {game.seed} rotation {game.rotation}"
