"""Writes of the Bot API: registering bot accounts and their tokens, challenges and their answers.

A bot account is a `Player` whose `bot_owner` is the person who registered it; it has no user,
so it never logs in through the browser, and plays only with its bot tokens.  Its games start
from a challenge it accepts and go through the one match path (`server.matches.services`):
its moves, clocks, chat, resignations and draws are the people's.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import registry
from server.agents import frames
from server.agents.errors import (
    ChallengeClosed,
    NoSuchBot,
    NoSuchChallenge,
    NotABot,
    NotAHouseBot,
    NotAnAccount,
    TooManyBots,
    TooManyChallenges,
    TooManyGames,
)
from server.agents.events import tell_after_commit
from server.agents.models import Challenge
from server.agents.selectors import (
    challenge_json,
    games_of_bot,
    games_of_owner,
    open_challenges_by,
    open_challenges_to,
)
from server.bots.models import BotProfile
from server.matches.errors import BadMessage, NotRatable
from server.matches.models import Match, Seat
from server.matches.services import Clock, SeatRequest, configured_game, match_create
from server.players.accounts import NAME_TAKEN, check_account_name
from server.players.models import ApiToken, Player
from server.players.names import name_skeleton
from server.players.services import token_issue

DECLINE_REASONS = ("generic", "later", "game", "clock", "too_many_games")


@transaction.atomic
def bot_account_create(owner: Player, name: str) -> Player:
    """A new bot account named `name` under `owner`, a person with an account.

    The name follows everyone's policy (no AI or bot words, no house bot's name, unique among
    accounts by its look): the AI marker and the owner's name disclose it, not its name.
    """
    if owner.is_guest or owner.is_bot:
        raise NotAnAccount("only a person with an account registers bot accounts: sign up first")
    Player.objects.select_for_update().filter(pk=owner.pk).first()  # one registration at a time per owner
    if Player.objects.filter(bot_owner=owner).count() >= settings.BOT_ACCOUNTS_PER_OWNER:
        raise TooManyBots(f"at most {settings.BOT_ACCOUNTS_PER_OWNER} bot accounts per person")
    check_account_name(name)
    try:
        with transaction.atomic():
            return Player.objects.create(name=name, name_key=name_skeleton(name), is_guest=False, bot_owner=owner)
    except IntegrityError as exc:  # the same look, registered in the meantime
        raise ValidationError(NAME_TAKEN, code="name_taken") from exc


def owned_bot(owner: Player, name: str) -> Player:
    """`owner`'s bot account named `name`; NoSuchBot for anyone else's (not told apart: no probing)."""
    bot = Player.objects.filter(bot_owner=owner, name=name).first()
    if bot is None:
        raise NoSuchBot(f"you have no bot account named {name[:40]!r}")
    return bot


def bot_token_issue(owner: Player, bot_name: str, label: str = "") -> tuple[ApiToken, str]:
    """A token for `owner`'s bot: its secret is returned this once, only its hash is kept."""
    return token_issue(owned_bot(owner, bot_name), label)


@transaction.atomic
def bot_token_revoke(owner: Player, bot_name: str, token_id: int) -> bool:
    """Revoke a token of `owner`'s bot: it stops at once, and the sockets it opened close
    (server/players/revocation.py hears the row go)."""
    deleted, _ = ApiToken.objects.filter(player=owned_bot(owner, bot_name), pk=token_id).delete()
    return deleted > 0


@dataclass(frozen=True)
class ChallengeRequest:
    game: str
    seat: int = 0  # the challenger's
    clock: Clock | None = None
    house_bots: tuple[str, ...] = ()  # bot profile slugs for the seats beyond the two sides
    options: Mapping[str, object] = field(default_factory=dict)  # the game's (`GameSpec.options`)


@transaction.atomic
def challenge_create(challenger: Player, bot: Player, request: ChallengeRequest) -> Challenge:
    """`challenger` (a person or a bot account) challenges bot account `bot`; the bot hears it."""
    if not bot.is_bot:
        raise NotABot("only bot accounts are challenged here: people are met in the lobby")
    if bot.pk == challenger.pk:
        raise BadMessage("a bot does not challenge itself")
    _check_seats(request)
    options = configured_game(request.game, request.options).options  # BadMessage: what is wrong with them
    Player.objects.select_for_update().filter(pk=challenger.pk).first()  # one challenge at a time per challenger
    if open_challenges_by(challenger.pk).count() >= settings.BOT_CHALLENGES_WAITING_PER_PLAYER:
        raise TooManyChallenges(
            f"at most {settings.BOT_CHALLENGES_WAITING_PER_PLAYER} challenges wait at once: cancel one first"
        )
    clock = {"minutes": request.clock.minutes, "increment": request.clock.increment} if request.clock else None
    challenge = Challenge.objects.create(
        challenger=challenger,
        bot=bot,
        game=request.game,
        seat=request.seat,
        clock=clock,
        house_bots=list(request.house_bots),
        options=dict(options),
    )
    tell_after_commit(bot.pk, frames.challenge(challenge_json(challenge)))
    return challenge


def _check_seats(request: ChallengeRequest) -> None:
    game = registry.get(request.game)  # the caller checked it is a registered game
    if not 0 <= request.seat < game.num_players:
        raise BadMessage(f"{game.name} has seats 0 to {game.num_players - 1}")
    if len(request.house_bots) != game.num_players - 2:
        raise BadMessage(
            f"{game.name} has {game.num_players} seats: name {game.num_players - 2} house bots for the others"
        )
    found = set(BotProfile.objects.filter(slug__in=request.house_bots, game=game.id).values_list("slug", flat=True))
    missing = [slug for slug in request.house_bots if slug not in found]
    if missing:
        raise BadMessage(f"no bot profile {missing[0][:60]!r} for {game.name}")


def _locked_challenge(challenge_id: int) -> Challenge:
    challenge = (
        Challenge.objects.select_for_update().filter(pk=challenge_id).select_related("challenger", "bot").first()
    )
    if challenge is None:
        raise NoSuchChallenge(f"no challenge {challenge_id}")
    return challenge


def _open_challenge(challenge_id: int, verb: str, *, bot_id: int = 0, challenger_id: int = 0) -> Challenge:
    """The challenge, locked, if it is still open and was made to `bot_id` (or by `challenger_id`)."""
    challenge = _locked_challenge(challenge_id)
    if bot_id and challenge.bot_id != bot_id:
        raise NoSuchChallenge(f"no challenge {challenge_id} to you")
    if challenger_id and challenge.challenger_id != challenger_id:
        raise NoSuchChallenge(f"you made no challenge {challenge_id}")
    if not challenge.is_open:
        raise ChallengeClosed(f"challenge {challenge_id} is {challenge_json(challenge)['status']}: nothing to {verb}")
    return challenge


@transaction.atomic
def challenge_accept(bot: Player, challenge_id: int) -> Match:
    """The bot accepts: the match starts with both sides seated, and both hear `game_start`."""
    challenge = _open_challenge(challenge_id, "accept", bot_id=bot.pk)
    _check_room_for_a_game(bot)
    if challenge.challenger.is_bot:
        _check_room_for_a_game(challenge.challenger)
    match = _match_for(challenge)
    challenge.status, challenge.match, challenge.answered_at = Challenge.Status.ACCEPTED, match, timezone.now()
    challenge.save(update_fields=["status", "match", "answered_at"])
    for seat in match.seats.all():
        if seat.player is not None and seat.player.is_bot:
            tell_after_commit(seat.player.pk, frames.game_start(match.pk, match.game, seat.index))
    return match


def _check_room_for_a_game(bot: Player) -> None:
    """The caps on games at once: per bot, and per owner for all their bots together."""
    if bot.bot_owner_id is not None:  # the owner's bots' accepts, one at a time
        Player.objects.select_for_update().filter(pk=bot.bot_owner_id).first()
    if games_of_bot(bot.pk) >= settings.BOT_GAMES_PER_BOT:
        raise TooManyGames(f"{bot.name} plays {settings.BOT_GAMES_PER_BOT} games already: finish one first")
    if bot.bot_owner_id is not None and games_of_owner(bot.bot_owner_id) >= settings.BOT_GAMES_PER_OWNER:
        raise TooManyGames(f"{bot.name}'s owner's bots play {settings.BOT_GAMES_PER_OWNER} games already")


def _match_for(challenge: Challenge) -> Match:
    """The challenge's match: the challenger in its seat, the bot in the first other one, house bots after."""
    game = registry.get(challenge.game)
    bot_seat = 1 if challenge.seat == 0 else 0
    profiles = {p.slug: p for p in BotProfile.objects.filter(slug__in=challenge.house_bots)}
    house = iter(challenge.house_bots)
    requests, people = [], []
    for index in range(game.num_players):
        if index in (challenge.seat, bot_seat):
            requests.append(SeatRequest(Seat.Kind.HUMAN))
            people.append(challenge.challenger if index == challenge.seat else challenge.bot)
        else:
            requests.append(SeatRequest(Seat.Kind.BOT, profiles[next(house)]))
    clock = Clock(challenge.clock["minutes"], challenge.clock["increment"]) if challenge.clock else None
    # Casual: a bot account's games count for no one's rating yet (docs/bots.md, "Ratings").
    return match_create(
        challenge.game,
        requests,
        challenge.challenger,
        clock=clock,
        rated=False,
        seated=people,
        options=challenge.options,
    )


@transaction.atomic
def challenge_decline(bot: Player, challenge_id: int, reason: str = "generic") -> Challenge:
    if reason not in DECLINE_REASONS:
        raise BadMessage(f"a decline's reason is one of {', '.join(DECLINE_REASONS)}")
    challenge = _open_challenge(challenge_id, "decline", bot_id=bot.pk)
    challenge.status, challenge.decline_reason = Challenge.Status.DECLINED, reason
    challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "decline_reason", "answered_at"])
    _tell_gone(challenge)
    return challenge


@transaction.atomic
def challenge_cancel(challenger: Player, challenge_id: int) -> Challenge:
    challenge = _open_challenge(challenge_id, "cancel", challenger_id=challenger.pk)
    challenge.status, challenge.answered_at = Challenge.Status.CANCELLED, timezone.now()
    challenge.save(update_fields=["status", "answered_at"])
    _tell_gone(challenge)
    return challenge


def _tell_gone(challenge: Challenge) -> None:
    frame = frames.challenge_gone(challenge_json(challenge))
    for player in (challenge.bot, challenge.challenger):
        if player.is_bot:
            tell_after_commit(player.pk, frame)


def pending_for(bot: Player) -> list[Challenge]:
    return list(open_challenges_to(bot.pk))


@dataclass(frozen=True)
class HouseGameRequest:
    """A bot account asks for a game against house bots: one listed bot profile for every other seat."""

    game: str
    house_bots: tuple[str, ...]  # bot profile slugs, in seat order, for every seat but the bot's
    seat: int | None = None  # the bot's; None: drawn at random
    clock: Clock | None = None
    rated: bool = False
    options: Mapping[str, object] = field(default_factory=dict)


@transaction.atomic
def house_game_create(bot: Player, request: HouseGameRequest) -> Match:
    """`bot` plays house bots at once (no challenge to answer); it hears `game_start` as for any game.

    The same caps as an accepted challenge (games at once per bot and per owner); casual, as
    every bot account's game.  The house bots' turns wait in the lane of bot-vs-bot matches,
    below people's games and hints: no person is seated (`server.bots.queues.bot_queue_of`).
    """
    if not bot.is_bot:
        raise NotABot("a game against house bots is asked with a bot account's token")
    game = registry.get(request.game)  # the caller checked it is a registered game
    seat = random.randrange(game.num_players) if request.seat is None else request.seat
    if not 0 <= seat < game.num_players:
        raise BadMessage(f"{game.name} has seats 0 to {game.num_players - 1}")
    if len(request.house_bots) != game.num_players - 1:
        raise BadMessage(f"{game.name} has {game.num_players} seats: name {game.num_players - 1} house bots")
    if request.rated:
        raise NotRatable("a bot account's games are casual: no one's rating changes in them yet")
    listed = BotProfile.objects.filter(slug__in=request.house_bots, game=game.id, listed=True)
    profiles = {p.slug: p for p in listed}
    missing = [slug for slug in request.house_bots if slug not in profiles]
    if missing:
        raise NotAHouseBot(f"{missing[0][:60]!r} is no listed house bot of {game.name}: GET /api/bots/?game={game.id}")
    configured_game(request.game, request.options)  # BadMessage: what is wrong with them
    _check_room_for_a_game(bot)
    house = iter(request.house_bots)
    seats = [
        SeatRequest(Seat.Kind.HUMAN) if index == seat else SeatRequest(Seat.Kind.BOT, profiles[next(house)])
        for index in range(game.num_players)
    ]
    match = match_create(
        request.game, seats, bot, clock=request.clock, rated=False, seated=[bot], options=request.options
    )
    tell_after_commit(bot.pk, frames.game_start(match.pk, match.game, seat))
    return match
