"""What `matches` announces after a commit; other apps listen (bots queue their searches).

`matches` never imports `bots` (docs/design.md §4): it only says whose turn it is.
"""

from django.dispatch import Signal

# Sent after commit whenever a live match has a new seat to move.
# kwargs: match_id, ply, seat
turn_started = Signal(use_caching=True)  # sent every move: its receivers looked up once per sender

# Sent after commit when a match ends (finished or aborted).  kwargs: match_id
match_finished = Signal()

# Sent inside the transaction that ends a match with a result (not an abort), before it
# commits: what a receiver writes commits with the result, and its error undoes the ending
# (ratings, docs/design.md §4).  kwargs: match, its result and status already set.
match_ending = Signal()
