"""Chess in the match room: the board module boards/chess.js played against the real server.

Moves are made on the board as players make them (click-click, drag and drop, arrow keys
and Enter, typed SAN); python-chess, which the server's rules use too, only decides which
move the test plays against the random bot.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import chess
import chess.pgn
from playwright.sync_api import Page, expect

from tests.browser.helpers import start_bot_match

MY_TURN_OR_OVER = """() => {
  const room = document.getElementById('match-room');
  if (!room || room.dataset.ready !== 'true') return false;
  if (room.dataset.status === 'finished' || room.dataset.status === 'aborted') return true;
  return room.dataset.status === 'active' && room.dataset.connected === 'true'
    && room.dataset.toMove === room.dataset.yourSeat
    && document.querySelector('#board.interactive [data-square].movable') !== null;
}"""
PIECE_VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}


def friend_match(new_page, clock: str = "", viewport: dict[str, int] | None = None) -> tuple[Page, Page]:
    """Two people from the lobby: the host plays white, the friend joins by the invite link as black."""
    host = new_page("/", viewport=viewport)
    if clock:
        picker = host.locator('[data-testid="clock-chess"]')
        # A clock shorter than the lobby offers, which the API takes (0.25 min and up): a game that ends on time soon.
        picker.evaluate("(select, tc) => select.append(new Option(tc, tc))", clock)
        picker.select_option(clock)
    host.locator('[data-testid="play-friend-chess"]').click()
    host.wait_for_url(re.compile(r"/matches/\d+/$"))
    expect(host.locator("#match-room")).to_have_attribute("data-ready", "true")
    friend = new_page(host.locator("#invite-link").input_value(), viewport=viewport)
    friend.locator('[data-testid="join-button"]').click()
    expect(friend.locator("#match-room")).to_have_attribute("data-your-seat", "1")
    return host, friend


def expect_move_text(page: Page, san: str | re.Pattern[str], index: int = -1) -> None:
    """The move list shows the server's notation (SAN) of a move, the last one by default."""
    moves = page.locator("#move-list li.move .move-text")
    expect(moves.last if index == -1 else moves.nth(index)).to_have_text(san)


def wait_turn(page: Page, timeout: float = 20000) -> str:
    page.wait_for_function(MY_TURN_OR_OVER, timeout=timeout)
    return page.locator("#match-room").get_attribute("data-status")


def square(page: Page, name: str):
    return page.locator(f'#board [data-square="{name}"]')


def after_move(page: Page, ply: str) -> None:
    page.wait_for_function(
        f"() => document.getElementById('match-room').dataset.ply !== '{ply}'"
        " || document.getElementById('match-room').dataset.status !== 'active'"
    )


def click_move(page: Page, uci: str) -> None:
    ply = page.locator("#match-room").get_attribute("data-ply")
    square(page, uci[:2]).click()
    expect(square(page, uci[:2])).to_have_class(re.compile(r"\bselected\b"))
    square(page, uci[2:4]).click()
    if len(uci) == 5:
        page.locator(f'[data-testid="promotion-picker"] [data-promotion="{uci[4]}"]').click()
    after_move(page, ply)


def drag_move(page: Page, uci: str) -> None:
    """Press on the piece, move the pointer in steps to the target square, let go."""
    ply = page.locator("#match-room").get_attribute("data-ply")
    start = square(page, uci[:2]).bounding_box()
    end = square(page, uci[2:4]).bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    expect(page.locator("#board .piece.dragging")).to_have_count(1)  # the piece follows the pointer
    page.mouse.up()
    if len(uci) == 5:
        page.locator(f'[data-testid="promotion-picker"] [data-promotion="{uci[4]}"]').click()
    after_move(page, ply)


def type_move(page: Page, text: str) -> None:
    ply = page.locator("#match-room").get_attribute("data-ply")
    page.locator("#move-input").fill(text)
    page.locator("#move-input").press("Enter")
    after_move(page, ply)


def server_board(stack, match_id: int) -> chess.Board:
    return chess.Board(stack.api("GET", f"/api/matches/{match_id}/")["state"]["fen"])


def pick_move(board: chess.Board, rng: random.Random) -> chess.Move:
    """Mate when there is one; else the move that keeps the most material after the best reply."""

    def material(b: chess.Board) -> int:
        return sum(PIECE_VALUE[p.piece_type] * (1 if p.color == board.turn else -1) for p in b.piece_map().values())

    best, best_score = [], None
    for move in board.legal_moves:
        board.push(move)
        if board.is_checkmate():
            board.pop()
            return move
        if board.is_stalemate() or board.is_insufficient_material():
            score = -100  # a draw against a random mover is a waste
        else:
            score = min((_after(board, reply, material) for reply in board.legal_moves), default=material(board))
        board.pop()
        if best_score is None or score > best_score:
            best, best_score = [move], score
        elif score == best_score:
            best.append(move)
    return rng.choice(best)


def _after(board: chess.Board, reply: chess.Move, material) -> int:
    board.push(reply)
    score = -1000 if board.is_checkmate() else material(board)
    board.pop()
    return score


def test_a_full_game_against_the_random_bot(new_page, plyground, screenshot):
    page = new_page("/")
    match_id = start_bot_match(page, "chess", "chess-random")
    expect(page.locator("#board")).to_have_attribute("data-game", "chess")
    expect(page.locator("#board svg")).to_have_attribute("data-orientation", "white")
    wait_turn(page)
    expect(page.locator("#board [data-square]")).to_have_count(64)
    expect(square(page, "e2")).to_have_attribute("aria-label", "e2, white pawn, can move")
    expect(page.locator("#board [data-square].movable")).to_have_count(10)  # 8 pawns, 2 knights

    square(page, "g1").click()  # picked: its two targets are marked, and the choice is said
    expect(page.locator("#board .target")).to_have_count(2)
    expect(square(page, "f3")).to_have_attribute("aria-label", "f3, empty, move here")
    expect(page.locator('[data-testid="chess-said"]')).to_contain_text("white knight on g1 picked")
    square(page, "g1").click()  # picked again: dropped
    expect(page.locator("#board .target")).to_have_count(0)

    type_move(page, "e4")  # SAN, typed
    expect(page.locator("#move-list li.move")).to_have_count(2)
    expect_move_text(page, "e4", index=0)
    expect(page.locator("#board .square.last-move")).to_have_count(2)  # the bot's reply, from and to
    screenshot(page, "opening")

    rng = random.Random(match_id)
    played = 1
    while wait_turn(page) == "active":
        move = pick_move(server_board(plyground, match_id), rng)
        (drag_move if played % 3 == 0 else click_move)(page, move.uci() if not move.promotion else move.uci()[:4] + "q")
        played += 1
        if played == 150:  # far more than the search needs against random moves; never loop for ever
            page.locator("#resign-button").click()
            page.locator("#resign-button").click()  # confirmed
            break
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(result).to_contain_text(re.compile("You won|Draw|You lost"))
    expect(page.locator("#board [data-square].movable")).to_have_count(0)
    final = server_board(plyground, match_id)
    if final.is_checkmate():
        king = chess.square_name(final.king(final.turn))
        expect(square(page, king)).to_have_class(re.compile(r"\bin-check\b"))
        expect_move_text(page, re.compile("#$"))
    screenshot(page, "result")
    with page.expect_download() as download:
        page.locator('[data-testid="pgn-download"]').click()
    record = Path(download.value.path()).read_text(encoding="utf-8")
    assert download.value.suggested_filename == f"plyground-{match_id}.pgn"
    assert '[BlackType "program"]' in record and re.search(r"\b1\. e4 ", record), record
    assert chess.pgn.read_game(io.StringIO(record)).end().board().fen() == final.fen()


def test_castling_en_passant_and_promotion_between_two_people(new_page, screenshot):
    white, black = friend_match(new_page)
    expect(black.locator("#board svg")).to_have_attribute("data-orientation", "black")  # black at the bottom
    # 1. e4 a6 2. e5 d5 3. exd6 (en passant) Nf6 4. Nf3 h6 5. Bc4 h5 6. O-O g6 7. dxc7 Qd7 8. cxb8=N
    wait_turn(white)
    drag_move(white, "e2e4")
    wait_turn(black)
    type_move(black, "a6")
    wait_turn(white)
    click_move(white, "e4e5")
    wait_turn(black)
    type_move(black, "d7d5")  # UCI, typed
    wait_turn(white)
    square(white, "e5").click()
    expect(square(white, "d6")).to_have_class(re.compile(r"\btarget\b"))  # the en passant capture is offered
    square(white, "d6").click()
    expect(square(white, "d5")).to_have_attribute("aria-label", re.compile("^d5, empty"))  # the pawn taken en passant
    expect(square(white, "d6")).to_have_attribute("aria-label", re.compile("^d6, white pawn"))
    expect(white.locator('[data-testid="chess-side-bottom"]')).to_contain_text("captured 1 pawn")
    expect_move_text(black, "exd6")
    wait_turn(black)
    type_move(black, "Nf6")
    wait_turn(white)
    click_move(white, "g1f3")
    wait_turn(black)
    type_move(black, "h6")
    wait_turn(white)
    click_move(white, "f1c4")
    wait_turn(black)
    type_move(black, "h5")
    wait_turn(white)
    square(white, "e1").click()
    expect(square(white, "g1")).to_have_class(re.compile(r"\btarget\b"))
    square(white, "e1").click()  # dropped again, then castled by dragging the king
    drag_move(white, "e1g1")
    expect(square(white, "g1")).to_have_attribute("aria-label", re.compile("^g1, white king"))
    expect(square(white, "f1")).to_have_attribute("aria-label", re.compile("^f1, white rook"))
    expect_move_text(black, "O-O")
    numbers = black.locator("#move-list li.move .move-number")
    expect(numbers.nth(10)).to_have_text("6.")  # numbered as chess players number moves
    expect(numbers.nth(9)).to_have_text("5…")
    wait_turn(black)
    # by keyboard: Enter picks the pawn on g7; with black at the bottom g8 is below it and g6 above
    square(black, "g7").focus()
    black.keyboard.press("Enter")
    expect(square(black, "g7")).to_have_class(re.compile(r"\bselected\b"))
    ply = black.locator("#match-room").get_attribute("data-ply")
    black.keyboard.press("ArrowDown")
    expect(square(black, "g8")).to_be_focused()
    black.keyboard.press("ArrowUp")
    black.keyboard.press("ArrowUp")
    expect(square(black, "g6")).to_be_focused()
    black.keyboard.press("Enter")
    after_move(black, ply)
    wait_turn(white)
    click_move(white, "d6c7")
    wait_turn(black)
    type_move(black, "Qd7")
    wait_turn(white)
    square(white, "c7").click()
    square(white, "b8").click()
    picker = white.locator('[data-testid="promotion-picker"]')
    expect(picker).to_be_visible()
    expect(picker.locator('[data-promotion="q"]')).to_be_focused()
    screenshot(white, "promotion-picker")
    white.keyboard.press("Escape")  # cancelled: nothing is played
    expect(picker).to_be_hidden()
    expect(square(white, "c7")).to_have_attribute("aria-label", re.compile("^c7, white pawn"))
    square(white, "c7").click()
    square(white, "b8").click()
    ply = white.locator("#match-room").get_attribute("data-ply")
    for _ in range(3):  # queen, rook, bishop, knight: the arrow keys walk the choices
        white.keyboard.press("ArrowRight")
    expect(picker.locator('[data-promotion="n"]')).to_be_focused()
    white.keyboard.press("Enter")
    after_move(white, ply)
    expect(square(white, "b8")).to_have_attribute("aria-label", re.compile("^b8, white knight"))
    expect_move_text(black, "cxb8=N")
    expect(white.locator('[data-testid="material-white"]')).to_be_visible()
    screenshot(white, "after-promotion")
    screenshot(black, "black-view")


def test_a_clocked_game_between_two_people_ends_on_time(new_page, screenshot):
    white, black = friend_match(new_page, clock="0.25+0")
    wait_turn(white)
    drag_move(white, "d2d4")
    wait_turn(black)
    drag_move(black, "d7d5")
    expect(white.locator('[data-testid="clock-0"]')).to_have_class(re.compile("running"))
    # white thinks too long: about 15 s in all
    expect(white.locator("#result")).to_be_visible(timeout=30000)
    expect(white.locator("#result")).to_contain_text("You lost")
    expect(black.locator("#result")).to_contain_text("You won")
    expect(white.locator("#result")).to_contain_text(re.compile("time", re.I))
    expect(white.locator("#board [data-square].movable")).to_have_count(0)
    screenshot(black, "won-on-time")


def test_phone_board_fits_flips_and_has_big_enough_squares(new_page, screenshot):
    phone = {"width": 390, "height": 844}
    white, black = friend_match(new_page, viewport=phone)
    board = black.locator("#board svg").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= phone["width"]
    cell = square(black, "a1").bounding_box()
    assert cell["width"] >= 40 and cell["height"] >= 40, cell
    flip = black.locator('[data-testid="flip-board"]')
    assert flip.bounding_box()["height"] >= 40
    # black sees its own pieces at the bottom: a8 is bottom right, h1 top left
    a8, h1 = square(black, "a8").bounding_box(), square(black, "h1").bounding_box()
    assert a8["y"] > h1["y"] and a8["x"] > h1["x"]
    screenshot(black, "black-at-the-bottom")
    flip.click()
    expect(black.locator("#board svg")).to_have_attribute("data-orientation", "white")
    expect(flip).to_have_attribute("aria-pressed", "true")
    a8, h1 = square(black, "a8").bounding_box(), square(black, "h1").bounding_box()
    assert a8["y"] < h1["y"] and a8["x"] < h1["x"]
    wait_turn(white)
    click_move(white, "e2e4")
    expect(square(black, "e4")).to_have_attribute("aria-label", "e4, white pawn, last move")
    screenshot(black, "flipped")
    screenshot(white, "white-phone")


def test_the_analysis_draws_the_best_move_as_an_arrow(new_page, screenshot):
    page = new_page("/")
    match_id = start_bot_match(page, "chess", "chess-random")
    wait_turn(page)
    click_move(page, "f2f3")  # a weak first move: the analysis names a better one
    wait_turn(page)
    page.locator("#resign-button").click()
    page.locator("#resign-button").click()  # confirmed
    expect(page.locator("#match-room")).to_have_attribute("data-status", "finished")
    page.locator('[data-testid="analyse-link"]').click()
    page.wait_for_url(f"**/matches/{match_id}/analysis/")
    expect(page.locator("#analysis")).to_have_attribute("data-status", "done", timeout=60000)
    board = page.locator("#analysis-board")
    expect(board.locator('[data-square="e1"]')).to_have_attribute("aria-label", re.compile("^e1, white king"))
    # the rows write the moves played as players do (SAN), not as they travel (UCI)
    expect(page.locator('#analysis-moves li[data-ply="0"] .move-text')).to_have_text("f3")
    arrow = board.locator('[data-testid="move-marker"]')
    expect(arrow).to_have_count(1)
    best = arrow.get_attribute("data-move")
    assert re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", best), best
    # the arrow starts on the square of the piece that moves, and points at its target
    line = arrow.locator("line")
    start = board.locator(f'[data-square="{best[:2]}"] .cell')
    x, y = float(start.get_attribute("x")) + 50, float(start.get_attribute("y")) + 50
    assert (float(line.get_attribute("x1")), float(line.get_attribute("y1"))) == (x, y)
    screenshot(page, "analysis")
    # Flipped, the board keeps the arrow, turned with it: it still starts on the moving piece.
    page.locator('#analysis-board [data-testid="flip-board"]').click()
    expect(board.locator("svg")).to_have_attribute("data-orientation", "black")
    expect(arrow).to_have_count(1)
    expect(arrow).to_have_attribute("data-move", best)
    x, y = float(start.get_attribute("x")) + 50, float(start.get_attribute("y")) + 50
    assert (float(line.get_attribute("x1")), float(line.get_attribute("y1"))) == (x, y)
    screenshot(page, "analysis-flipped")


HUNG_QUEEN = ["d2d4", "e7e5", "d4e5", "d8g5", "c1g5"]  # 1.d4 e5 2.dxe5 Qg5?? 3.Bxg5: the planted set's first blunder
SAN_MOVE = re.compile(r"^(O-O(-O)?|[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](=[QRBN])?)[+#]?$")


def test_a_hung_queen_is_flagged_at_its_move_in_pawns_with_the_best_line_in_san_at_phone_and_desktop(
    new_page, screenshot
):
    """Two people play 1.d4 e5 2.dxe5 Qg5?? 3.Bxg5 and black resigns: the analysis marks 2...Qg5, and only it,
    a blunder, its figures in pawns (a queen's worth given away), the better move and its line in SAN."""
    white, black = friend_match(new_page)
    match_id = int(re.search(r"/matches/(\d+)/", white.url).group(1))
    for page, move in zip([white, black] * 3, HUNG_QUEEN, strict=False):
        wait_turn(page)
        click_move(page, move)
    wait_turn(black)
    black.locator("#resign-button").click()
    black.locator("#resign-button").click()  # confirmed
    expect(white.locator("#match-room")).to_have_attribute("data-status", "finished")
    white.locator('[data-testid="analyse-link"]').click()
    white.wait_for_url(f"**/matches/{match_id}/analysis/")
    expect(white.locator("#analysis")).to_have_attribute("data-status", "done", timeout=120000)
    for size in ({"width": 360, "height": 740}, {"width": 1280, "height": 800}):
        page = new_page(f"/matches/{match_id}/analysis/", viewport=size)
        expect(page.locator("#analysis")).to_have_attribute("data-status", "done")
        blunder = page.locator('#analysis-moves li[data-ply="3"]')
        expect(blunder.locator(".move-text")).to_have_text("Qg5")
        expect(blunder).to_have_attribute("data-class", "blunder")
        expect(blunder.locator('[data-testid="judgement"]')).to_contain_text("??")
        expect(page.locator('#analysis-moves li[data-class="blunder"]')).to_have_count(1)
        # In pawns: the mover's evaluation before, and after the queen went, at least five pawns down.
        figures = blunder.locator(".move-figures").inner_text()
        before, after = re.search(r"mover: ([+-]\d+\.\d\d) → ([+-]\d+\.\d\d)", figures).groups()
        assert float(after) <= -5 < float(before), figures
        # The better move and the line after it, each move in SAN (no squares-to-squares).
        best = blunder.locator('[data-testid="best-move"]').inner_text()
        first, line = re.fullmatch(r"best was (\S+)(?: \((.*)\))?", best).groups()
        assert line, best
        assert all(SAN_MOVE.match(m) for m in [first, *line.split()]), best
        blunder.scroll_into_view_if_needed()
        expect(blunder).to_be_in_viewport()
        overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page scrolls sideways at {size}"
        screenshot(page, f"hung-queen-{size['width']}")


def test_a_threefold_repetition_is_claimed_with_the_claim_draw_button(new_page, screenshot):
    white, black = friend_match(new_page)
    claim = white.locator('[data-testid="claim-draw-button"]')
    # the knights go out and back twice: the start position stands for the third time
    for _ in range(2):
        for page, move in ((white, "g1f3"), (black, "g8f6"), (white, "f3g1"), (black, "f6g8")):
            expect(claim).to_be_hidden()
            wait_turn(page)
            click_move(page, move)
    wait_turn(white)
    expect(claim).to_have_text("Claim draw (threefold repetition)")
    expect(black.locator('[data-testid="claim-draw-button"]')).to_be_hidden()  # only the player to move claims
    screenshot(white, "claim")
    claim.click()
    for page in (white, black):
        expect(page.locator("#result")).to_contain_text("Draw")
        expect(page.locator("#result")).to_contain_text("threefold repetition")
    expect(claim).to_be_hidden()


def touch_drag(page: Page, start: dict, end: dict, steps: int = 8) -> None:
    """A finger pressed on `start`, slid to `end` and lifted (touch events, as a phone sends them)."""
    cdp = page.context.new_cdp_session(page)

    def at(box, share=1.0, origin=None):
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if origin is None:
            return x, y
        return origin[0] + (x - origin[0]) * share, origin[1] + (y - origin[1]) * share

    x0, y0 = at(start)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, steps + 1):
        x, y = at(end, i / steps, (x0, y0))
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_on_a_touch_phone_pieces_are_tapped_and_dragged(browser, plyground, screenshot):
    phone = {"width": 390, "height": 844}
    context = browser.new_context(base_url=plyground.url, viewport=phone, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto("/")
        start_bot_match(page, "chess", "chess-random")
        wait_turn(page)
        ply = page.locator("#match-room").get_attribute("data-ply")
        square(page, "e2").tap()
        expect(square(page, "e4")).to_have_class(re.compile(r"\btarget\b"))
        square(page, "e4").tap()
        after_move(page, ply)
        # The pawn is there ("last move" only until the random bot's reply, which may come first).
        expect(square(page, "e4")).to_have_attribute("aria-label", re.compile("^e4, white pawn"))
        wait_turn(page)
        ply = page.locator("#match-room").get_attribute("data-ply")
        touch_drag(page, square(page, "g1").bounding_box(), square(page, "f3").bounding_box())
        after_move(page, ply)
        expect(square(page, "f3")).to_have_attribute("aria-label", re.compile("^f3, white knight"))
        assert page.evaluate("window.scrollX") == 0  # the board fits: nothing scrolls sideways
        screenshot(page, "touch")
        assert not errors, errors
    finally:
        context.close()


def test_a_screen_reader_hears_the_opponents_move_in_san(new_page):
    white, black = friend_match(new_page)
    wait_turn(white)
    type_move(white, "g1f3")  # typed as UCI, announced as players write it
    expect(black.locator("#announcer")).to_contain_text(re.compile(r"played Nf3\. Your move\."))
