"""Login lockout (django-axes) for logins made through a request: the admin site's form.

axes refuses an ``authenticate()`` without a request; those come from code (a shell,
the test client's ``login()``), never from someone guessing a password over HTTP, so
they pass through to the password check.
"""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend


class LoginLockoutBackend(AxesStandaloneBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
