"""The researcher's page in a browser: a token made there downloads the export its URL builder built."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request

from playwright.sync_api import expect

PASSWORD = "a-long-enough-secret-9"
PHONE = {"width": 390, "height": 844}


def download(url: str, token: str) -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def sign_up(page, name: str, email: str) -> None:
    page.goto("/signup/")
    page.get_by_label("Display name").fill(name)
    page.get_by_label("E-mail address").fill(email)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/players/"))


def test_a_researcher_makes_a_token_builds_a_url_downloads_and_revokes(plyground, new_page, screenshot):
    source = f"browser-research-{plyground.port}"  # this test's matches, whatever else the stack holds
    plyground.manage(
        "selfplay",
        "--game",
        "tictactoe",
        "--profiles",
        "tictactoe-random",
        "--games",
        "3",
        "--parallel",
        "3",
        "--source",
        source,
        "--timeout",
        "120",
    )

    page = new_page("/", viewport=PHONE)
    sign_up(page, "Rita Research", "rita.research@example.org")
    page.goto("/account/research/")
    expect(page.get_by_role("heading", name="Research exports need researcher access")).to_be_visible()
    expect(page.get_by_test_id("research-denied")).to_contain_text("ask the site's staff for researcher access")
    screenshot(page, "denied-phone")

    plyground.manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import Group, User; "
        "User.objects.get(username='Rita Research').groups.add(Group.objects.get_or_create(name='researcher')[0])",
    )
    page.goto("/account/")
    page.get_by_test_id("research-link").click()
    expect(page.get_by_role("heading", name="Research", exact=True)).to_be_visible()
    expect(page.get_by_test_id("token-empty")).to_be_visible()

    # A token, made with the keyboard: its secret is shown once.
    page.get_by_label("Name").fill("laptop")
    page.get_by_label("Name").press("Enter")
    secret_box = page.get_by_test_id("token-secret")
    expect(secret_box).to_be_visible()
    expect(secret_box).to_be_focused()
    token = page.get_by_test_id("token-secret-value").input_value()
    assert len(token) > 20
    row = page.get_by_test_id("token-row")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("laptop")

    # The builder: a bad range is refused next to its field, as the exports refuse it.
    page.get_by_label("Created on or after").fill("2030-01-02")
    page.get_by_label("Created before").fill("2030-01-01")
    expect(page.locator("#filter-until-error")).to_have_text("must be later than since")
    expect(page.get_by_label("Created before")).to_have_attribute("aria-invalid", "true")
    page.get_by_label("Created on or after").fill("")
    page.get_by_label("Created before").fill("")
    expect(page.locator("#filter-until-error")).to_have_text("")

    page.get_by_role("checkbox", name="Tic-tac-toe").check()
    page.get_by_role("checkbox", name="bot-vs-bot").check()
    page.get_by_label("Source").fill(source)
    estimate = page.get_by_test_id("estimate")
    expect(estimate).to_have_attribute("data-matches", "3")
    expect(estimate).to_contain_text("3 matches")
    url = page.get_by_test_id("url-games").input_value()
    assert url == f"{plyground.url}/api/exports/games.jsonl?game=tictactoe&pairing=bot-vs-bot&source={source}"
    assert page.get_by_test_id("url-moves").input_value() == url.replace("games.jsonl", "moves.csv")
    curl = page.get_by_test_id("curl-command").input_value()
    assert "Authorization: Bearer $TOKEN" in curl and f"'{url}'" in curl
    screenshot(page, "builder-phone")

    status, body = download(url, token)
    assert status == 200
    lines = [json.loads(line) for line in body.decode().splitlines()]
    assert len(lines) == 3 and {line["source"] for line in lines} == {source}
    assert {line["game"] for line in lines} == {"tictactoe"}
    moves = int(estimate.get_attribute("data-moves"))
    assert moves == sum(line["plies"] for line in lines) > 0

    # Rotating shows a new secret and ends the old one at once.
    row.get_by_role("button", name="Rotate token “laptop”").click()
    expect(page.get_by_test_id("token-secret-value")).not_to_have_value(token)
    rotated = page.get_by_test_id("token-secret-value").input_value()
    assert download(url, token)[0] == 401
    assert download(url, rotated)[0] == 200
    expect(page.get_by_test_id("token-row")).to_have_count(1)

    # Revoking asks to be pressed again, then the token stops working at once.
    row.get_by_role("button", name="Revoke token “laptop”").click()
    row.get_by_role("button", name=re.compile("Confirm: revoke")).click()
    expect(page.get_by_test_id("token-row")).to_have_count(0)
    expect(page.get_by_test_id("token-empty")).to_be_visible()
    expect(page.get_by_role("heading", name="Your API tokens")).to_be_focused()
    assert download(url, rotated)[0] == 401

    desktop = page.context.new_page()
    desktop.set_viewport_size({"width": 1280, "height": 900})
    desktop.goto("/account/research/")
    expect(desktop.get_by_test_id("estimate")).to_have_attribute("data-matches", re.compile(r"^\d+$"))
    screenshot(desktop, "desktop")
