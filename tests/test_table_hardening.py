"""What a hostile or careless client cannot do to the table: ids that collide or overflow, password probing."""

from __future__ import annotations

import pytest

from mj.protocol import cmsg as C
from mj.table import BAD_PLAYER_ID, MAX_PLAYER_ID, Table, TableSettings
from test_table import texts


def connect_three(table: Table) -> None:
    for connection in range(1, 4):
        table.receive(connection, f"Connect 1110 0 Robot{connection}")


@pytest.mark.parametrize("player", [-1, -2, MAX_PLAYER_ID + 1, 2**63, 10**30])
def test_a_connect_with_an_id_that_is_negative_or_beyond_32_bits_is_refused(player: int) -> None:
    table = Table(TableSettings(timeout=0, seed=7))
    assert texts(table.receive(1, f"Connect 1110 {player} Mallory")) == [(1, f"ConnectReply 1110 0 {BAD_PLAYER_ID}")]
    assert 1 in table.closing and not table.players


def test_id_0_still_asks_for_a_new_id_and_the_largest_id_is_accepted() -> None:
    table = Table(TableSettings(timeout=0, seed=7))
    assert texts(table.receive(1, "Connect 1110 0 Alice")) == [(1, "ConnectReply 1110 1 ")]
    assert texts(table.receive(2, f"Connect 1110 {MAX_PLAYER_ID} Bob"))[0] == (2, f"ConnectReply 1110 {MAX_PLAYER_ID} ")


def test_no_manager_cannot_be_bypassed_by_taking_the_no_manager_id() -> None:
    table = Table(TableSettings(timeout=0, seed=7, no_manager=True))
    connect_three(table)
    assert texts(table.receive(4, "Connect 1110 -1 Mallory")) == [(4, f"ConnectReply 1110 0 {BAD_PLAYER_ID}")]
    table.close(4)
    table.receive(5, "Connect 1110 0 Robot4")
    assert table.game is not None and all(p.id > 0 for p in table.players)
    out = table.receive(1, "SetGameOption NumRounds 2")
    assert [d.message for d in out if isinstance(d.message, C.GameOption)] == [], "nobody manages the game"
