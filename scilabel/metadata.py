"""Bibliographic metadata a page declares about itself, read from every form publishers use into one
record (:class:`PageMeta`):

- ``highwire``: Highwire Press ``citation_*`` meta tags (Google Scholar's);
- ``dublin_core``: ``dc.*`` / ``DC.*`` / ``dcterms.*`` meta tags;
- ``prism``: ``prism.*`` meta tags;
- ``html``: plain HTML (``<meta name="description">``, ``<meta name="keywords">``, ``<html lang>``);
- ``open_graph``: ``og:*`` and ``article:*`` meta tags;
- ``json_ld``: schema.org JSON-LD (``ScholarlyArticle``, ``MedicalScholarlyArticle``, ``Article``;
  in ``@graph`` arrays too, ``@id`` references resolved);
- ``coins``: a COinS span (``class="Z3988"``, an OpenURL query in its ``title``);
- ``rdfa``: schema.org RDFa in the body (``property`` / ``typeof`` attributes).

Precedence: a field takes the value of the first form in that order that declares it (:data:`FORMS`),
and within a meta-tag form the first tag name in :data:`_META_NAMES` that has a value, then its first
value. The meta-tag forms come first in the order Zotero's Embedded Metadata translator reads them,
which keeps the values of the fields read before the other forms were (title, authors, institutions,
abstract, references, journal, publisher, date); JSON-LD, COinS and RDFa fill what the meta tags leave
out. A list field (authors, ISSNs, keywords) takes every value of the winning form, each once. Authors
of the winning form gain the ORCID and affiliations another form declares for the same name.
:attr:`PageMeta.sources` names, per field, every form that declared it.

Reading never raises: broken JSON-LD, empty values and pages without a head give empty fields.
"""
from __future__ import annotations

import html as html_lib
import json
import logging
import re
from dataclasses import dataclass, field, fields
from urllib.parse import parse_qs

import lxml.html
from lxml import etree
from rapidfuzz import fuzz

from .lexicons import alternation

log = logging.getLogger(__name__)

#: The forms a field can be declared in, in the order of precedence (the module docstring).
FORMS = ("highwire", "dublin_core", "prism", "html", "open_graph", "json_ld", "coins", "rdfa")

_TAGS = re.compile(r"<[^>]+>")
#: An abstract's heading (the lexicon ``abstract_headings``) opening a declared abstract.
_ABSTRACT_CAPTION = re.compile(rf"^{alternation('abstract_headings')}\b[:.]?\s*", re.I)
_DOI = re.compile(r"10\.\d{4,9}/\S+")
_DOI_PREFIX = re.compile(r"^\s*(?:doi:\s*|(?:https?://)?(?:dx\.)?doi\.org/)", re.I)
_ORCID = re.compile(r"(\d{4}-\d{4}-\d{4}-\d{3}[\dX])", re.I)
_XML_DECLARATION = re.compile(r"^\ufeff?\s*<\?xml[^>]*\?>")
#: Where a COinS span describes a cited work rather than the page's article: in an element whose class
#: or id names references or a bibliography ("references", "ref12", "bib-list"; not "prefix").
_CITED = re.compile(r"(?<![a-z])(?:ref|bib)", re.I)
_ARTICLE_TYPES = ("ScholarlyArticle", "MedicalScholarlyArticle", "Article")

#: Record field -> the meta tag names declaring it, most specific first (lower case).
_META_NAMES: dict[str, tuple[str, ...]] = {
    "title": ("citation_title", "dc.title", "dcterms.title", "prism.title", "og:title"),
    "authors": ("citation_author", "dc.creator", "dcterms.creator", "article:author"),
    "institutions": ("citation_author_institution", "citation_author_affiliation"),
    "abstract": ("citation_abstract", "dc.description", "dcterms.abstract", "dcterms.description", "description",
                 "og:description"),
    "references": ("citation_reference",),
    "doi": ("citation_doi", "dc.identifier", "dcterms.identifier", "prism.doi"),
    "journal": ("citation_journal_title", "prism.publicationname", "og:site_name"),
    "publisher": ("citation_publisher", "dc.publisher", "dcterms.publisher", "prism.publisher"),
    "date": ("citation_publication_date", "citation_date", "dc.date", "dcterms.issued", "dcterms.date",
             "prism.publicationdate", "prism.coverdate", "article:published_time"),
    "online_date": ("citation_online_date", "prism.onlinedate"),
    "issn": ("citation_issn", "prism.issn", "prism.eissn"),
    "volume": ("citation_volume", "prism.volume"),
    "issue": ("citation_issue", "prism.number"),
    "first_page": ("citation_firstpage", "prism.startingpage"),
    "last_page": ("citation_lastpage", "prism.endingpage"),
    "keywords": ("citation_keywords", "dc.subject", "dcterms.subject", "prism.keyword", "keywords", "article:tag"),
    "language": ("citation_language", "dc.language", "dcterms.language", "og:locale"),
    "licence": ("dc.rights", "dcterms.license", "dcterms.rights", "prism.copyright"),
    "pdf_url": ("citation_pdf_url",),
}
#: Fields holding several values; the others hold one.
_LISTS = {"authors", "people", "institutions", "references", "issn", "keywords"}
#: Meta names of an author's ORCID and affiliation, which follow the author's ``citation_author``.
_AUTHOR_ORCID = "citation_author_orcid"
_AUTHOR_AFFILIATION = ("citation_author_institution", "citation_author_affiliation")


@dataclass
class Author:
    """One declared author: the name as declared, the ORCID iD and the affiliations when declared."""

    name: str
    orcid: str = ""
    affiliations: list[str] = field(default_factory=list)


@dataclass
class PageMeta:
    """The metadata a page declares about itself; empty when absent. ``authors`` and ``institutions``
    are names and affiliations as text; ``people`` the authors with ORCID and affiliations each."""

    title: str = ""
    authors: list[str] = field(default_factory=list)
    institutions: list[str] = field(default_factory=list)
    abstract: str = ""
    references: list[dict[str, list[str]]] = field(default_factory=list)
    doi: str = ""
    journal: str = ""
    publisher: str = ""
    date: str = ""
    people: list[Author] = field(default_factory=list)
    online_date: str = ""
    issn: list[str] = field(default_factory=list)
    volume: str = ""
    issue: str = ""
    first_page: str = ""
    last_page: str = ""
    keywords: list[str] = field(default_factory=list)
    language: str = ""
    licence: str = ""
    pdf_url: str = ""
    #: Field -> the forms (:data:`FORMS`) that declared it, the one whose value was taken first.
    sources: dict[str, list[str]] = field(default_factory=dict)

    def record(self) -> dict:
        """The JSON-ready record of the output's ``metadata`` block: every field, null when absent."""
        out: dict[str, object] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "people":
                value = [{"name": a.name, "orcid": a.orcid or None, "affiliations": a.affiliations} for a in value]
            out[_RECORD_NAMES.get(f.name, f.name)] = value or None
        return out


#: Output names of fields whose attribute name says less.
_RECORD_NAMES = {"authors": "author_names", "people": "authors", "institutions": "affiliations",
                 "date": "publication_date"}


def _clean(text: str) -> str:
    """Strip markup and entities that some publishers leave inside values, and normalise spaces."""
    text = html_lib.unescape(str(text))
    if "<" in text and ">" in text:
        try:
            text = lxml.html.fromstring(f"<div>{text}</div>").text_content()
        except (etree.ParserError, ValueError):
            text = _TAGS.sub(" ", text)
    return " ".join(text.split())


def normalise_doi(value: str) -> str:
    """The DOI in ``value`` (``10.1234/x``) without a ``doi:`` or ``https://doi.org/`` prefix; "" if none."""
    match = _DOI.search(_DOI_PREFIX.sub("", _clean(value)))
    return match.group().rstrip(".,;)") if match else ""


def _orcid(value: str) -> str:
    match = _ORCID.search(str(value))
    return match.group(1).upper() if match else ""


def read_meta(html: str) -> PageMeta:
    """Read every metadata form of a page into one :class:`PageMeta` (precedence in the module docstring)."""
    try:
        html = _XML_DECLARATION.sub("", html or "")  # lxml reads no text that declares its encoding
        root = lxml.html.document_fromstring(html) if html.strip() else None
    except (etree.ParserError, ValueError):
        root = None
    if root is None:
        return PageMeta()
    declared: dict[str, dict[str, list]] = {}
    for form, read in (("meta", _meta_forms), ("json_ld", _json_ld), ("coins", _coins), ("rdfa", _rdfa)):
        try:
            found = read(root)
        except Exception:  # noqa: BLE001 - a page's metadata never stops its reading
            log.warning("metadata: could not read the %s of a page", form, exc_info=True)
            continue
        declared.update(found if form == "meta" else {form: found})
    return _merge(declared)


def _merge(declared: dict[str, dict[str, list]]) -> PageMeta:
    """One record from each form's fields, by :data:`FORMS` precedence."""
    meta = PageMeta()
    for name in (*_META_NAMES, "people"):
        forms = [form for form in FORMS if declared.get(form, {}).get(name)]
        if name != "people" and forms:
            meta.sources[name] = forms
        if not forms:
            continue
        values = declared[forms[0]][name]
        if name in _LISTS:
            setattr(meta, name, values if name in ("references", "people") else list(dict.fromkeys(values)))
        else:
            setattr(meta, name, values[0])
    if meta.abstract:
        meta.abstract = _ABSTRACT_CAPTION.sub("", meta.abstract)
    if "people" in {n for form in declared.values() for n in form}:
        _complete_people(meta, declared)
    if not meta.institutions:  # affiliations declared with their authors only (JSON-LD)
        meta.institutions = list(dict.fromkeys(a for p in meta.people for a in p.affiliations))
    return meta


def _name_key(name: str) -> frozenset[str]:
    return frozenset(w for w in re.findall(r"\w+", name.lower()) if len(w) > 1)


def _complete_people(meta: PageMeta, declared: dict[str, dict[str, list]]) -> None:
    """Give the winning form's authors the ORCID and affiliations other forms declare for the same name."""
    others = {}
    for form in reversed(FORMS):
        for person in declared.get(form, {}).get("people", []):
            others[_name_key(person.name)] = person
    for person in meta.people:
        other = others.get(_name_key(person.name))
        if other is not None:
            person.orcid = person.orcid or other.orcid
            person.affiliations = person.affiliations or list(other.affiliations)


def _form_of(name: str) -> str:
    if name.startswith("citation_"):
        return "highwire"
    if name.startswith(("dc.", "dcterms.")):
        return "dublin_core"
    if name.startswith("prism."):
        return "prism"
    if name.startswith(("og:", "article:")):
        return "open_graph"
    return "html"


def _meta_forms(root: etree._Element) -> dict[str, dict[str, list]]:
    """The fields of each meta-tag form, plus ``<html lang>``."""
    values: dict[str, list[str]] = {}
    people: list[Author] = []
    for meta in root.iter("meta"):
        name = (meta.get("name") or meta.get("property") or "").strip().lower()
        content = meta.get("content")
        if not (name and content and content.strip()):
            continue
        values.setdefault(name, []).append(content)
        value = _clean(content)
        if name == "citation_author" and value:
            people.append(Author(value))
        elif name == _AUTHOR_ORCID and people and value:
            people[-1].orcid = _orcid(value)
        elif name in _AUTHOR_AFFILIATION and people and value and value not in people[-1].affiliations:
            people[-1].affiliations.append(value)
    forms: dict[str, dict[str, list]] = {}
    for fld, names in _META_NAMES.items():
        for name in names:
            found = _values(fld, name, values.get(name, []))
            if found and fld not in forms.get(_form_of(name), {}):
                forms.setdefault(_form_of(name), {})[fld] = found
    for form, found in forms.items():
        if form == "highwire" and people:
            found["people"] = _unique_people(people)
        elif found.get("authors"):
            found["people"] = [Author(a) for a in dict.fromkeys(found["authors"])]
    lang = root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang")
    if lang and lang.strip():
        forms.setdefault("html", {})["language"] = [lang.strip()]
    return forms


def _unique_people(people: list[Author]) -> list[Author]:
    """Authors each once (a page that repeats a ``citation_author`` repeats the person)."""
    seen: dict[str, Author] = {}
    for person in people:
        kept = seen.setdefault(person.name, person)
        if kept is not person:
            kept.orcid = kept.orcid or person.orcid
            kept.affiliations += [a for a in person.affiliations if a not in kept.affiliations]
    return list(seen.values())


def _values(fld: str, name: str, raw: list[str]) -> list:
    """The cleaned, non-empty values of one meta tag name for a field."""
    if fld == "references":
        return [_parse_reference(v) for v in raw]
    cleaned = [c for c in (_clean(v) for v in raw) if c]
    if fld == "doi":
        cleaned = [d for d in map(normalise_doi, cleaned) if d]
    elif fld == "authors" and name == "article:author":
        cleaned = [c for c in cleaned if not c.startswith(("http://", "https://"))]
    elif fld == "keywords":
        sep = "[;,]" if name in ("keywords", "article:tag") else ";"
        cleaned = [k for c in cleaned for k in (p.strip() for p in re.split(sep, c)) if k]
    return cleaned


def _parse_reference(value: str) -> dict[str, list[str]]:
    """``citation_reference`` content: ``citation_title=...; citation_author=...`` pairs, or free text."""
    fields_: dict[str, list[str]] = {}
    if "citation_" not in value:
        return {"text": [_clean(value)]}
    for part in re.split(r";\s*(?=citation_\w+=)", value):
        key, _, val = part.partition("=")
        val = _clean(val.rstrip(";"))
        if val:
            fields_.setdefault(key.strip().removeprefix("citation_"), []).append(val)
    return fields_


# --- JSON-LD ---------------------------------------------------------------------------------------

def _local(kind: object) -> list[str]:
    """A node's ``@type`` names without vocabulary prefix (``schema:Article``, ``http://schema.org/Article``)."""
    kinds = kind if isinstance(kind, list) else [kind]
    return [re.split(r"[/:#]", k)[-1] for k in kinds if isinstance(k, str)]


def _load_json(text: str) -> object:
    """A JSON-LD script's data; comment and CDATA wrappers and trailing commas tolerated; None if broken."""
    text = re.sub(r"^\s*(?:<!--|/\*\s*<!\[CDATA\[\s*\*/)|(?:-->|/\*\s*\]\]>\s*\*/)\s*$", "", text.strip())
    for attempt in (text, re.sub(r",\s*([}\]])", r"\1", text)):
        try:
            return json.loads(attempt, strict=False)
        except ValueError:
            continue
    log.info("metadata: a JSON-LD script that is no JSON was skipped")
    return None


def _nodes(data: object) -> list[dict]:
    """Every object in a JSON-LD document, depth first."""
    out, stack = [], [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            out.append(item)
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return out


def _json_ld(root: etree._Element) -> dict[str, list]:
    """The fields of the page's schema.org article node (the most specific type; the first of it)."""
    nodes = []
    for script in root.iter("script"):
        if (script.get("type") or "").strip().lower() == "application/ld+json" and script.text:
            data = _load_json(script.text)
            if data is not None:
                nodes += _nodes(data)
    ids = {n["@id"]: n for n in nodes if isinstance(n.get("@id"), str) and len(n) > 1}
    article = next((n for kind in _ARTICLE_TYPES for n in nodes if kind in _local(n.get("@type"))), None)
    return _schema_fields(article, _resolver(ids)) if article else {}


def _resolver(ids: dict[str, dict]):
    """A function giving a value's node: the first of a list, a ``{"@id": ...}`` reference looked up."""
    def resolve(value: object) -> object:
        if isinstance(value, list):
            value = value[0] if value else None
        if isinstance(value, dict) and isinstance(value.get("@id"), str):
            return ids.get(value["@id"], value)
        return value
    return resolve


def _as_list(value: object) -> list:
    return value if isinstance(value, list) else [] if value is None else [value]


def _text(value: object) -> str:
    """The text of a schema.org value: a string, a number, a node's ``name`` / ``@value``, a list's first."""
    if isinstance(value, list):
        return next((t for t in map(_text, value) if t), "")
    if isinstance(value, dict):
        return _text(value.get("name") or value.get("@value") or "")
    return _clean(value) if isinstance(value, (str, int, float)) and not isinstance(value, bool) else ""


def _field(node: object, *keys: str) -> str:
    """The text of a node itself, else of its first key that has one."""
    return _text(node) or next((t for k in keys if isinstance(node, dict) for t in [_text(node.get(k))] if t), "")


def _schema_fields(article: dict, resolve) -> dict[str, list]:
    """Record fields of a schema.org article node (JSON-LD; RDFa gives the same shape)."""
    def nodes(*keys: str) -> list:
        return [resolve(v) for k in keys for v in _as_list(article.get(k))]

    def texts(*keys: str, inner: tuple[str, ...] = ()) -> list[str]:
        return [t for t in (_field(v, *inner) for v in nodes(*keys)) if t]

    people = [p for p in (_person(v, resolve) for v in nodes("author", "creator")) if p]
    out: dict[str, list] = {
        "title": texts("headline", "name"),
        "abstract": texts("abstract", "description"),
        "publisher": texts("publisher"),
        "date": texts("datePublished"),
        "online_date": texts("dateCreated"),
        "first_page": texts("pageStart"),
        "last_page": texts("pageEnd"),
        "language": texts("inLanguage", inner=("alternateName",)),
        "licence": texts("license", inner=("url",)),
        "references": [{"text": [t]} for t in texts("citation", inner=("headline",))],
        "keywords": [k.strip() for t in texts("keywords") for k in re.split("[;,]", t) if k.strip()],
        "doi": [d for v in nodes("identifier", "sameAs", "@id", "url")
                if (d := normalise_doi(_field(v, "value", "@id", "url")))],
        "pdf_url": [_text(m.get("contentUrl")) for m in nodes("encoding", "associatedMedia")
                    if isinstance(m, dict) and "pdf" in _text(m.get("encodingFormat")).lower() and m.get("contentUrl")],
        "people": people,
        "authors": [p.name for p in people],
    }
    for part in _part_of(article, resolve):
        kinds = _local(part.get("@type"))
        if "PublicationVolume" in kinds:
            out["volume"] = out.get("volume", []) + [t for t in [_text(part.get("volumeNumber"))] if t]
        if "PublicationIssue" in kinds:
            out["issue"] = out.get("issue", []) + [t for t in [_text(part.get("issueNumber"))] if t]
        if "Periodical" in kinds or not kinds:
            out["journal"] = out.get("journal", []) + [t for t in [_text(part)] if t]
            out["issn"] = out.get("issn", []) + [t for t in map(_text, _as_list(part.get("issn"))) if t]
            out["publisher"] += [t for t in [_text(resolve(part.get("publisher")))] if t]
    return {k: v for k, v in out.items() if v}


def _part_of(node: dict, resolve) -> list[dict]:
    """The chain of ``isPartOf`` nodes above an article (issue, volume, periodical)."""
    chain: list[dict] = []
    part = resolve(node.get("isPartOf"))
    while isinstance(part, dict) and part not in chain and len(chain) < 5:
        chain.append(part)
        part = resolve(part.get("isPartOf"))
    return chain


def _person(node: object, resolve) -> Author | None:
    """An author node (a Person or Organization, or a name alone) as an :class:`Author`."""
    if isinstance(node, str):
        return Author(_clean(node)) if _clean(node) else None
    if not isinstance(node, dict):
        return None
    name = _text(node) or " ".join(t for t in (_text(node.get("givenName")), _text(node.get("familyName"))) if t)
    if not name:
        return None
    ids = [node.get("@id"), node.get("url"), *_as_list(node.get("sameAs")), *_as_list(node.get("identifier"))]
    orcid = next((_orcid(i) for i in map(str, ids) if "orcid" in i.lower() and _orcid(i)), "")
    affiliations = [t for t in (_text(resolve(a)) for a in _as_list(node.get("affiliation"))) if t]
    return Author(name, orcid, list(dict.fromkeys(affiliations)))


# --- COinS ------------------------------------------------------------------------------------------

_COINS_KEYS = {"title": ("rft.atitle", "rft.title", "rft.btitle"), "journal": ("rft.jtitle", "rft.stitle"),
               "date": ("rft.date",), "volume": ("rft.volume",), "issue": ("rft.issue",),
               "first_page": ("rft.spage",), "last_page": ("rft.epage",), "issn": ("rft.issn", "rft.eissn"),
               "publisher": ("rft.pub",), "language": ("rft.language",), "keywords": ("rft.subject",)}


def _coins(root: etree._Element) -> dict[str, list]:
    """The fields of the first COinS span (``<span class="Z3988" title="ctx_ver=Z39.88-2004&rft.atitle=...">``)
    that is not a cited work's (:data:`_CITED`)."""
    span = next((s for s in root.iter("span") if "Z3988" in (s.get("class") or "").split() and s.get("title")
                 and not any(_CITED.search(f"{a.get('class', '')} {a.get('id', '')}")
                             for a in s.iterancestors())), None)
    if span is None:
        return {}
    query = parse_qs(span.get("title"), keep_blank_values=False)

    def get(*keys: str) -> list[str]:
        return [c for k in keys for c in map(_clean, query.get(k, [])) if c]

    out = {fld: get(*keys) for fld, keys in _COINS_KEYS.items()}
    if not out["first_page"] and get("rft.pages"):
        first, _, last = get("rft.pages")[0].partition("-")
        out["first_page"], out["last_page"] = [first.strip()], [last.strip()] if last.strip() else []
    names = get("rft.au") or [" ".join(get(k)[0] for k in ("rft.aufirst", "rft.aulast") if get(k))]
    out["people"] = [Author(n) for n in names if n]
    out["authors"] = [p.name for p in out["people"]]
    out["doi"] = [d for d in map(normalise_doi, get("rft_id", "rft.doi")) if d]
    return {k: v for k, v in out.items() if v}


# --- RDFa -------------------------------------------------------------------------------------------

def _rdfa(root: etree._Element) -> dict[str, list]:
    """The fields of a schema.org article the body declares in RDFa (the first ``typeof`` article)."""
    body = root.find("body")
    if body is None:
        return {}
    scope = next((e for e in body.iterfind(".//*[@typeof]")
                  if set(_local(e.get("typeof").split())) & set(_ARTICLE_TYPES)), None)
    if scope is None:
        return {}
    return _schema_fields(_rdfa_node(scope), _resolver({}))


def _rdfa_node(scope: etree._Element) -> dict:
    """An RDFa item as a JSON-LD-like node: its properties, nested items (``typeof``) as nodes."""
    node: dict[str, object] = {"@type": _local((scope.get("typeof") or "").split())}

    def walk(element: etree._Element) -> None:
        for child in element:
            if not isinstance(child.tag, str):
                continue
            props = [_local(p)[0] for p in (child.get("property") or "").split()]
            if props:
                if child.get("typeof") is not None:
                    value: object = _rdfa_node(child)
                    if len(value) == 1:  # an item without properties: its text is its name
                        value["name"] = child.text_content()
                else:
                    value = child.get("content") or child.get("href") or child.get("resource") or child.text_content()
                for prop in props:
                    node.setdefault(prop, []).append(value)  # type: ignore[union-attr]
            if child.get("typeof") is None:
                walk(child)

    walk(scope)
    return node


# --- the visible fields against the declared ones ----------------------------------------------------

#: Title similarity (rapidfuzz ratio of the normalised texts, 0-1) below which the titles disagree.
TITLE_AGREEMENT = 0.9
#: Share of the shorter author list (declared or visible) found in the other below which the lists
#: disagree; a list cut short on one side ("et al.", one declared author) is no disagreement.
AUTHORS_AGREEMENT = 0.5


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def _found(name: str, visible: list[str]) -> bool:
    """Whether a declared author is among the visible names: the longest word of the name (most often
    the family name; a word of two letters or more) is a word of one of them."""
    words = sorted(_name_key(name), key=len, reverse=True)
    return bool(words) and any(words[0] in _name_key(v) for v in visible)


def conflicts(meta: PageMeta, title: str | None, authors: list[str]) -> list[dict]:
    """Where the visible (labelled) title or author list disagrees with the declared one, each with
    both values and their ``agreement``: the title when its similarity is below :data:`TITLE_AGREEMENT`,
    the authors when fewer than :data:`AUTHORS_AGREEMENT` of the shorter list's names are in the other.
    A field missing on either side is no disagreement."""
    out = []
    if title and meta.title:
        similarity = fuzz.ratio(_words(title), _words(meta.title)) / 100
        if similarity < TITLE_AGREEMENT:
            out.append({"field": "title", "page": title, "metadata": meta.title, "agreement": round(similarity, 3)})
    if authors and meta.authors:
        few, many = sorted((meta.authors, authors), key=len)
        share = sum(_found(name, many) for name in few) / len(few)
        if share < AUTHORS_AGREEMENT:
            out.append({"field": "authors", "page": authors, "metadata": meta.authors, "agreement": round(share, 3)})
    return out


#: Share of the declared abstract's words found in the visible one from which the two agree (a declared
#: abstract cut short agrees with the whole).
ABSTRACT_AGREEMENT = 0.8
#: Token-set similarity (0-1) from which a declared institution and a visible affiliation agree.
AFFILIATION_AGREEMENT = 0.8
#: The fields whose provenance a record gives.
PROVENANCE_FIELDS = ("title", "authors", "affiliations", "abstract")


def _agrees(field: str, visible: str | list[str], declared: str | list[str]) -> bool:
    """Whether a visible field and its declared value agree (the thresholds above and in :func:`conflicts`)."""
    if field == "title":
        return fuzz.ratio(_words(visible), _words(declared)) / 100 >= TITLE_AGREEMENT
    if field == "authors":
        few, many = sorted((declared, visible), key=len)
        return sum(_found(name, many) for name in few) / len(few) >= AUTHORS_AGREEMENT
    if field == "affiliations":
        return any(fuzz.token_set_ratio(_words(d), _words(v)) / 100 >= AFFILIATION_AGREEMENT
                   for d in declared for v in visible)
    words, seen = _words(declared).split(), set(_words(visible).split())
    return sum(w in seen for w in words) / len(words) >= ABSTRACT_AGREEMENT


def merge_fields(meta: PageMeta, fields: dict[str, object]) -> tuple[dict[str, object], dict[str, str | None]]:
    """The page's fields (title, authors, affiliations, abstract as read off its zones) merged with what
    it declares, and where each came from: ``both`` (visible and declared, agreeing), ``page`` (visible
    only, or disagreeing with the declaration: the page wins), ``metadata`` (declared only: the declared
    value fills the field) or None (neither)."""
    declared = {"title": meta.title, "authors": meta.authors, "affiliations": meta.institutions,
                "abstract": meta.abstract}
    merged, provenance = dict(fields), {}
    for name in PROVENANCE_FIELDS:
        visible, stated = fields.get(name), declared[name]
        if visible and stated:
            provenance[name] = "both" if _agrees(name, visible, stated) else "page"
        elif visible:
            provenance[name] = "page"
        elif stated:
            merged[name], provenance[name] = stated, "metadata"
        else:
            provenance[name] = None
    return merged, provenance
