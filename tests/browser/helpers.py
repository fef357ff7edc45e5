"""Steps the browser tests share: starting matches and playing them from the page."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect

MY_TURN_OR_OVER = """() => {
  const room = document.getElementById('match-room');
  if (!room || room.dataset.ready !== 'true') return false;
  if (room.dataset.status === 'finished' || room.dataset.status === 'aborted') return true;
  return room.dataset.status === 'active' && room.dataset.connected === 'true'
    && room.dataset.yourSeat !== '' && room.dataset.toMove === room.dataset.yourSeat
    && document.querySelector('#board.interactive [data-move].legal') !== null;
}"""


def start_bot_match(page: Page, game: str, bot_slug: str, seat: int = 0) -> int:
    """From the lobby: pick a bot, take `seat` (0 moves first) and start; the match id once the room is ready."""
    page.locator(f'[data-testid="bot-{bot_slug}"]').click()
    form = page.locator(f'[data-testid="play-bot-form-{game}"]')
    if form.locator('select[name="order"]').count():  # two-player games only
        form.locator('select[name="order"]').select_option(str(seat))
    page.locator(f'[data-testid="play-bot-{game}"]').click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator("#match-room")).to_have_attribute("data-ready", "true")
    return int(page.locator("#match-room").get_attribute("data-match-id"))


def wait_my_turn_or_over(page: Page, timeout: float = 20000) -> str:
    page.wait_for_function(MY_TURN_OR_OVER, timeout=timeout)
    return page.locator("#match-room").get_attribute("data-status")


def play_until_over(page: Page, preferred: list[str], max_moves: int = 45) -> int:
    """Click legal targets (the first preferred one that is legal) until the game ends."""
    played = 0
    while wait_my_turn_or_over(page) == "active":
        target = next(
            (m for m in preferred if page.locator(f'#board [data-move="{m}"].legal').count()),
            page.locator("#board [data-move].legal").first.get_attribute("data-move"),
        )
        ply = page.locator("#match-room").get_attribute("data-ply")
        page.locator(f'#board [data-move="{target}"]').click()
        page.wait_for_function(
            f"() => document.getElementById('match-room').dataset.ply !== '{ply}'"
            " || document.getElementById('match-room').dataset.status !== 'active'"
        )
        played += 1
        assert played <= max_moves, "the game did not end"
    return played


ALGORITHM_NAMES = {"alphabeta": "alpha-beta", "mcts": "MCTS", "maxn": "max^n"}


def bot_badge(stack, slug: str) -> str:
    """The AI badge text the pages show for a seeded bot profile, from /api/bots/."""
    game = slug.rsplit("-", 1)[0]
    bot = next(b for b in stack.api("GET", f"/api/bots/?game={game}") if b["slug"] == slug)
    return f"AI · level {bot['level']} · {ALGORITHM_NAMES.get(bot['algorithm'], bot['algorithm'])}"


def budget_text(stack, slug: str) -> str:
    """A bot's time budget as the pages write it ("300 ms", "1.5 s")."""
    game = slug.rsplit("-", 1)[0]
    ms = next(b for b in stack.api("GET", f"/api/bots/?game={game}") if b["slug"] == slug)["time_budget_ms"]
    return f"{ms / 1000:.1f} s" if ms >= 1000 else f"{ms} ms"


def staff_logged_in(new_page, stack, viewport=None) -> Page:
    """A new staff member, logged in to the admin through its form (password and TOTP code)."""
    name = f"staff{uuid.uuid4().hex[:6]}"
    code = stack.manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import User; from django_otp.plugins.otp_totp.models import TOTPDevice; "
        f"from tests.server.staff import totp_code; user = User.objects.create_superuser('{name}', '', 'pw'); "
        "print(totp_code(TOTPDevice.objects.create(user=user, name='phone', confirmed=True)))",
    ).split()[-1]
    staff = new_page("/admin/login/", viewport=viewport) if viewport else new_page("/admin/login/")
    staff.fill("#id_username", name)
    staff.fill("#id_password", "pw")
    staff.fill("#id_otp_token", code)
    staff.locator('input[type="submit"]').click()
    return staff
