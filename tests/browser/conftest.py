"""The explorer app served in-process for one test (``served``: its URL and the apps of its pages)."""

from __future__ import annotations

import pytest

from explorer.pages.app import create_app


@pytest.fixture
def served(serve_app):
    """``(url, apps)``: the app's URL and the server-side ExplorerApp of every page opened."""
    apps = []

    def factory():
        template = create_app()
        apps.append(template.explorer)
        return template

    return serve_app(factory), apps
