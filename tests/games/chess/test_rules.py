"""Chess rules through our Game API: perft, notation, endings, claims and JSON (games/chess/rules.py)."""

from __future__ import annotations

import json

import chess
import pytest

from games import IllegalMove, registry
from games.chess import CHESS, ChessState, perft

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def play(*moves: str, state: ChessState | None = None) -> ChessState:
    state = state or CHESS.initial_state()
    for move in moves:
        state = CHESS.play(state, move)
    return state


def test_chess_is_registered_with_white_first() -> None:
    assert registry.get("chess") is CHESS
    assert [seat.name for seat in CHESS.spec.seats] == ["white", "black"]
    assert CHESS.to_move(CHESS.initial_state()) == 0


@pytest.mark.parametrize(("depth", "nodes"), [(1, 20), (2, 400), (3, 8_902), (4, 197_281)])
def test_perft_from_the_start(depth: int, nodes: int) -> None:
    assert perft(CHESS, CHESS.initial_state(), depth) == nodes


@pytest.mark.parametrize(("depth", "nodes"), [(1, 48), (2, 2_039), (3, 97_862)])
def test_perft_from_kiwipete(depth: int, nodes: int) -> None:
    assert perft(CHESS, CHESS.from_fen(KIWIPETE), depth) == nodes


@pytest.mark.slow
def test_perft_from_kiwipete_depth_four() -> None:
    assert perft(CHESS, CHESS.from_fen(KIWIPETE), 4) == 4_085_603


@pytest.mark.parametrize(
    ("fen", "depth", "nodes"),
    [  # the chessprogramming wiki's positions 3 and 4: en passant pins, promotions, castling through check
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43_238),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 9_467),
    ],
)
def test_perft_from_tricky_positions(fen: str, depth: int, nodes: int) -> None:
    assert perft(CHESS, CHESS.from_fen(fen), depth) == nodes


def test_moves_are_uci_and_san_is_accepted() -> None:
    start = CHESS.initial_state()
    assert "e2e4" in CHESS.legal_moves(start)
    assert CHESS.canonical_move(start, "Nf3") == "g1f3"
    assert CHESS.canonical_move(start, "e4") == "e2e4"
    assert CHESS.canonical_move(start, " e2e4 ") == "e2e4"
    for junk in ["e2e5", "Nf6", "O-O", "--", "0000", "Ke2", "e1g1", "", "Z0"]:
        with pytest.raises(IllegalMove):
            CHESS.canonical_move(start, junk)


def test_castling_promotion_and_en_passant_in_both_notations() -> None:
    castle = CHESS.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert CHESS.canonical_move(castle, "O-O") == "e1g1"
    assert CHESS.canonical_move(castle, "0-0-0") == "e1c1"
    assert CHESS.move_notation(castle, "e1c1") == "O-O-O"
    promote = CHESS.from_fen("3r3k/4P3/8/8/8/8/8/K7 w - - 0 1")
    assert CHESS.canonical_move(promote, "exd8=Q+") == "e7d8q"
    assert CHESS.canonical_move(promote, "e7d8n") == "e7d8n"
    assert CHESS.move_notation(promote, "e7d8q") == "exd8=Q+"
    assert {m for m in CHESS.legal_moves(promote) if m.startswith("e7d8")} == {"e7d8q", "e7d8r", "e7d8b", "e7d8n"}
    passant = play("e2e4", "a7a6", "e4e5", "d7d5")
    assert CHESS.to_json(passant)["ep"] == "d6"
    assert CHESS.canonical_move(passant, "exd6") == "e5d6"
    taken = CHESS.play(passant, "e5d6")
    assert CHESS.to_json(taken)["captured"] == {"white": ["p"], "black": []}


def test_captured_pieces_leave_promoted_pawns_out() -> None:
    # White has two queens (a pawn promoted) and seven pawns; black lost a rook and two pawns.
    state = CHESS.from_fen("1nbqkbn1/pppppp2/8/8/8/8/PPPPPPP1/RNBQKBNQ b - - 0 30")
    data = CHESS.to_json(state)
    assert data["captured"] == {"white": ["p", "p", "r", "r"], "black": ["R"]}
    assert data["material"] == 42 - 27  # R N N B B Q Q 7P against N N B B Q 6P


def test_ambiguous_san_is_refused_with_a_hint() -> None:
    state = CHESS.from_fen("k7/8/8/8/8/8/8/KN3N2 w - - 0 1")
    with pytest.raises(IllegalMove, match="ambiguous"):
        CHESS.canonical_move(state, "Nd2")
    assert CHESS.canonical_move(state, "Nbd2") == "b1d2"


def test_illegal_moves_say_why() -> None:
    pinned = CHESS.from_fen("4r2k/8/8/8/8/8/4B3/4K3 w - - 0 1")
    with pytest.raises(IllegalMove, match="check"):
        CHESS.play(pinned, "e2d3")
    with pytest.raises(IllegalMove, match="no white piece on e4"):
        CHESS.play(CHESS.initial_state(), "e4e5")


def test_san_notation_marks_check_and_mate() -> None:
    state = play("f2f3", "e7e5", "g2g4")
    assert CHESS.move_notation(state, "d8h4") == "Qh4#"
    mated = CHESS.play(state, "d8h4")
    outcome = CHESS.outcome(mated)
    assert (outcome.winner, outcome.reason, outcome.returns) == (1, "checkmate", (-1.0, 1.0))
    assert CHESS.legal_moves(mated) == []
    assert CHESS.to_json(mated)["check"] == "e1"


@pytest.mark.parametrize(
    ("fen", "reason"),
    [
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate"),
        ("7k/8/6K1/8/8/8/8/5B2 b - - 0 1", "insufficient material"),
        ("7k/8/6K1/8/8/8/8/1R6 b - - 150 120", "75-move rule"),
    ],
)
def test_automatic_draws(fen: str, reason: str) -> None:
    state = CHESS.from_fen(fen)
    assert CHESS.is_terminal(state)
    assert CHESS.outcome(state).reason == reason and CHESS.outcome(state).winner is None


def test_mate_on_the_seventy_fifth_move_is_a_mate() -> None:
    state = CHESS.from_fen("7k/8/6K1/8/8/8/8/1R6 w - - 149 120")
    assert not CHESS.is_terminal(state)
    assert CHESS.outcome(CHESS.play(state, "b1b8")).reason == "checkmate"


KNIGHT_SHUFFLE = ["g1f3", "g8f6", "f3g1", "f6g8"]


def test_threefold_is_claimable_and_fivefold_ends_the_game() -> None:
    state = CHESS.initial_state()
    assert CHESS.claimable_draw(state) is None
    state = play(*KNIGHT_SHUFFLE, state=state)
    assert state.repetitions == 2 and CHESS.claimable_draw(state) is None
    state = play(*KNIGHT_SHUFFLE, state=state)
    assert state.repetitions == 3 and CHESS.claimable_draw(state) == "threefold repetition"
    assert not CHESS.is_terminal(state)
    state = play(*KNIGHT_SHUFFLE, *KNIGHT_SHUFFLE, state=state)
    assert CHESS.is_terminal(state) and CHESS.outcome(state).reason == "fivefold repetition"
    assert CHESS.claimable_draw(state) is None


def test_repetition_needs_the_same_rights() -> None:
    # The king walks out and back: same pieces, but castling rights are gone, so no repetition.
    state = play("e2e4", "e7e5", "e1e2", "e8e7", "e2e1", "e7e8")
    assert state.repetitions == 1
    state = play("e1e2", "e8e7", "e2e1", "e7e8", "e1e2", "e8e7", "e2e1", "e7e8", state=state)
    assert state.repetitions == 3


def test_a_capture_clears_the_history() -> None:
    state = play(*KNIGHT_SHUFFLE, "e2e4", "d7d5")
    assert state.history == ()
    assert len(CHESS.play(state, "g1f3").history) == 1


def test_fifty_move_rule_is_claimable() -> None:
    state = CHESS.from_fen("7k/8/6K1/8/8/8/8/1R6 w - - 99 80")
    assert CHESS.claimable_draw(state) is None
    assert CHESS.claimable_draw(CHESS.play(state, "b1b2")) == "50-move rule"


def test_json_is_what_the_board_draws_and_round_trips() -> None:
    state = play(*KNIGHT_SHUFFLE, "e2e4")
    data = json.loads(json.dumps(CHESS.to_json(state)))
    assert data["fen"] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
    assert data["board"][0] == list("rnbqkbnr")
    assert data["board"][4] == [None] * 4 + ["P"] + [None] * 3
    assert (data["turn"], data["check"], data["castling"], data["ep"]) == (1, None, "KQkq", None)
    assert (data["halfmove"], data["fullmove"], data["material"]) == (0, 3, 0)
    assert CHESS.from_json(data) == state
    shuffled = play(*KNIGHT_SHUFFLE)
    restored = CHESS.from_json(json.loads(json.dumps(CHESS.to_json(shuffled))))
    assert restored == shuffled and restored.repetitions == 2
    assert CHESS.key(restored) == CHESS.key(CHESS.initial_state())


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"fen": 3},
        {"fen": "not a fen"},
        {"fen": "8/8/8/8/8/8/8/8 w - - 0 1"},  # no kings
        {"fen": "x" * 500},
        {"fen": chess.STARTING_FEN, "history": ["w:0:-:0:0:0:0:0:0:0:0"]},  # more history than the clock allows
        {"fen": "7k/8/6K1/8/8/8/8/1R6 w - - 9 80", "history": ["nonsense"]},
        {"fen": "7k/8/6K1/8/8/8/8/1R6 w - - 9 80", "history": "w"},
    ],
)
def test_from_json_refuses_what_is_not_a_position(data: dict) -> None:
    with pytest.raises(ValueError):
        CHESS.from_json(data)


def test_the_key_is_the_polyglot_zobrist_hash() -> None:
    # The published Polyglot key of the position after 1.e4 (python-chess and the Polyglot spec).
    assert CHESS.key(play("e2e4")) == 0x823C9B50FD114196


def test_pgn_of_a_game() -> None:
    assert CHESS.standard_notation(["f2f3", "e7e5", "g2g4", "d8h4"]) == ("pgn", "1. f3 e5 2. g4 Qh4# 0-1")
    assert CHESS.standard_notation(["e2e4", "e7e5", "g1f3"]) == ("pgn", "1. e4 e5 2. Nf3 *")
    assert CHESS.standard_notation([]) == ("pgn", "*")
    assert CHESS.standard_notation(["e2e5"]) is None


def test_the_position_notation_is_the_fen() -> None:
    assert CHESS.position_notation(CHESS.initial_state()) == chess.STARTING_FEN
    # An en passant square only where the capture is legal, as python-chess writes it.
    assert CHESS.position_notation(play("e2e4")).split()[3] == "-"
    en_passant = play("e2e4", "a7a6", "e4e5", "d7d5")
    assert CHESS.position_notation(en_passant) == "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"
    kiwipete = CHESS.from_fen(KIWIPETE)
    for move in ["e1g1", "a6e2", "f3e2", "h3g2", "e2g4", "g2f1q"]:
        assert CHESS.position_notation(kiwipete) == kiwipete.board.fen()
        kiwipete = CHESS.apply(kiwipete, move)
    assert CHESS.position_notation(kiwipete) == "r3k2r/p1ppqpb1/1n2pnp1/3PN3/1p2P1Q1/2N5/PPPB1P1P/R4qK1 w kq - 0 4"
