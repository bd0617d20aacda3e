"""Stand-ins for the Janeway template tag libraries its article page loads (``hooks``, ``dates``,
``files``, ``press_url``, ``next_url``, ``roles``) and for Django's ``url`` and ``static``: a page
rendered outside Janeway has no plugins, URL map, media files or signed-in user, so hooks render
nothing, links point at ``#`` and images are left out. Every library name maps to this one module.
"""
from __future__ import annotations

import datetime as dt

from django import template

register = template.Library()


@register.simple_tag
def hook(*args, **kwargs) -> str:
    """A plugin hook: no plugins are installed."""
    return ""


@register.simple_tag
def url(*args, **kwargs) -> str:
    """A link into the site (``{% url %}``), which is not there."""
    return "#"


@register.simple_tag
def journal_url(*args, **kwargs) -> str:
    return "#"


@register.simple_tag
def press_url(*args, **kwargs) -> str:
    return "#"


@register.simple_tag
def svg(*args, **kwargs) -> str:
    """An uploaded logo inlined as SVG: no media files."""
    return ""


@register.simple_tag
def svg_or_image(*args, **kwargs) -> str:
    return ""


@register.simple_tag
def get_alt_text(*args, default: str = "", **kwargs) -> str:
    return default


@register.simple_tag
def user_has_role(*args, **kwargs) -> bool:
    """Nobody is signed in."""
    return False


@register.filter
def date_human(value: dt.date | None) -> str:
    """Janeway's reader-facing date: ``12 March 2021``."""
    return f"{value.day} {value:%B %Y}" if value else ""


@register.simple_tag
def static(path: str) -> str:
    """A file of the site's static folder (style sheets, scripts, images)."""
    return f"/static/{path}"
