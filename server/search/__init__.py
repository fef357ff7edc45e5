"""Where the server's searches run, shared by bot turns, analyses and hints (docs/design.md §4).

`job` runs one search (a game, a position and a search configuration in; the result and
its figures out) under the budget rules, free of Django so that pool processes, Celery
workers and tests run the very same function; `pool` is the embedded mode's worker
processes.  This package imports neither `server.bots` nor `server.analysis`: they import it.
"""
