"""Page furniture: navigation, banners, sidebars, cookie notices, footers. All text is ours.

Nothing here is labelled: furniture is ``other`` even when it repeats the title or authors.
"""

from __future__ import annotations

import random

from scilabel.corpus.jats import Article
from scilabel.corpus.templates.base import PageContext, esc, pick, short_authors

SITE_NAMES = (
    "Open Science Library",
    "Meridian Journals",
    "The Lattice Press",
    "Northgate Scholarly",
    "Aperture Research",
    "Civic Academic Publishing",
    "Halden & Rowe Online",
    "Bluewater Science",
    "Axon Reader",
    "Periodica Digital",
)
NAV_ITEMS = (
    "Home",
    "Journals",
    "Browse",
    "Topics",
    "For authors",
    "For reviewers",
    "About",
    "Subscribe",
    "Submit",
    "Help",
    "Contact",
    "Open access",
    "News",
    "Collections",
)


def site_name(rng: random.Random) -> str:
    return rng.choice(SITE_NAMES)


def journal_name(article: Article, rng: random.Random) -> str:
    """The article's journal, or an invented one when JATS does not say."""
    return article.journal or rng.choice(
        (
            "Journal of Integrative Research",
            "Reports in Science",
            "Annals of Applied Studies",
            "Research Letters",
        )
    )


def nav_items(rng: random.Random, n: int = 6) -> list[str]:
    items = rng.sample(NAV_ITEMS[1:], n - 1)
    return ["Home", *items]


def link_list(items: list[str], sep: str = "") -> str:
    """Furniture labels as ``<a href="#">`` links."""
    return sep.join(f'<a href="#">{esc(x)}</a>' for x in items)


def nav_links(rng: random.Random, n: int = 6, sep: str = "") -> str:
    return link_list(nav_items(rng, n), sep)


COOKIE_NOTICES = (
    "We use cookies to keep this site running and to understand how it is used. "
    "You can change your choice at any time in the privacy settings.",
    "This website stores small files on your device to remember your settings and to measure "
    "traffic. By continuing to browse you agree to this.",
    "Cookies help us deliver our services. Some are essential, others help us improve the site. "
    "Please choose which ones you accept.",
)


def cookie_text(rng: random.Random) -> str:
    return rng.choice(COOKIE_NOTICES)


def share_labels(rng: random.Random) -> list[str]:
    return rng.sample(
        ["Email", "Mastodon", "Bluesky", "Facebook", "LinkedIn", "Reddit", "WhatsApp", "Copy link"], 4
    )


def metrics(rng: random.Random) -> list[tuple[str, str]]:
    views = rng.randint(400, 90000)
    return [
        ("Views", f"{views:,}"),
        ("Downloads", f"{rng.randint(50, max(60, views // 4)):,}"),
        ("Citations", str(rng.randint(0, 240))),
        ("Altmetric", str(rng.randint(1, 400))),
    ]


def related(context: PageContext, rng: random.Random, n: int = 5) -> list[tuple[str, str]]:
    """(title, authors) of up to ``n`` other corpus articles."""
    items = list(context.related)
    rng.shuffle(items)
    return [(r.title, r.authors) for r in items[:n]]


def ad_text(rng: random.Random) -> tuple[str, str]:
    return pick(
        rng,
        {
            (
                "Get the latest issue in your inbox",
                "Sign up for table-of-contents alerts and never miss new research in your field.",
            ): 1,
            (
                "Lab equipment sale",
                "Pipettes, centrifuges and freezers at up to 30% off this month. Terms apply.",
            ): 1,
            (
                "Call for papers",
                "Special collection on reproducible methods. Submissions close at the end of the quarter.",
            ): 1,
            (
                "Conference season",
                "Early registration is now open for the annual meeting. Reserve your place today.",
            ): 1,
            (
                "Writing support",
                "Professional language editing for manuscripts, with a fast turnaround and fair prices.",
            ): 1,
        },
    )


def footer_links(rng: random.Random) -> list[str]:
    return rng.sample(
        [
            "About us",
            "Contact",
            "Privacy policy",
            "Terms of use",
            "Accessibility",
            "Cookie settings",
            "Careers",
            "Advertising",
            "Permissions",
            "Sitemap",
            "Press office",
            "Help centre",
        ],
        6,
    )


def copyright_line(article: Article, rng: random.Random, site: str) -> str:
    year = article.year or "2020"
    return pick(
        rng,
        {
            f"© {year} {site}. All rights reserved.": 1,
            f"Copyright © {site} {year}. Content on this site is provided for research and education.": 1,
            f"© {site}, {year}. Published articles remain the work of their authors.": 1,
        },
    )


def citation_line(article: Article, journal: str) -> str:
    """A "Cite this article" line that repeats authors and title (furniture, unlabelled)."""
    parts = [
        short_authors(article),
        f"({article.year})" if article.year else "",
        f"{article.title}.",
        f"{journal}"
        + (f" {article.volume}" if article.volume else "")
        + (f"({article.issue})" if article.issue else "")
        + (f": {article.pages}" if article.pages else "")
        + ".",
        f"https://doi.org/{article.doi}" if article.doi else "",
    ]
    return " ".join(p for p in parts if p)


def dates_line(article: Article, rng: random.Random) -> str:
    year = int(article.year) if article.year.isdigit() else 2015
    months = (
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    )
    received = f"{rng.randint(1, 28)} {rng.choice(months)} {year - rng.randint(0, 1)}"
    published = f"{rng.randint(1, 28)} {rng.choice(months)} {year}"
    return f"Received: {received} · Published: {published}"


def fake_count(rng: random.Random, lo: int, hi: int) -> str:
    return f"{rng.randint(lo, hi):,}"
