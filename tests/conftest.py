"""Shared test setup: every test talks only to 127.0.0.1."""
