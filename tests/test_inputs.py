"""What a batch run labels: directories (recursive, symbolic links kept inside), @lists, WARC files;
and the output journal it appends to and resumes from."""
from __future__ import annotations

import io
import json
import os

import pytest

from scilabel.inputs import Unreadable, expand_inputs, iter_pages, source_name
from scilabel.journal import RecordLog, RecordOutput, read_parquet_records


def write_warc(path, records) -> None:
    """A gzipped WARC of (uri, status, content type, body) responses and one request record."""
    pytest.importorskip("warcio", reason="WARC input needs warcio: pip install -e '.[batch]'")
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with path.open("wb") as out:
        writer = WARCWriter(out, gzip=True)
        writer.write_record(writer.create_warc_record("https://example.org/", "request", payload=io.BytesIO(b"GET /")))
        for uri, status, ctype, body in records:
            http = StatusAndHeaders(status, [("Content-Type", ctype)], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http))


def test_warc_gives_its_html_responses_under_their_uris(tmp_path):
    warc = tmp_path / "crawl.warc.gz"
    write_warc(warc, [
        ("https://example.org/a", "200 OK", "text/html; charset=iso-8859-1", "<p>caf\xe9</p>".encode("latin-1")),
        ("https://example.org/logo.png", "200 OK", "image/png", b"\x89PNG"),
        ("https://example.org/gone", "404 Not Found", "text/html", b"<p>missing</p>"),
        ("https://example.org/b", "200 OK", "application/xhtml+xml", b"<p>b</p>"),
        ("https://example.org/bin", "200 OK", "text/html", b"\x00\x01" * 300),
    ])
    assert expand_inputs([str(warc)]) == [str(warc)]
    pages = list(iter_pages([str(warc)]))
    assert [source_name(p) for p in pages] == ["https://example.org/a", "https://example.org/b", "https://example.org/bin"]
    assert pages[0].html == "<p>caf\xe9</p>" and pages[0].url == "https://example.org/a"
    assert isinstance(pages[2], Unreadable) and "binary content" in pages[2].error


def test_directories_are_walked_for_regular_matching_files_and_keep_links_inside(tmp_path):
    root, outside = tmp_path / "crawl", tmp_path / "elsewhere"
    (root / "a" / "b").mkdir(parents=True)
    outside.mkdir()
    for path in (root / "top.html", root / "a" / "b" / "deep.HTM", root / "a" / "notes.txt", outside / "secret.html"):
        path.write_text("<p>x</p>")
    (root / "a" / "inside.html").symlink_to(root / "top.html")
    (root / "out.html").symlink_to(outside / "secret.html")
    (root / "linked").symlink_to(outside, target_is_directory=True)
    (root / "broken.html").symlink_to(tmp_path / "nowhere.html")
    os.mkfifo(root / "pipe.html")
    found = [os.path.relpath(p, root) for p in expand_inputs([str(root)])]
    assert found == ["a/b/deep.HTM", "a/inside.html", "top.html"]
    followed = [os.path.relpath(p, root) for p in expand_inputs([str(root)], follow_symlinks=True)]
    assert followed == ["a/b/deep.HTM", "a/inside.html", "linked/secret.html", "out.html", "top.html"]
    assert [os.path.relpath(p, root) for p in expand_inputs([str(root)], patterns=["*.txt"])] == ["a/notes.txt"]


def test_a_list_names_paths_from_its_own_folder_and_urls(tmp_path):
    (tmp_path / "pages").mkdir()
    listing = tmp_path / "pages" / "list.txt"
    listing.write_text("# crawl of today\none.html\n\n  https://example.org/x  \n/abs/two.html\n")
    assert expand_inputs([f"@{listing}", "three.html"]) == [
        str(tmp_path / "pages" / "one.html"), "https://example.org/x", "/abs/two.html", "three.html"]


def test_a_log_drops_a_torn_last_line_and_never_loses_whole_ones(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_bytes(b'{"source": "a", "zones": []}\n{"source": "b", "zo')
    log = RecordLog(path)
    assert log.sources() == {"a"}
    log.append({"source": "c"})
    log.close()
    assert [json.loads(line)["source"] for line in path.read_text().splitlines()] == ["a", "c"]


def test_parquet_output_round_trips_nested_records_and_resumes(tmp_path):
    path = tmp_path / "out.parquet"
    records = [{"source": "a", "title": "T", "authors": ["X", "Y"], "metadata": {"doi": "10.1/a"}},
               {"source": "b", "title": None, "authors": [], "metadata": {}}]
    output = RecordOutput(path)
    output.append(records[0])
    output.close()
    resumed = RecordOutput(path, resume=True)
    assert resumed.done() == {"a"}
    resumed.append(records[1])
    resumed.close()
    assert read_parquet_records(path) == records
    assert not (tmp_path / "out.parquet.jsonl").exists()
