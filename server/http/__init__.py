"""HTTP at the edge: bounded JSON parsers, NUL refused, ids in paths, JSON 404s, the schema's error shapes."""
