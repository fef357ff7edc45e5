"""What an installation runs on: its id and key prefix, the Redis broker transport, the fail-open cache."""
