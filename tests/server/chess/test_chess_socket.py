"""A chess draw claim and SAN moves over the match socket (docs/wire.md)."""

from __future__ import annotations

import pytest

from server.matches.models import Match
from server.players.services import player_create_guest_with_token
from tests.server.conftest import human_match
from tests.server.test_consumers import connect, receive_type

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("channel_layer")]

KNIGHT_SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]


@pytest.fixture
def chess_players(db):
    """A chess match between two guests: (match, Alice's token, Bob's token)."""
    (alice, alice_token), (bob, bob_token) = (
        player_create_guest_with_token("Alice"),
        player_create_guest_with_token("Bob"),
    )
    return human_match("chess", alice, bob), alice_token, bob_token


async def test_moves_in_san_then_a_threefold_claim(chess_players):
    match, alice_token, bob_token = chess_players
    white = await connect(f"/ws/matches/{match.pk}/", alice_token)
    await receive_type(white, "state")
    black = await connect(f"/ws/matches/{match.pk}/", bob_token)
    await receive_type(black, "state")
    sockets = (white, black)
    for ply, move in enumerate(KNIGHT_SHUFFLE * 2):
        await sockets[ply % 2].send_json_to({"type": "move", "move": move, "ply": ply})
        for socket in sockets:
            frame = await receive_type(socket, "move")
            assert frame["notation"] == move and frame["move"] in ("g1f3", "g8f6", "f3g1", "f6g8")
    assert frame["state"]["claimable_draw"] == "threefold repetition"
    await black.send_json_to({"type": "claim_draw"})
    assert (await receive_type(black, "error"))["code"] == "not_your_turn"
    await white.send_json_to({"type": "claim_draw", "why": "extra"})
    assert (await receive_type(white, "error"))["code"] == "bad_message"
    await white.send_json_to({"type": "claim_draw"})
    over = await receive_type(black, "game_over")
    assert over["result"]["reason"] == "threefold repetition" and over["result"]["winner"] is None
    assert over["status"] == Match.Status.FINISHED
    await white.disconnect()
    await black.disconnect()
