"""What `matches` announces after a commit; other apps listen (bots queue their searches).

`matches` never imports `bots` (docs/design.md §4): it only says whose turn it is.
"""

from django.dispatch import Signal

# Sent after commit whenever a live match has a new seat to move.
# kwargs: match_id, ply, seat
turn_started = Signal()

# Sent after commit when a match ends (finished or aborted).  kwargs: match_id
match_finished = Signal()
