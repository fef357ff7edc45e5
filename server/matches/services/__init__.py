"""Writes to matches, one module per concern (docs/design.md §4):

- `lifecycle`: creating a match, joining it, starting it; `require_seat`.
- `moves`: `submit_move`, the one path every move takes, human or bot; dice.
- `offers`: takebacks, takeback requests and draw offers, and their answers; draw claims.
- `resignations`: resigning the match (for points where the game counts them); offering to resign a
  game for points (backgammon's single game, gammon, backgammon).
- `clocks`: time controls, flagging a seat whose time ran out, aborting a match with no first move.
- `presence`: which seated people have a socket open.
- `endings`: results, forfeits, aborting; abandoned, adjourned and expired matches.
- `events`: the event log and its versions, the row lock, what is sent after commit.

Callers use this package (`services.submit_move`); the modules are its parts.
"""

from server.matches.services.clocks import Clock, abort_unstarted_matches, flag_fallen_clocks
from server.matches.services.endings import (
    abandon_gone_seats,
    adjourn_gone_matches,
    expire_open_matches,
    match_abort,
    match_resume,
)
from server.matches.services.events import match_log
from server.matches.services.lifecycle import SeatRequest, configured_game, match_create, match_join, require_seat
from server.matches.services.moves import submit_move, submit_player_move
from server.matches.services.offers import match_answer, match_claim_draw, match_offer, match_takeback
from server.matches.services.presence import (
    person_presence,
    presence_expire_stale,
    presence_heartbeat,
    seat_presence,
    socket_arrived,
)
from server.matches.services.resignations import match_resign, match_resign_offer

__all__ = [
    "Clock",
    "SeatRequest",
    "abandon_gone_seats",
    "abort_unstarted_matches",
    "adjourn_gone_matches",
    "expire_open_matches",
    "flag_fallen_clocks",
    "match_abort",
    "match_answer",
    "match_claim_draw",
    "match_create",
    "configured_game",
    "match_join",
    "match_log",
    "match_offer",
    "match_resign",
    "match_resign_offer",
    "match_resume",
    "match_takeback",
    "person_presence",
    "presence_expire_stale",
    "presence_heartbeat",
    "require_seat",
    "seat_presence",
    "socket_arrived",
    "submit_move",
    "submit_player_move",
]
