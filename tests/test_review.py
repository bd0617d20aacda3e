"""The review app in a real browser (Playwright driving Chromium on 127.0.0.1), its gold files, and what
its server refuses."""
from __future__ import annotations

import http.client
import json
import re
import shutil
import socket
from pathlib import Path

import pytest

from scilabel.cli import main
from scilabel.corpus.gold import zone_records
from scilabel.labeler import ZoneLabeler
from scilabel.persistence import load_model
from scilabel.readers.render import find_chromium
from scilabel.review import Review, ReviewServer, gold_path
from scilabel.review.server import is_loopback
from scilabel.schema import LABELS

from .conftest import EXAMPLE_PAGE

SECOND_PAGE = """<html><head><title>A second page</title></head><body>
<h1 data-scilabel="title">Wind dispersal of seeds in fragmented grassland</h1>
<p data-scilabel="authors">Ana Souto and Liam Byrne</p>
<h2 data-scilabel="abstract_heading">Summary</h2>
<p data-scilabel="abstract">Seeds travel further where grass is short. We measured it on twelve plots.</p>
<h2 data-scilabel="references_heading">Literature</h2>
<ol><li data-scilabel="references">Byrne L. Grassland seeds. Ecology Letters. 2020;3:1-9.</li></ol>
</body></html>"""


@pytest.fixture(scope="module")
def labeler(reader) -> ZoneLabeler:
    """A small labeller fitted on the example page's own gold (what it says matters less than that it
    gives each zone a label and a confidence)."""
    zones = reader.read(EXAMPLE_PAGE).zones.assign(document="example")
    zones["label"] = zones["label"].fillna("other")
    return ZoneLabeler(emission="nb", page_metadata=False).fit(zones)


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("pages") / "journal"
    folder.mkdir()
    shutil.copy(EXAMPLE_PAGE, folder / "a_example.html")
    (folder / "b_second.html").write_text(SECOND_PAGE, encoding="utf-8")
    (folder / "secret.txt").write_text("not for the app", encoding="utf-8")
    return folder


def serve(pages: Path, reader, labeler, gold: Path, order: str = "path") -> ReviewServer:
    review = Review(sorted(pages.glob("*.html")), reader, labeler, gold, order=order)
    server = ReviewServer(review)
    server.start()
    return server


@pytest.fixture(scope="module")
def app(pages, reader, labeler, tmp_path_factory):
    server = serve(pages, reader, labeler, tmp_path_factory.mktemp("gold") / "gold")
    yield server
    server.shutdown()
    server.server_close()
    server.review.close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=find_chromium(playwright.chromium.executable_path))
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def tab(browser, app):
    """One browser tab for the module; every request it makes is recorded."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.requests_seen = []
    page.on("request", lambda request: page.requests_seen.append(request.url))
    yield page
    page.close()


def open_app(tab, server: ReviewServer, index: int = 0) -> None:
    tab.goto(f"{server.url}#{index}")
    tab.wait_for_selector("#boxes .box")


def zone_of(server: ReviewServer, text: str, index: int = 0) -> int:
    texts = server.review.page(index).zones["text"].tolist()
    return next(i for i, t in enumerate(texts) if t.startswith(text))


def labels_shown(tab) -> list[str]:
    return tab.eval_on_selector_all("#zone-list .row", "rows => rows.sort((a, b) => a.dataset.i - b.dataset.i)"
                                    ".map(r => r.children[1].textContent)")


def settle(tab, server: ReviewServer, version: int, index: int = 0) -> None:
    """Wait until the server has taken the app's change (the page's version reached ``version``)."""
    tab.wait_for_function("() => app.page && app.page.version >= %d" % version)
    assert server.review.page(index).version >= version


def test_relabel_by_click_menu_and_keyboard(tab, app):
    open_app(tab, app)
    page = app.review.page(0)
    journal = zone_of(app, "Journal of Example Ecology")
    version, changes = page.version, int(page.labels[journal] != "other")
    tab.click(f"#boxes .box[data-i='{journal}']", force=True)
    tab.click("#labels button[data-label='other']")
    settle(tab, app, version + changes)
    assert page.labels[journal] == "other"
    assert "lab-other" in tab.get_attribute(f"#boxes .box[data-i='{journal}']", "class")
    metrics = zone_of(app, "Metrics")
    version = page.version
    tab.click(f"#zone-list .row[data-i='{metrics}']")
    tab.keyboard.press("1")  # title
    settle(tab, app, version + 1)
    assert page.labels[metrics] == "title" and labels_shown(tab)[metrics] == "title"
    tab.keyboard.press("u")
    settle(tab, app, version + 2)
    assert page.labels[metrics] == page.model_labels[metrics] == labels_shown(tab)[metrics]
    assert all(url.startswith(app.url) for url in tab.requests_seen), "the app asked for something elsewhere"


def test_select_a_run_by_shift_click_and_by_drag_then_undo(tab, app):
    open_app(tab, app)
    page = app.review.page(0)
    first, last = zone_of(app, "Baldock"), zone_of(app, "Reyes DO")
    before = page.labels.copy()
    tab.click(f"#zone-list .row[data-i='{first}']")
    tab.click(f"#zone-list .row[data-i='{last}']", modifiers=["Shift"])
    assert tab.eval_on_selector_all("#zone-list .row.selected", "rows => rows.map(r => +r.dataset.i)") == \
        list(range(first, last + 1))
    version = page.version
    tab.keyboard.press("8")  # other
    settle(tab, app, version + 1)
    assert (page.labels[first:last + 1] == "other").all()
    tab.keyboard.press("Control+z")
    settle(tab, app, version + 2)
    assert (page.labels == before).all() and labels_shown(tab) == before.tolist()
    # a drag over the boxes selects the run between where it starts and where it ends
    heading, abstract = zone_of(app, "Abstract"), zone_of(app, "Cities offer")
    start = tab.locator(f"#boxes .box[data-i='{heading}']").bounding_box()
    end = tab.locator(f"#boxes .box[data-i='{abstract}']").bounding_box()
    tab.mouse.move(start["x"] + 3, start["y"] + 3)
    tab.mouse.down()
    tab.mouse.move(end["x"] + 10, end["y"] + 10, steps=5)
    tab.mouse.up()
    assert tab.eval_on_selector_all("#boxes .box.selected", "boxes => boxes.map(b => +b.dataset.i)") == \
        list(range(heading, abstract + 1))


def test_save_reopen_and_score_the_gold(tab, app, pages, reader, labeler, scorer):
    open_app(tab, app)
    page = app.review.page(0)
    fixes = {"Journal of Example Ecology": "other", "Home Current issue": "other", "Metrics": "references_heading"}
    for text, label in fixes.items():
        version = page.version
        tab.click(f"#zone-list .row[data-i='{zone_of(app, text)}']")
        tab.keyboard.press(str(LABELS.index(label) + 1))
        if page.labels[zone_of(app, text)] != label:
            settle(tab, app, version + 1)
    tab.keyboard.press("s")
    tab.wait_for_function("() => document.getElementById('status').textContent.startsWith('saved')")
    path = gold_path(app.review.gold_dir, pages / "a_example.html")
    gold = json.loads(path.read_text(encoding="utf-8"))
    assert gold["zone_labels"] == page.labels.tolist()
    assert gold["authors"] == ["Marta Kowalczyk", "Daniel O. Reyes", "Ingrid Halvorsen"]
    assert gold["fields_scored"] == ["title", "authors", "affiliations", "abstract", "references"]
    assert gold["title"] == "Seasonal shifts in nectar foraging by urban Bombus bumblebees"
    # the saved gold scores 1.0 against itself with the reference scorer, and so do the zones it labels
    as_predicted = [{"label": field, "text": " ".join(v) if isinstance(v, list) else v}
                    for field in gold["fields_scored"] for v in [gold[field]]]
    scores, similarity, invalid = scorer.score_page(gold, as_predicted)
    assert similarity == 1.0 and invalid == 0 and {s["F1"] for s in scores.values()} == {1.0}
    scores, _, _ = scorer.score_page(gold, zone_records(page.zones["text"], page.labels))
    assert {field: s["F1"] for field, s in scores.items() if field != "authors"} == \
        {"title": 1.0, "affiliations": 1.0, "abstract": 1.0, "references": 1.0}
    assert scores["authors"]["R"] == 1.0  # the byline's "and" is in the zone, not among the names
    # a new session on the same gold folder opens the page with the saved labels
    again = serve(pages, reader, labeler, app.review.gold_dir)
    try:
        open_app(tab, again)
        assert labels_shown(tab) == gold["zone_labels"]
        assert again.review.page(0).labels.tolist() == gold["zone_labels"] != again.review.page(0).model_labels.tolist()
        tab.keyboard.press("n")
        tab.wait_for_function("() => app.page && app.page.index === 1")
        assert "b_second.html" in tab.text_content("#page-name")
    finally:
        again.shutdown()
        again.server_close()
        again.review.close()


def request(server: ReviewServer, path: str, method: str = "GET", body: bytes | None = None,
            headers: dict | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.putrequest(method, path, skip_host="Host" in (headers or {}))
        for name, value in {"Content-Length": str(len(body or b"")), **(headers or {})}.items():
            connection.putheader(name, value)
        connection.endheaders(body)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


@pytest.mark.parametrize("path", [
    "/static/../../../../etc/passwd", "/static/..%2f..%2f..%2fetc%2fpasswd", "/static/%2e%2e/%2e%2e/etc/hostname",
    "/../../etc/passwd", "//etc/passwd", "/static/secret.txt", "/secret.txt", "/journal/secret.txt",
    "/api/pages/0/../../secret.txt", "/api/pages/0/screenshot.png/../../../secret.txt", "/api/pages/-1",
    "/api/pages/0%2f..%2fsecret.txt", "/static/", "/static/.", "/static/../server.py", "/static/../pages.py",
])
def test_serves_nothing_outside_its_pages_and_assets(app, path):
    status, body = request(app, path)
    assert status == 404
    assert b"root:" not in body and b"not for the app" not in body and b"import" not in body


def test_refuses_other_hosts_origins_and_addresses(app):
    assert request(app, "/api/session")[0] == 200
    assert request(app, "/api/session", headers={"Host": "attacker.example"})[0] == 403
    json_post = {"Content-Type": "application/json"}
    assert request(app, "/api/pages/0/undo", "POST", b"{}", {**json_post, "Origin": "http://attacker.example"})[0] == 403
    assert request(app, "/api/pages/0/undo", "POST", b"a=1", {"Content-Type": "application/x-www-form-urlencoded"})[0] == 415
    assert request(app, "/api/pages/0/labels", "POST", b'{"zones": [0], "label": "nonsense"}', json_post)[0] == 400
    assert request(app, "/api/pages/0/labels", "POST", b'{"zones": [99999], "label": "other"}', json_post)[0] == 400
    assert app.server_address[0] == "127.0.0.1"
    assert app.verify_request(None, ("127.0.0.1", 5000)) and app.verify_request(None, ("::1", 5000))
    assert not app.verify_request(None, ("192.168.1.20", 5000)) and not app.verify_request(None, ("10.0.0.1", 1))
    assert is_loopback("127.0.0.5") and not is_loopback("0.0.0.0") and not is_loopback("not an address")
    outside = _outside_address()
    if outside is not None:  # the machine's own non-loopback address: nothing listens there
        with pytest.raises(OSError):
            socket.create_connection((outside, app.port), timeout=2).close()


def _outside_address() -> str | None:
    """This machine's address on its default route, if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the interface
        except OSError:
            return None
        address = probe.getsockname()[0]
    return None if is_loopback(address) or address == "0.0.0.0" else address


def test_pages_ordered_by_uncertainty(pages, reader, labeler, tmp_path):
    review = Review(sorted(pages.glob("*.html")), reader, labeler, tmp_path / "gold", order="uncertainty")
    try:
        unsure = [review.page(i).uncertainty for i in range(len(review))]
        assert unsure == sorted(unsure, reverse=True) and len(set(unsure)) == 2
        assert [p["uncertainty"] for p in review.listing()] == [round(u, 3) for u in unsure]
    finally:
        review.close()


def test_page_state_relabel_and_undo_in_memory(app):
    page = app.review.page(1)
    before = page.labels.copy()
    assert page.relabel([0, 1, 1], "abstract") == [i for i in (0, 1) if before[i] != "abstract"]
    assert page.relabel([0, 1], "abstract") == []  # nothing changed: nothing to undo
    page.undo()
    assert (page.labels == before).all()
    with pytest.raises(ValueError, match="unknown label"):
        page.relabel([0], "keywords")


def test_review_command_errors(tmp_path, capsys):
    assert main(["review", str(tmp_path / "missing.html")]) == 1
    assert re.search(r"missing\.html: no such page or directory", capsys.readouterr().err)
    assert main(["review", str(tmp_path)]) == 1
    assert "no HTML pages to review" in capsys.readouterr().err


def test_reviewed_gold_trains_and_evaluates(app, labeler, scorer, tmp_path, monkeypatch, capsys):
    from scilabel.corpus.dataset import load_zones
    from scilabel.persistence import save_model
    from scilabel.review.gold import gold_dataset
    from scilabel.training import repeat_pages

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    page = app.review.page(1)
    gold_dir = tmp_path / "reviewed"
    page.relabel([zone_of(app, "Summary", 1)], "abstract_heading")
    path = page.save(gold_dir)
    assert path == gold_dir / "journal" / "b_second.json"
    dataset = gold_dataset(gold_dir, workers=1)
    zones = load_zones([dataset])
    assert zones["label"].tolist() == page.labels.tolist()  # every zone's saved label, headings included
    weighted = repeat_pages(zones, 3)
    assert len(weighted) == 3 * len(zones) and weighted["document"].nunique() == 3
    with pytest.raises(ValueError, match="at least 1"):
        repeat_pages(zones, 0)
    model = save_model(labeler, tmp_path / "small.npz", {"name": "small"})
    out = tmp_path / "eval"
    assert main(["evaluate", "--model", str(model), "--gold", str(gold_dir), "--out", str(out)]) == 0
    ours = capsys.readouterr().out
    report = json.loads((out / "gold_reviewed.json").read_text())
    expected = scorer.aggregate([{"labels": scorer.score_page(json.loads(path.read_text()),
                                                              zone_records(page.zones["text"], labeler.predict(zones)))[0]}])
    assert report["small"]["summary"] == expected
    assert main(["evaluate", "--model", str(model), "--gold", str(gold_dir), "--scorer",
                 str(Path(scorer.__file__))]) == 0
    assert capsys.readouterr().out == ours  # the reference scorer prints the same table
    trained = tmp_path / "tuned.npz"
    assert main(["train", "--data", str(dataset), "--gold", str(gold_dir), "--gold-weight", "3", "--emission", "nb",
                 "--out", str(trained)]) == 0
    card = json.loads(capsys.readouterr().out)
    assert card["trained_on"]["pages"] == 3 and card["trained_on"]["gold_weight"] == 3
    assert zones["class_path"].astype(bool).all()  # each zone's place in its template ...
    assert load_model(trained).training_summary_["remembered_pages"] == 1  # ... kept for the reviewed page alone
