"""The ``scilabel`` command line: argument parsing here, the work in the library modules."""
from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path

from . import __version__
from .atomic import write_text
from .render import BrowserNotFound, Renderer
from .sources import PageError
from .zones import Zone, collect_zones

log = logging.getLogger("scilabel")


class CommandError(Exception):
    """A failure to report as one line and a non-zero exit."""


def _zone_record(zone: Zone) -> dict:
    record = asdict(zone)
    record["bbox"] = [round(v, 2) for v in zone.bbox]
    record["cites"] = list(zone.cites)
    return record


def _zones_table(zones: list[Zone]) -> str:
    lines = [f"{'#':>4} {'label':<18} {'x':>6} {'y':>7} {'w':>6} {'h':>6} {'size':>5} {'wt':>4}  text"]
    for n, z in enumerate(zones):
        x, y, w, h = z.bbox
        text = z.text if len(z.text) <= 90 else z.text[:87] + "..."
        lines.append(
            f"{n:>4} {z.label or '-':<18} {x:>6.0f} {y:>7.0f} {w:>6.0f} {h:>6.0f} {z.font_size:>5.1f} {z.font_weight:>4}  {text}"
        )
    return "\n".join(lines)


def _emit(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        write_text(output, text if text.endswith("\n") else text + "\n")


def cmd_zones(args: argparse.Namespace) -> None:
    """Print the component zones of a page."""
    with Renderer(timeout=args.timeout) as renderer:
        zones = collect_zones(renderer.render(args.page))
    if args.format == "jsonl":
        text = "".join(json.dumps(_zone_record(z), ensure_ascii=False) + "\n" for z in zones)
    else:
        text = _zones_table(zones)
    _emit(text, args.output)


def cmd_render(args: argparse.Namespace) -> None:
    """Render a page, optionally save a screenshot, and print what the browser saw."""
    with Renderer(timeout=args.timeout) as renderer:
        page = renderer.render(args.page, screenshot=args.screenshot)
    zones = collect_zones(page)
    summary = {
        "source": page.source,
        "title": page.title,
        "width": page.width,
        "height": page.height,
        "nodes": len(page.nodes),
        "zones": len(zones),
        "javascript": page.javascript,
        "blocked_requests": page.blocked_requests,
        "blocked_urls": page.blocked_urls,
        "warnings": page.warnings,
        "timings": {k: round(v, 4) for k, v in page.timings.items()},
        "screenshot": str(args.screenshot) if args.screenshot else None,
    }
    _emit(json.dumps(summary, indent=2, ensure_ascii=False), args.output)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scilabel", description="Label the zones of scholarly article web pages.")
    parser.add_argument("--version", action="version", version=f"scilabel {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)")
    parser.add_argument("-q", "--quiet", action="store_true", help="only errors")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def page_command(name: str, func: Callable[[argparse.Namespace], None], help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("page", help="HTML file, http(s) URL, or an HTML string")
        p.add_argument("--timeout", type=float, default=10.0, help="seconds a page may take to load (default 10)")
        p.add_argument("-o", "--output", type=Path, help="write here instead of standard output")
        p.set_defaults(func=func)
        return p

    p = page_command("zones", cmd_zones, "print the component zones of a page")
    p.add_argument("--format", choices=("table", "jsonl"), default="table")
    p = page_command("render", cmd_render, "render a page and report what the browser laid out")
    p.add_argument("--screenshot", type=Path, help="save a full-page PNG screenshot here")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    level = logging.ERROR if args.quiet else (logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)]
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    try:
        args.func(args)
    except (PageError, BrowserNotFound, CommandError) as exc:
        print(f"scilabel: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("scilabel: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
