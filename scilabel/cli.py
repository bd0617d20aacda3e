"""The ``scilabel`` command line: argument parsing here, the work in the library modules."""
from __future__ import annotations

import argparse
import atexit
import contextlib
import copy
import json
import logging
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

import pandas as pd

from . import __version__
from .atomic import write_text
from .readers import PageError, reader_for
from .readers.render import BrowserNotFound, Renderer
from .inputs import DEFAULT_PATTERNS, is_warc
from .readers.sources import Limits, source_path
from .schema import DEFAULT_TOPOLOGY, TOPOLOGIES
from .writers import LABEL, REFERENCES, STRUCTURE, WRITERS, ZONES, ReferencesWriter, formats
from .zones import collect_zones

log = logging.getLogger("scilabel")


class CommandError(Exception):
    """A failure to report as one line and a non-zero exit."""


def _emit(text: str, output: Path | None) -> None:
    """Write ``text``, ending in a newline, as UTF-8 to ``output`` (atomically) or to standard output."""
    text = text if text.endswith("\n") else text + "\n"
    if output is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.flush()
    else:
        write_text(output, text)


def _reader_options(args: argparse.Namespace) -> dict:
    """What a page command's reader is built with: its load timeout and per-page limits."""
    limits = Limits(deadline=args.deadline, max_bytes=int(args.max_page_mb * 2**20), max_nodes=args.max_nodes,
                    memory_mb=args.max_memory_mb, redirect_any_host=args.redirects_any_host)
    return {"timeout": args.timeout, "limits": limits}


def cmd_zones(args: argparse.Namespace) -> None:
    """Print the component zones of a page."""
    with Renderer(**_reader_options(args)) as renderer:
        zones = collect_zones(renderer.render(args.page))
    _emit(WRITERS[args.format].zones(zones), args.output)


def cmd_render(args: argparse.Namespace) -> None:
    """Render a page, optionally save a screenshot, and print what the browser saw."""
    with Renderer(**_reader_options(args)) as renderer:
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


def _default_data() -> Path:
    return Path(os.environ.get("SCILABEL_DATA", "../shared/data"))


#: HMM transition settings `scilabel train` passes to ZoneLabeler.
HMM_SETTINGS = {
    "gap_self_loop": "self-loop of the gap states (the other zones between components)",
    "br_self_loop": "self-loop of BR (the lines between references)",
    "barh_to_references": "BARH -> References (a reference list that begins without a heading)",
    "affiliations_to_barh": "Affiliations -> BARH (past the abstract after affiliations that follow it; "
                            "late_affiliations topology)",
}


def _probability_or_counted(text: str) -> float | None:
    """An HMM transition setting: a probability strictly between 0 and 1, or "counted" (None)."""
    if text == "counted":
        return None
    try:
        p = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is neither a probability nor 'counted'") from None
    if not 0 < p < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not strictly between 0 and 1")
    return p


def _existing_dir(path: Path, what: str) -> Path:
    if not path.is_dir():
        raise CommandError(f"{path}: no such directory ({what})")
    return path


def cmd_corpus_generate(args: argparse.Namespace) -> None:
    """Generate labelled pages from JATS articles, render them, and count zones per label."""
    from .corpus.dataset import render_generated
    from .corpus.generate import generate_corpus

    generate_corpus(_existing_dir(args.jats, "JATS articles"), args.out, seed=args.seed, families=args.families)
    manifest = render_generated(args.out, workers=args.workers, timeout=args.timeout)
    table = manifest.groupby(["split", "family"]).size().rename("pages").reset_index()
    print(table.to_string(index=False))
    print(manifest[[c for c in manifest.columns if c.startswith("zones_")]].sum().to_string())


def cmd_corpus_silver(args: argparse.Namespace) -> None:
    """Label real publisher pages from their own meta tags."""
    from .corpus.silver import build_silver

    manifest = build_silver(_existing_dir(args.pages, "publisher pages"), args.out, workers=args.workers,
                            overlays=args.overlays, timeout=args.timeout)
    scores = manifest[[c for c in manifest.columns if c.startswith("score_")]]
    print(f"pages: {len(manifest)}, with silver labels: {int((manifest['fields'].fillna('') != '').sum())}, "
          f"failed: {int(manifest['error'].notna().sum())}")
    print(pd.DataFrame({"pages": scores.notna().sum(), "found": (scores > 0).sum(), "mean score": scores.mean().round(3)}).to_string())
    print(manifest[[c for c in manifest.columns if c.startswith("zones_")]].sum().to_string())


def cmd_corpus_gold(args: argparse.Namespace) -> None:
    """Label real publisher pages from their reviewed gold (zone ranges of each field)."""
    from .corpus.gold import build_gold, default_scorer_path, load_page_scorer, mismatches

    folders = [_existing_dir(d, "gold pages") for d in args.gold]
    scorer = load_page_scorer(args.scorer or default_scorer_path(folders[0]))
    manifest = build_gold(folders, args.out, data_root=folders[0].resolve().parent, scorer=scorer,
                          workers=args.workers, timeout=args.timeout)
    print(manifest.groupby(["gold_set", "group"]).size().rename("pages").to_string())
    print(manifest[[c for c in manifest.columns if c.startswith("zones_")]].sum().to_string())
    found = mismatches(manifest)
    print(f"pages: {len(manifest)}, failed: {int(manifest['render_error'].notna().sum())}, "
          f"fields whose ranged zones miss gold tokens (recall < .9): {len(found)}")
    for where, recall in found:
        print(f"  {where}  {recall:.3f}")


def cmd_corpus_medline(args: argparse.Namespace) -> None:
    """Build the per-field text collections the Naive Bayes word model is trained on."""
    from .corpus.collections import build_field_collections, jats_front_rows, write_collections

    data = _existing_dir(args.data, "shared data")
    extra = jats_front_rows(_existing_dir(args.jats, "JATS articles"), seed=args.seed) if args.jats else ()
    frame = build_field_collections(data, extra=extra)
    write_collections(frame, args.out)
    print(frame.groupby("field").size().rename("rows").to_string())


def _load_models(args: argparse.Namespace):
    """The zone labeller (``--model``) and reference parser (``--refs-model``) a page command uses."""
    from .batch import LabelSettings

    return LabelSettings(args.model, args.refs_model, not args.no_page_metadata, trust_model=args.trust_model,
                         references=not getattr(args, "no_references", False)).load_models()


def _is_batch(args: argparse.Namespace) -> bool:
    """Whether a page command was given what can hold several pages (a directory, an @list, a WARC
    file, several inputs, or a batch option): written as JSON lines whatever the count; a file, a URL or
    ``-`` (standard input) gives one record."""
    if len(args.page) != 1 or any(getattr(args, option, None) for option in ("workers", "resume", "failures", "dask")):
        return True
    page = args.page[0]
    path = source_path(page) if page != "-" else None
    return page.startswith("@") or (path is not None and (path.is_dir() or is_warc(page)))


def _stdin_page() -> str:
    """The HTML page on standard input (``-``), decoded as a page file is."""
    from .readers.sources import decode_html

    html, _, warnings = decode_html(sys.stdin.buffer.read(), "-")
    for warning in warnings:
        log.warning("%s", warning)
    html = html.lstrip("\ufeff \t\r\n")
    if not html.startswith("<"):
        raise CommandError("-: standard input is not an HTML page (it does not begin with a tag)")
    return html


def _page_command(args: argparse.Namespace, output: str) -> int:
    """``scilabel label``, ``refs`` or ``structure`` (``output``): one record for one page, JSON lines
    and a failures report for many."""
    _check_compact(args)
    if _is_batch(args):
        return _batch(args, output)
    page = _stdin_page() if args.page[0] == "-" else args.page[0]
    if getattr(args, "baseline", None):
        baseline, label_one = _baseline_labeller(args)
        record = label_one(page)
        if args.case_base:
            baseline.case_base.save(args.case_base)
        _emit(_one_record(args, record, output), args.output)
        return 0
    overlay = getattr(args, "overlay", None)
    with tempfile.TemporaryDirectory(prefix="scilabel-") as tmp, _opening(
            reader_for(page, **_reader_options(args)),
            lambda reader: reader.read(page, screenshot=Path(tmp) / "page.png" if overlay else None)) as document:
        from .pipeline import labelled_page, page_article_of, page_output  # scikit-learn loads as the page renders

        labeler, parser = _load_models(args)
        read = labelled_page(document(), labeler, parser, overlay)
    if output == "structure" and args.format not in STREAMED:
        _emit(WRITERS[args.format].structure(page_article_of(read, labeler, args.block_model)), args.output)
        return 0
    _emit(_one_record(args, page_output(read, labeler, output, getattr(args, "block_model", None)), output), args.output)
    return 0


def _check_compact(args: argparse.Namespace) -> None:
    if args.compact and args.format not in STREAMED:
        raise CommandError(f"--compact writes a JSON record on one line: not --format {args.format}")


def _one_record(args: argparse.Namespace, record: dict, output: str) -> str:
    """One page's record in the chosen format; ``--compact``: JSON on one line."""
    from .writers.jsonl import json_lines

    if args.compact or args.format == "jsonl":
        return json_lines([record])
    if output == "refs":
        return WRITERS[args.format].references(record["references"], record)
    if output == "structure":  # JSON: a record of the pipeline's, already in its JSON shape
        return json.dumps(record, ensure_ascii=False, indent=2)
    return WRITERS[args.format].label([record], batch=False)


def cmd_label(args: argparse.Namespace) -> int:
    """Label the zones of a page, a URL, or every page of directories, lists and WARC files."""
    if args.baseline and (args.overlay or args.model or args.dask):
        raise CommandError("--baseline labels from the HTML alone: it takes neither --model, --overlay nor --dask")
    if args.contact_sheet and not (args.overlay and _is_batch(args)):
        raise CommandError("--contact-sheet gathers the overlays of many pages: give a directory (or list) and --overlay DIR")
    if args.no_references and (args.baseline or args.format not in HEADER_FORMATS):
        raise CommandError(f"--no-references leaves the references out of the labeller's page records: not with "
                           f"{'--baseline' if args.baseline else '--format ' + args.format} "
                           f"(formats: {', '.join(HEADER_FORMATS)})")
    return _page_command(args, "label")


#: The ``label`` formats that write a page record without its references (``--no-references``): all but the
#: bibliographies of the pages' references.
HEADER_FORMATS = tuple(name for name in formats(LABEL) if not isinstance(WRITERS[name], ReferencesWriter))


@contextlib.contextmanager
def _opening(reader, read: Callable | None = None):
    """Enter ``reader`` in a thread, so that its browser starts (and, with ``read``, reads the page:
    ``read(reader)``) while the block imports scikit-learn and loads the models; the block gets a
    function that waits for that and returns the reader, or what ``read`` returned. The reader is exited
    on leaving, once its read is over."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        started = pool.submit(reader.__enter__)
        done = pool.submit(lambda: read(reader) if started.exception() is None else None) if read else started

        def result():
            started.result()  # the reader's own error first (no browser)
            return done.result()

        try:
            yield result
        finally:
            if started.exception() is None:
                done.exception()
                reader.__exit__(None, None, None)


#: The formats a batch run streams record by record (both as JSON lines); any other is written at the end.
STREAMED = ("json", "jsonl")


def _batch(args: argparse.Namespace, output: str) -> int:
    """Every page of the inputs (see :mod:`scilabel.inputs`), record by record: ``output`` is the
    record each page gives (``label``, ``refs``, ``structure``); failed pages are reported and skipped."""
    from tqdm import tqdm

    from .batch import LabelSettings, is_failure, label_many
    from .inputs import expand_inputs, iter_pages, source_name
    from .journal import RecordLog, RecordOutput

    streamed = args.format in STREAMED
    if "-" in args.page:
        raise CommandError("-: standard input is one page; it cannot be one of several inputs")
    if not streamed and output == "structure":
        raise CommandError(f"many pages give JSON lines, one article a line: not --format {args.format}")
    resume = getattr(args, "resume", False)
    if resume and not (args.output and streamed):
        raise CommandError("--resume goes on with an output file: give -o out.jsonl (or .parquet) and no --format")
    if args.output and args.output.suffix.lower() == ".parquet" and not streamed:
        raise CommandError(f"a Parquet output holds page records: not --format {args.format}")
    files = expand_inputs(args.page, patterns=args.glob or DEFAULT_PATTERNS, follow_symlinks=args.follow_symlinks)
    if not files:
        raise CommandError(f"{' '.join(args.page)}: no pages to read")
    records_out = RecordOutput(args.output, resume=resume) if args.output and streamed else None
    done = records_out.done() if records_out is not None else set()
    failures = RecordLog(args.failures) if args.failures else None
    if failures is not None and not resume:
        failures.path.unlink(missing_ok=True)
    warcs = any(is_warc(f) for f in files)
    progress = tqdm(total=None if warcs else sum(f not in done for f in files), unit="page", dynamic_ncols=True,
                    disable=args.quiet or not sys.stderr.isatty(), desc="labelling" if output == "label" else output)
    seen = set(done)

    def todo():
        for source in iter_pages(files):
            name = source_name(source)
            if name not in seen:  # already in the output, or given twice
                seen.add(name)
                yield source

    stack = contextlib.ExitStack()
    if getattr(args, "baseline", None):
        records = _baseline_records(args, todo())
    else:
        dask = getattr(args, "dask", None)
        client = stack.enter_context(_dask_client(dask)) if dask else None
        settings = LabelSettings(args.model, args.refs_model, not args.no_page_metadata, args.timeout,
                                 getattr(args, "overlay", None), limits=_reader_options(args)["limits"],
                                 trust_model=args.trust_model, output=output,
                                 block_model=getattr(args, "block_model", None),
                                 references=not getattr(args, "no_references", False))
        records = label_many(todo(), workers=getattr(args, "workers", None) or 1, settings=settings, client=client)
    failed, read, kept, drawn = 0, 0, [], []
    with stack, progress:
        for record in records:
            read += 1
            progress.update()
            if is_failure(record):
                failed += 1
                progress.set_postfix(failed=failed)
                if failures is not None:
                    failures.append(record)
                if not args.quiet:
                    progress.write(f"scilabel: skipped: {record['error']}", file=sys.stderr)
                continue
            if records_out is not None:
                records_out.append(record)
            elif streamed:
                _emit(WRITERS["jsonl"].label([record]), None)
            else:
                kept.append(record)
            drawn.append(record["source"])
    if records_out is not None:
        records_out.close()
    if failures is not None:
        failures.close()
    if getattr(args, "contact_sheet", None) and drawn:
        from .overlay import contact_sheet, overlay_path

        contact_sheet([overlay_path(args.overlay, source) for source in sorted(drawn)], args.contact_sheet,
                      root=args.overlay)
    if not streamed:
        writer = WRITERS[args.format]
        _emit(writer.label(kept, batch=True) if output == "label"
              else writer.references([ref for record in kept for ref in record["references"]]), args.output)
    if failed:
        print(f"scilabel: {failed} of {read} pages failed", file=sys.stderr)
        return 3
    return 0


@contextlib.contextmanager
def _dask_client(address: str):
    """A Dask distributed client of the scheduler at ``address``."""
    try:
        from distributed import Client
    except ImportError:
        raise CommandError("--dask needs Dask distributed: pip install 'scilabel[batch]'") from None
    with Client(address) as client:
        yield client


def _baseline_records(args: argparse.Namespace, sources):
    """The records of a baseline on each source, in this process (a case base grows as it goes)."""
    from .batch import failure_record
    from .inputs import Unreadable, source_name

    baseline, label_one = _baseline_labeller(args)
    for source in sources:
        try:
            if isinstance(source, Unreadable):
                raise PageError(source.error)
            yield label_one(source)
        except PageError as exc:
            yield failure_record(source_name(source), exc)
    if args.case_base:
        baseline.case_base.save(args.case_base)


def _baseline_labeller(args: argparse.Namespace):
    """The baseline and a function labelling one page with it (no browser: baselines read the HTML)."""
    from .baselines import CaseBase, get_baseline, record
    from .readers.sources import PageDocument, load_source

    baseline = get_baseline(args.baseline)
    if args.case_base:
        if not hasattr(baseline, "case_base"):
            raise CommandError(f"--case-base is for the cbr baselines, not {args.baseline}")
        if args.case_base.exists():
            baseline.case_base = CaseBase.load(args.case_base)

    def label_one(page) -> dict:
        doc = page if isinstance(page, PageDocument) else load_source(page, **_reader_options(args))
        return record(baseline.extract(doc.html, doc.url), doc.source, doc.warnings)

    return baseline, label_one


def cmd_refs(args: argparse.Namespace) -> int:
    """Print the parsed references of a page (with their citing sentences), of many, or of one string."""
    from .references import load_parser

    if bool(args.page) == (args.string is not None):
        raise CommandError("give either pages or --string TEXT")
    if args.string is None:
        return _page_command(args, "refs")
    if not args.string.strip():
        raise CommandError("--string: the reference text is empty")
    _check_compact(args)
    reference = load_parser(args.refs_model, trust=args.trust_model).parse(args.string)
    if args.compact:
        _emit(json.dumps(reference, ensure_ascii=False), args.output)
    else:
        _emit(WRITERS[args.format].references([reference], reference), args.output)
    return 0


def cmd_structure(args: argparse.Namespace) -> int:
    """Print the article structure of a page (scilabel XML by default), or JSON lines of many."""
    if args.format is None:
        args.format = "json" if args.compact or _is_batch(args) else "xml"
    return _page_command(args, "structure")


def cmd_review(args: argparse.Namespace) -> None:
    """Serve the review app on 127.0.0.1 for a page or a directory of pages until interrupted."""
    from .review import Review, ReviewServer, review_sources

    sources = review_sources(Path(args.page))
    with _opening(reader_for(sources[0], **_reader_options(args))) as reader:
        labeler, _ = _load_models(args)
        review = Review(sources, reader(), labeler, args.gold, order=args.order)
        try:
            server = ReviewServer(review, args.port)
        except OSError as exc:
            review.close()
            raise CommandError(f"--port {args.port}: {exc.strerror or exc}") from None
        print(f"scilabel review: {len(review)} page(s) at {server.url} (gold files in {args.gold}); Ctrl+C ends",
              file=sys.stderr)
        try:
            server.serve_forever()
        finally:
            server.server_close()
            review.close()


def cmd_train_refs(args: argparse.Namespace) -> None:
    """Train the reference field parser and save it with its model card."""
    from .references.training import train_reference_parser

    parser = train_reference_parser(args.data, args.out)
    print(json.dumps(parser.model_card_, indent=2, default=str))


def cmd_model_convert(args: argparse.Namespace) -> None:
    """Rewrite a trusted joblib pickle of a model in the safe format."""
    from .persistence import convert_model

    print(convert_model(args.source, args.target))


def cmd_train_blocks(args: argparse.Namespace) -> None:
    """Train the block model of the structure step and save it with its model card."""
    from .structure.training import train_block_model

    model = train_block_model(args.data, args.out, gold=args.gold, heading_gold=args.heading_gold,
                              pages_per_family=args.pages_per_family, hold_out=tuple(args.hold_out))
    print(json.dumps(model.model_card_, indent=2, default=str))


def cmd_train(args: argparse.Namespace) -> None:
    """Train a labeller on dataset folders and save it with its model card."""
    from .training import train_labeler

    hmm = {name: getattr(args, name) for name in HMM_SETTINGS if hasattr(args, name)}
    from .review.gold import gold_dataset

    gold = [gold_dataset(_existing_dir(folder, "gold"), args.workers) for folder in args.gold]
    labeler = train_labeler(args.data, args.emission, args.out, collections=args.collections, topology=args.topology,
                            workers=args.workers, random_state=args.random_state, gold=gold,
                            gold_weight=args.gold_weight, platforms=args.platforms, **hmm)
    print(json.dumps(labeler.model_card_, indent=2))


def cmd_gold_cv(args: argparse.Namespace) -> None:
    """Publisher-grouped cross-validation on the real-page gold, beside the shipped model and peers."""
    from .corpus.gold import default_scorer_path, load_page_scorer
    from .crossval import cross_validate_gold, format_table, generated_table, plot_publishers, veto_ablation
    from .persistence import load_model, model_path
    from .training import ensure_rendered

    specs = args.model or ["svm"]
    if len(specs) > 1:
        raise CommandError("--gold-cv takes one --model: the labeller whose settings each fold retrains")
    shipped = load_model(model_path(specs[0]), trust=args.trust_model)
    gold_dir = _existing_dir(args.gold_cv, "gold dataset (scilabel corpus gold)")
    manifest = pd.read_csv(gold_dir / "manifest.csv")
    scorer = load_page_scorer(args.scorer or default_scorer_path(Path(manifest["gold_file"].iloc[0]).parents[1]))
    for folder in args.data:
        ensure_rendered(folder)
    variants = {"cv, layout only": {"page_metadata": False}} if shipped.page_metadata else {}
    if shipped.printed_once:
        variants["cv, repeats kept"] = {"printed_once": ()}
    if shipped.layout_memory:
        variants["cv, nothing remembered"] = {"layout_memory": 0.0}
    if args.ablate_vetoes:
        variants.update(veto_ablation(shipped.vetoes))
    result = cross_validate_gold(gold_dir, args.data, scorer, template=shipped, shipped=shipped,
                                 collections=args.collections, n_folds=args.folds,
                                 generated_pages=args.generated_pages, peers=tuple(args.peers), variants=variants,
                                 platforms=args.platforms)
    table = format_table(result, scorer)
    print(f"real-page gold, {args.folds}-fold publisher-grouped cross-validation (cv), the model as given "
          f"(shipped) and peers, on the {len(result.pages['cv'])} headline pages\n{table}")
    headings = _structure_cv(args, gold_dir, result) if args.structure_gold else None
    generated = generated_table(shipped, args.data)
    print(f"\nthe model as given on the generated test families (zone F, %)\n{generated.to_string(index=False)}")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        report = {**result.to_json(scorer), "generated": generated.to_dict("records")}
        write_text(args.out / "gold_cv.json", json.dumps(report, indent=1, ensure_ascii=False))
        if headings is not None:
            write_text(args.out / "structure_headings_cv.csv", headings.to_csv(index=False))
        write_text(args.out / "gold_cv.txt", f"{table}\n\nthe model as given on the generated test families "
                                             f"(zone F, %)\n{generated.to_string(index=False)}\n")
        plot_publishers(result, scorer, args.out / "gold_cv_publishers.png")
        print(f"tables and the per-publisher chart in {args.out}")


def _structure_cv(args: argparse.Namespace, gold_dir: Path, result) -> pd.DataFrame:
    """Section headings of the gold pages under the same publisher folds, each page structured from
    the zone labels its fold's labeller gave (:func:`scilabel.structure.crossval.heading_cv`)."""
    from .corpus.dataset import load_zones
    from .structure.crossval import heading_cv
    from .structure.gold import read_heading_gold
    from .structure.training import training_rows

    headings = read_heading_gold(_existing_dir(args.structure_gold, "section-heading gold"))
    labels = {page["page"]: page["zone_labels"] for page in result.pages["cv"]}
    zones = load_zones([gold_dir])
    zones = zones[zones["document"].isin([p for p in labels if headings.get(p)])]
    rows = training_rows([*args.data, gold_dir], headings)
    table = heading_cv(rows, zones, headings, labels, result.folds).table()
    print(f"\nsection headings of the gold pages, same folds (a block model per fold; zones labelled by the "
          f"fold's labeller; scored as tools/score_structure.py scores)\n{table.to_string(index=False)}")
    return table


def cmd_evaluate(args: argparse.Namespace) -> None:
    """Score models side by side per label, zone and token level; write tables and pictures."""
    from .evaluation import evaluate, plot_confusion
    from .persistence import SHIPPED_MODELS, load_model, model_path
    from .training import ensure_rendered

    if not args.data and not args.gold:
        raise CommandError("give the dataset folders to score (--data) or reviewed gold (--gold)")
    if args.gold_cv:
        return cmd_gold_cv(args)

    systems = {}
    for spec in args.model or SHIPPED_MODELS:
        labeler = load_model(model_path(spec), trust=args.trust_model)
        name = labeler.model_card_.get("name", Path(spec).stem) if hasattr(labeler, "model_card_") else Path(spec).stem
        if name in systems:  # two models whose cards share a name: tell them apart by their files
            name = f"{name} ({spec})"
        systems[name] = _labeler_system(labeler)
        if args.ablation:  # same fitted emissions, zones labelled independently
            systems[name + " (no HMM)"] = _labeler_system(copy.copy(labeler).set_params(sequence=False))
    if args.gold:
        return _evaluate_gold(systems, args)
    for folder in args.data:
        ensure_rendered(folder)
    result = evaluate(systems, args.data, split=args.split)
    pd.set_option("display.width", 200)
    print(f"split: {args.split}   F-measure per label (%), zone and token level")
    print(result.summary.to_string(index=False))
    if args.structure_gold:
        structure = _structure_table(systems, args)
        print(f"\nsection headings of the pages {args.structure_gold} covers (shipped block model, zones labelled by "
              f"each model; scored as tools/score_structure.py scores)\n{structure.to_string(index=False)}")
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            write_text(args.out / "structure_headings.csv", structure.to_csv(index=False))
    side_by_side = _with_baselines(result.summary, args) if args.baselines else None
    if side_by_side is not None:
        print(f"\nsplit: {args.split}   token-level F per label (%), models and baselines side by side"
              " (content: main-content F against data-scilabel-content gold;\n       ms_per_page from the HTML, render_ms of it in the browser)")
        print(side_by_side.to_string(index=False))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        write_text(args.out / "summary.csv", result.summary.to_csv(index=False))
        write_text(args.out / "summary.json", result.summary.to_json(orient="records", indent=2))
        write_text(args.out / "by_group.csv", result.by_group.to_csv(index=False))
        write_text(args.out / "details.csv", result.details.to_csv(index=False))
        write_text(args.out / "worst_pages.csv", result.worst_pages.to_csv(index=False))
        if side_by_side is not None:
            write_text(args.out / "systems.csv", side_by_side.to_csv(index=False))
            write_text(args.out / "systems.json", side_by_side.to_json(orient="records", indent=2))
        for name, table in result.confusions.items():
            safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
            plot_confusion(table, f"{name} ({args.split})", args.out / f"confusion_{safe}.png")
        print(f"tables and confusion matrices in {args.out}")


def _evaluate_gold(systems: dict, args: argparse.Namespace) -> None:
    """Score the models on reviewed gold pages, field by field, as the shared data's page scorer does."""
    from . import page_scores
    from .corpus.gold import load_page_scorer
    from .evaluation import gold_table, score_gold_pages
    from .review.gold import gold_dataset

    scorer = load_page_scorer(args.scorer) if args.scorer else page_scores
    for folder in args.gold:
        results = score_gold_pages(systems, gold_dataset(_existing_dir(folder, "gold")), scorer)
        print(f"{folder}: {gold_table(results, scorer)}")
        if args.out:
            report = {name: {"summary": scorer.aggregate(pages), "pages": pages} for name, pages in results.items()}
            write_text(args.out / f"gold_{folder.name}.json", json.dumps(report, indent=1, ensure_ascii=False))


def _structure_table(systems: dict, args: argparse.Namespace) -> pd.DataFrame:
    """Heading precision, recall, F1 and level accuracy per labeller and dataset on the pages the
    reviewed heading gold (``--structure-gold``) covers."""
    from .corpus.dataset import load_zones
    from .structure.gold import read_heading_gold, score_headings

    headings = read_heading_gold(_existing_dir(args.structure_gold, "section-heading gold"))
    rows = []
    for folder in args.data:
        zones = load_zones([folder])
        zones = zones[zones["document"].isin(list(headings))]
        if zones.empty:
            continue
        for name, system in systems.items():
            rows.append({"system": name, "dataset": folder.name, **score_headings(zones, system, headings)})
    return pd.DataFrame(rows).round(3)


def _with_baselines(summary: pd.DataFrame, args: argparse.Namespace) -> pd.DataFrame:
    """The models' token-level rows and the baselines' rows in one table (same label columns), with
    time per page from the HTML: the models' labelling plus rendering (timed on a sample of pages)."""
    from .baselines import BASELINES, get_baseline
    from .baselines.scoring import score_baselines
    from .evaluation import render_ms_per_page

    names = list(BASELINES) if args.baselines == ["all"] else args.baselines
    scored = score_baselines([get_baseline(n) for n in names], args.data, split=args.split)
    labels = [c for c in summary.columns if c not in ("system", "dataset", "level", "ms_per_page", "content")]
    models = summary[summary["level"] == "token"].drop(columns="level")
    render = {folder.name: render_ms_per_page(folder, args.split) for folder in args.data}
    models = models.assign(render_ms=models["dataset"].map(render),
                           ms_per_page=models["ms_per_page"] + models["dataset"].map(render))
    rows = pd.DataFrame({"system": scored["baseline"], "dataset": scored["dataset"],
                         **{lab: 100 * scored.get(f"{lab}_f", float("nan")) for lab in labels},
                         "content": 100 * scored["content_f"], "ms_per_page": scored["ms_per_page"]})
    table = pd.concat([models, rows], ignore_index=True)
    return table[["system", "dataset", *labels, "content", "ms_per_page", "render_ms"]].round(1)


def _labeler_system(labeler):
    return lambda frame: labeler.label_pages(frame)[0].labels


TRUST_HELP = ("also load model files that are joblib pickles (scilabel 0.3 and earlier): loading a pickle runs "
              "code from the file, so only for files you trust")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scilabel", description="Label the zones of scholarly article web pages.")
    parser.add_argument("--version", action="version", version=f"scilabel {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)")
    parser.add_argument("-q", "--quiet", action="store_true", help="only errors")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def page_command(name: str, func: Callable[[argparse.Namespace], None], help_text: str,
                     models: bool = False, page_optional: bool = False, many: bool = False) -> argparse.ArgumentParser:
        """A subcommand reading a page (``many``: one or more inputs); ``models``: it labels with a zone
        labeller and reference parser."""
        p = sub.add_parser(name, help=help_text, description=help_text)
        if many:
            p.add_argument("page", nargs="*" if page_optional else "+", metavar="INPUT",
                           help="HTML and PDF files, - (an HTML page on standard input), http(s) URLs, directories "
                                "(recursive), @list.txt (a path or URL a line), WARC files (their HTML responses)")
        else:
            p.add_argument("page", nargs="?" if page_optional else None, help="HTML file, http(s) URL, or an HTML string")
        p.add_argument("--timeout", type=float, default=10.0, help="seconds a page may take to load (default 10)")
        limits = p.add_argument_group("limits of one page (a page past one fails with a message naming its option)")
        limits.add_argument("--deadline", type=float, default=Limits.deadline,
                            help=f"seconds for a page as a whole: fetch, render, reading (default {Limits.deadline:g})")
        limits.add_argument("--max-page-mb", type=float, default=Limits.max_bytes / 2**20,
                            help=f"size of a page file or response (default {Limits.max_bytes // 2**20})")
        limits.add_argument("--max-nodes", type=int, default=Limits.max_nodes,
                            help=f"elements and text nodes read from a page (default {Limits.max_nodes})")
        limits.add_argument("--max-memory-mb", type=int, default=Limits.memory_mb,
                            help=f"memory of the browser's renderer for a page (default {Limits.memory_mb})")
        limits.add_argument("--redirects-any-host", action="store_true",
                            help="follow a URL's redirects to other hosts and ports (default: the same host only)")
        p.add_argument("-o", "--output", type=Path, help="write here instead of standard output")
        if models:
            p.add_argument("--model", help="zone labeller: model file, or an emission name (nb, svm) for its "
                                            "shipped model (default: svm, or $SCILABEL_MODEL)")
            p.add_argument("--refs-model", type=Path, help="reference parser file (default: the shipped one)")
            p.add_argument("--trust-model", action="store_true", help=TRUST_HELP)
            p.add_argument("--no-page-metadata", action="store_true",
                           help="label by layout and words alone, as if the page declared no metadata "
                                "(its meta tags, JSON-LD ...); the record then has no metadata block")
        if many:
            p.add_argument("--compact", action="store_true", help="one page's JSON record on one line (as JSON lines)")
            batch = p.add_argument_group(
                "many pages (a directory, @list, WARC file, or several inputs, whatever their count): records are "
                "written as JSON lines (or Parquet: -o out.parquet) as pages finish; a page that fails is skipped "
                "and reported on standard error (exit status 3)")
            batch.add_argument("--workers", type=int, help="worker processes, each with its own browser (default 1)")
            batch.add_argument("--resume", action="store_true",
                               help="go on with the -o file of an interrupted run: skip every page already in it")
            batch.add_argument("--failures", type=Path, metavar="FILE",
                               help="write a JSON line (source, error, cause) for each page that failed here")
            batch.add_argument("--glob", action="append", metavar="PATTERN",
                               help=f"which files of a directory to read (repeatable; default {' '.join(DEFAULT_PATTERNS)})")
            batch.add_argument("--follow-symlinks", action="store_true",
                               help="follow a directory's symbolic links out of it (by default only links to files "
                                    "inside)")
            batch.add_argument("--dask", metavar="ADDRESS",
                               help="run on the Dask distributed cluster whose scheduler is at ADDRESS (tcp://host:8786)")
        p.set_defaults(func=func)
        return p

    p = page_command("zones", cmd_zones, "print the component zones of a page")
    p.add_argument("--format", choices=formats(ZONES), default="table")
    p = page_command("render", cmd_render, "render a page and report what the browser laid out")
    p.add_argument("--screenshot", type=Path, help="save a full-page PNG screenshot here")

    p = page_command("label", cmd_label, "label the zones of a page, or of every page of directories, lists and "
                     "WARC files", models=True, many=True)
    p.add_argument("--format", choices=formats(LABEL), default="json",
                   help="output format (json: indented for one page, JSON lines for many; the bibliography formats "
                        "write the references of the pages, the cite- formats the article's own citation)")
    p.add_argument("--overlay", type=Path, help="save the page screenshot with labelled boxes (for many pages a "
                                                 "folder, each page's picture at its input path there)")
    p.add_argument("--contact-sheet", type=Path, metavar="PNG",
                   help="with many pages and --overlay: also a grid of every page's overlay, captioned, in this picture")
    p.add_argument("--baseline", choices=("cbr", "cbr-labelled", "sentences", "sentences-split", "trafilatura",
                                          "metatags", "readability"),
                   help="label with a comparison system instead of the HMM (same JSON schema)")
    p.add_argument("--case-base", type=Path, help="with --baseline cbr*: case base file to load and grow")
    p.add_argument("--no-references", action="store_true",
                   help="leave the references unparsed (the record's references and anchor_format are null) where only "
                        "title, authors, affiliations and abstract are wanted: they are two thirds of the work after "
                        "rendering")

    p = page_command("refs", cmd_refs, "parsed references of a page with their citing sentences, of many pages, or "
                     "of one string", models=True, page_optional=True, many=True)
    p.add_argument("--string", help="parse this one reference string instead of a page")
    p.add_argument("--format", choices=formats(REFERENCES), default="json")

    p = page_command("structure", cmd_structure,
                     "the article's structure: front matter, nested sections, paragraphs, sentences, figures, "
                     "footnotes, references", models=True, many=True)
    p.add_argument("--format", choices=formats(STRUCTURE),
                   help="output format (default xml for one page; many pages give JSON lines)")
    p.add_argument("--block-model", type=Path, help="block model file (default: the shipped one, models/scilabel-blocks.npz)")

    p = page_command("review", cmd_review, "review a page's labels in the browser (a local app on 127.0.0.1) and "
                     "save them as gold", models=True)
    p.add_argument("--gold", type=Path, default=Path("gold"),
                   help="folder of the gold files read and written, <source>/<name>.json (default ./gold)")
    p.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (default 8765; 0: any free port)")
    p.add_argument("--order", choices=("path", "uncertainty"), default="path",
                   help="page order: by path, or the pages the model is least sure of first")

    p = sub.add_parser("train-refs", help="train the reference field parser (CRF)")
    p.add_argument("--data", type=Path, default=_default_data(),
                   help="shared data folder: labelled strings in references/, JATS articles in jats/")
    p.add_argument("--out", type=Path, required=True, help="model file to write (.npz)")
    p.set_defaults(func=cmd_train_refs)

    p = sub.add_parser("train-blocks", help="train the structure step's block model (heading, paragraph, caption ...)")
    p.add_argument("--data", type=Path, nargs="+", required=True,
                   help="dataset folders with structure gold (scilabel corpus generate, real-platform families)")
    p.add_argument("--gold", type=Path, help="reviewed gold dataset (scilabel corpus gold) whose pages --heading-gold covers")
    p.add_argument("--heading-gold", type=Path, default=_default_data() / "gold-structure",
                   help="reviewed section-heading gold of real pages (default: the shared data's gold-structure)")
    p.add_argument("--pages-per-family", type=int, default=25, help="training pages of each family (seeded sample)")
    p.add_argument("--hold-out", nargs="*", default=[], metavar="FAMILY", help="families left out of training")
    p.add_argument("--out", type=Path, required=True, help="model file to write (.npz)")
    p.set_defaults(func=cmd_train_blocks)

    p = sub.add_parser("train", help="train a labeller on dataset folders")
    p.add_argument("--data", type=Path, nargs="+", required=True, help="dataset folders (scilabel corpus generate/silver)")
    p.add_argument("--gold", type=Path, nargs="*", default=[],
                   help="reviewed gold trained on whole, every split: datasets (scilabel corpus gold) or folders of "
                        "gold files (scilabel review); the real pages a shipped model learns from (the model card's "
                        "test figures leave them out)")
    p.add_argument("--gold-weight", type=int, default=1, metavar="N",
                   help="each --gold page counts N times in training (default 1)")
    p.add_argument("--platforms", action="store_true",
                   help="also train on the generated corpus's real-platform families (left out by default: they "
                        "cost the labeller on real pages; the structure model learns from them)")
    p.add_argument("--emission", default="nb", metavar="NAME",
                   help="emission model, a name in scilabel.emission.EMISSIONS (default nb, the paper's Naive Bayes)")
    p.add_argument("--collections", type=Path,
                   help="field collections Parquet (scilabel corpus medline): the NB word model, the SVM's field word scores")
    p.add_argument("--topology", choices=tuple(TOPOLOGIES), default=DEFAULT_TOPOLOGY,
                   help="HMM links: the paper's Figure 1 (strict), with authors and affiliations alternating "
                        "(interleaved), and also affiliations after the abstract (late_affiliations), and also "
                        "affiliations printed after the references, as end matter (end_matter); default "
                        f"{DEFAULT_TOPOLOGY}")
    for name, what in HMM_SETTINGS.items():
        p.add_argument(f"--{name.replace('_', '-')}", type=_probability_or_counted, default=argparse.SUPPRESS,
                       metavar="P|counted", help=f"{what}: a probability, or 'counted' for the training pages' "
                                                 "estimate (default: ZoneLabeler's, written to the model card)")
    p.add_argument("--out", type=Path, required=True, help="model file to write (.npz)")
    p.add_argument("--random-state", type=int, default=0,
                   help="seed of the SVM's training sample and solver (default 0, as the shipped model)")
    p.add_argument("--workers", type=int, default=2, help="rendering processes for datasets not yet rendered")
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("evaluate", help="score models per label on dataset folders")
    p.add_argument("--model", nargs="+", help="model files, or emission names (nb, svm) for their shipped models "
                                              "(default: every shipped model)")
    p.add_argument("--data", type=Path, nargs="+", help="dataset folders")
    p.add_argument("--gold", type=Path, nargs="+", metavar="DIR",
                   help="instead of --data: reviewed gold (folders of gold files from scilabel review, or gold "
                        "datasets), every page scored per field as tools/score_pages.py scores (--scorer: with it)")
    p.add_argument("--split", default="test", help="which split to score (default test)")
    p.add_argument("--ablation", action="store_true", help="also score each model with sequence=False (no HMM)")
    p.add_argument("--trust-model", action="store_true", help=TRUST_HELP)
    p.add_argument("--baselines", nargs="+", metavar="NAME", help="also score these baselines (or: all) in one table")
    p.add_argument("--out", type=Path, help="folder for CSV/JSON tables and confusion matrices")
    p.add_argument("--structure-gold", type=Path, metavar="DIR",
                   help="also score the article structure's section headings on the --data pages this reviewed "
                        "heading gold covers (the shared data's gold-structure); with --gold-cv, on the gold pages "
                        "under the same publisher folds")
    cv = p.add_argument_group("real-page gold cross-validation (--gold-cv); --data are then the generated "
                              "datasets whose train split every fold also trains on")
    cv.add_argument("--gold-cv", type=Path, metavar="GOLD",
                    help="gold dataset (scilabel corpus gold): publisher-grouped cross-validation of the --model's "
                         "settings (default the shipped svm), scored as tools/score_pages.py scores, beside the model "
                         "as given and --peers")
    cv.add_argument("--collections", type=Path, help="field collections Parquet the folds' models train with")
    cv.add_argument("--folds", type=int, default=5, help="folds of publishers (default 5)")
    cv.add_argument("--generated-pages", type=int, metavar="N",
                    help="train each fold on a seeded sample of N generated pages (default: all of the train split)")
    cv.add_argument("--platforms", action="store_true",
                    help="the folds also train on the generated real-platform families (as scilabel train --platforms)")
    cv.add_argument("--peers", nargs="*", default=["metatags", "trafilatura"], metavar="NAME",
                    help="baselines scored beside, from the fields they fill (default metatags trafilatura)")
    cv.add_argument("--scorer", type=Path, help="the page scorer (default: tools/score_pages.py beside the shared data)")
    cv.add_argument("--ablate-vetoes", action="store_true",
                    help="also score each fold's model with each veto left out in turn, and with none")
    p.set_defaults(func=cmd_evaluate)

    model = sub.add_parser("model", help="model files").add_subparsers(dest="model_command", required=True, metavar="ACTION")
    p = model.add_parser("convert", help="rewrite a joblib pickle of a labeller or reference parser in the safe format "
                                         "(loading the pickle runs its code: only for files you trust)")
    p.add_argument("source", type=Path, help="the pickle (.joblib)")
    p.add_argument("target", type=Path, help="the model file to write (.npz)")
    p.set_defaults(func=cmd_model_convert)

    corpus = sub.add_parser("corpus", help="build labelled data").add_subparsers(dest="corpus_command", required=True, metavar="KIND")
    p = corpus.add_parser("generate", help="labelled pages from JATS articles through the page-template families")
    p.add_argument("--jats", type=Path, default=_default_data() / "jats", help="folder of JATS/NLM XML articles")
    p.add_argument("--out", type=Path, required=True, help="output folder (pages, manifest.csv, zones.parquet)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--families", nargs="+", help="only these families (default: the hand-written ones; name real-platform families to add them)")
    p.add_argument("--workers", type=int, default=2, help="rendering processes (default 2)")
    p.add_argument("--timeout", type=float, default=10.0)
    p.set_defaults(func=cmd_corpus_generate)
    p = corpus.add_parser("silver", help="silver labels on real publisher pages from their meta tags")
    p.add_argument("--pages", type=Path, default=_default_data() / "pages", help="folder of publisher HTML pages")
    p.add_argument("--out", type=Path, required=True, help="output folder (manifest.csv, zones.parquet, overlays/)")
    p.add_argument("--workers", type=int, default=2, help="rendering processes (default 2)")
    p.add_argument("--overlays", type=int, default=12, help="label overlay pictures to draw (default 12)")
    p.add_argument("--timeout", type=float, default=10.0)
    p.set_defaults(func=cmd_corpus_silver)
    p = corpus.add_parser("gold", help="labelled real publisher pages from their reviewed gold")
    p.add_argument("--gold", type=Path, nargs="+", default=[_default_data() / "gold", _default_data() / "gold-extra"],
                   help="gold folders (<source>/<name>.json); the first is the headline set (split test), the "
                        "others training pages (split train); default: gold and gold-extra of the shared data")
    p.add_argument("--out", type=Path, required=True, help="output folder (manifest.csv, zones.parquet, cache/)")
    p.add_argument("--scorer", type=Path, help="the page scorer (default: tools/score_pages.py beside the shared data)")
    p.add_argument("--workers", type=int, default=2, help="rendering processes (default 2)")
    p.add_argument("--timeout", type=float, default=10.0)
    p.set_defaults(func=cmd_corpus_gold)
    p = corpus.add_parser("medline", help="per-field text collections for the word model")
    p.add_argument("--data", type=Path, default=_default_data(), help="shared data folder (medline/, headers/, references/)")
    p.add_argument("--jats", type=Path, help="also JATS front matter of the train-split articles from this folder")
    p.add_argument("--seed", type=int, default=0, help="the seed the corpus was generated with (decides the train split)")
    p.add_argument("--out", type=Path, required=True, help="Parquet file to write")
    p.set_defaults(func=cmd_corpus_medline)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    level = logging.ERROR if args.quiet else (logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)]
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    try:
        status = args.func(args)
    except (PageError, BrowserNotFound, CommandError, FileNotFoundError, ValueError) as exc:
        print(f"scilabel: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("scilabel: interrupted", file=sys.stderr)
        return 130
    return status or 0


def run() -> NoReturn:
    """The ``scilabel`` command: :func:`main`, then the process ends without tearing its modules and
    objects down one by one (about 0.25 s of every start), once what an orderly exit does for others is
    done: the exit handlers run (logging flushed, worker processes ended, ``weakref.finalize`` callbacks
    such as temporary folders' removal) and the output flushed, as multiprocessing ends its own children.
    Where a thread that is no daemon still runs, the process exits the usual way, which waits for it."""
    status = main()
    if any(not thread.daemon for thread in threading.enumerate() if thread is not threading.main_thread()):
        sys.exit(status)
    atexit._run_exitfuncs()
    with contextlib.suppress(OSError):  # a reader that closed the pipe early has what it wanted
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(status)
