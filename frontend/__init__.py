"""Plyground's pages: server-rendered shells and small native ES modules.

The pages hold no game rules; they read matches over the API and the match
socket (docs/design.md §5) and draw what the server says.
"""
