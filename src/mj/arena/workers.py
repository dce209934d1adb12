"""The arena's worker processes: each plays one game at a time, and one that dies ends the run naming its game.

``multiprocessing.Pool`` waits for ever for the result of a worker that died (killed,
a crash in a compiled module, a task it could not unpickle): the arena hung without a
word. Here every worker has a pipe of its own and the parent waits on the pipes and on
the processes' sentinels together, so a death is seen at once, and the parent knows
which game it had given that worker. A game travels pickled and the worker unpickles it
itself, so one it cannot read is reported as such instead of killing the worker.

An exception a game raises in a worker (a fault: :class:`~mj.arena.game.GameError`, or
a bug) is raised again in the parent, its traceback in the worker attached as its cause,
as ``multiprocessing.Pool`` does.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import pickle
import signal
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from types import TracebackType
from typing import Any, Generic, TypeVar

from mj.arena.game import GameError, GameSetup

_Result = TypeVar("_Result")

#: What a worker is sent to stop: it then returns, and its process ends.
_STOP = b""
#: The worker's replies: ``(_DONE, result)``, ``(_RAISED, exception, traceback)``, ``(_UNREADABLE, why)``.
_DONE, _RAISED, _UNREADABLE = "done", "raised", "unreadable"
#: Seconds a stopped worker is given to end before it is terminated.
_GRACE = 5.0


class WorkerError(GameError):
    """A game that a worker process could not play: it died, or the game could not travel to it or back."""


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker process (the cause of the one raised again here)."""

    def __str__(self) -> str:
        return str(self.args[0])


def _serve(play: Callable[[GameSetup], object], connection: Connection) -> None:
    """A worker's life: play each game sent until told to stop, or until the parent is gone (killed)."""
    # Ctrl-C reaches the whole process group: the parent stops its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    watched: list[Connection | int] = [connection] if parent is None else [connection, parent.sentinel]
    while connection in wait(watched) and (task := connection.recv_bytes()) != _STOP:
        try:
            connection.send_bytes(_answer(play, task))
        except OSError:  # the parent is gone
            return


def _answer(play: Callable[[GameSetup], object], task: bytes) -> bytes:
    """The reply to a game sent pickled: its result, the exception it raised, or why it could not be read."""
    try:
        setup = pickle.loads(task)
    except Exception as exc:
        return pickle.dumps((_UNREADABLE, _one_line(exc)))
    trace = ""
    try:
        reply: tuple[Any, ...] = (_DONE, play(setup))
    except Exception as exc:
        trace = traceback.format_exc()
        reply = (_RAISED, exc, trace)
    try:
        return pickle.dumps(reply)
    except Exception as exc:  # a result or exception that does not pickle: say so in words
        return pickle.dumps((_RAISED, RuntimeError(f"cannot send back {reply[1]!r}: {_one_line(exc)}"), trace))


def _one_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".partition("\n")[0]


@dataclass(slots=True)
class _Worker:
    process: BaseProcess
    connection: Connection
    #: The game it is playing, None while idle.
    game: GameSetup | None = None


class Workers(Generic[_Result]):
    """``jobs`` worker processes playing games with ``play``, started on entering, stopped on leaving.

    All are started on entering, never later, so a thread the caller starts afterwards
    (the progress display) is never copied into a forked worker.
    """

    def __init__(self, play: Callable[[GameSetup], _Result], jobs: int):
        self._play = play
        self._jobs = jobs
        self._workers: list[_Worker] = []

    def __enter__(self) -> Workers[_Result]:
        context = multiprocessing.get_context()
        try:
            for _ in range(self._jobs):
                ours, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(self._play, theirs), daemon=True)
                process.start()
                theirs.close()
                self._workers.append(_Worker(process, ours))
        except BaseException:
            self._stop(at_once=True)
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._stop(at_once=exc is not None)

    def results(self, setups: Iterable[GameSetup]) -> Iterator[_Result]:
        """The result of every game, in the order they finish; :class:`WorkerError` if a worker dies."""
        waiting = iter(setups)
        for worker in self._workers:
            self._give(worker, waiting)
        while busy := [w for w in self._workers if w.game is not None]:
            ready = set(wait([w.connection for w in busy] + [w.process.sentinel for w in busy]))
            for worker in busy:
                if worker.connection in ready or worker.process.sentinel in ready:
                    yield self._reply(worker)
                    self._give(worker, waiting)

    def _give(self, worker: _Worker, waiting: Iterator[GameSetup]) -> None:
        game = next(waiting, None)
        if game is None:
            return
        worker.game = game
        try:
            worker.connection.send_bytes(pickle.dumps(game))
        except OSError:  # it died while idle
            raise self._died(worker) from None

    def _reply(self, worker: _Worker) -> _Result:
        """The result of the game ``worker`` finished (or the exception it raised there)."""
        game = worker.game
        assert game is not None
        try:
            data = worker.connection.recv_bytes()
        except (EOFError, OSError):
            raise self._died(worker) from None
        worker.game = None
        try:
            reply = pickle.loads(data)
        except Exception as exc:
            raise WorkerError(f"{_name(game)}: cannot read its result back: {_one_line(exc)}") from None
        if reply[0] == _DONE:
            result: _Result = reply[1]
            return result
        if reply[0] == _UNREADABLE:
            raise WorkerError(f"{_name(game)}: the worker process cannot read the game: {reply[1]}")
        raise reply[1] from RemoteTraceback(reply[2])

    @staticmethod
    def _died(worker: _Worker) -> WorkerError:
        worker.process.join(_GRACE)
        code = worker.process.exitcode
        if code is None:
            how = "it stopped answering"
        elif code < 0:
            how = f"killed by {signal.Signals(-code).name}"
        else:
            how = f"exit status {code}"
        assert worker.game is not None
        return WorkerError(f"{_name(worker.game)}: the worker process given it died ({how})")

    def _stop(self, at_once: bool) -> None:
        """Stop every worker: at once after an error (their games are of no use), else when idle."""
        for worker in self._workers:
            if at_once:
                worker.process.terminate()
            else:
                with contextlib.suppress(OSError):  # it has already ended
                    worker.connection.send_bytes(_STOP)
        for worker in self._workers:
            worker.process.join(_GRACE)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.connection.close()
        self._workers.clear()


def _name(game: GameSetup) -> str:
    return f"seed {game.seed} rotation {game.rotation}"
