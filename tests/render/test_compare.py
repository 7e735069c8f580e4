"""A metric's explanation read into statuses, links, triples and units."""

from __future__ import annotations

from pathlib import Path

import pytest

from amrcheck import Corpus, decode, get_metric
from amrcheck.metrics import metric_names, option_specs
from amrcheck.reading.umr_corpus import read_umr_corpus
from amrcheck.render import pair_view
from tests.conftest import data_path

MINI = str(data_path("vectors/glove-mini.50d.txt"))


def test_smatch_statuses_on_both_sides(versions: tuple[Corpus, Corpus]) -> None:
    old, new = versions
    # ex.2: the new version merges the two girls (g2 is gone, v :ARG0 g added)
    view = pair_view(new[1].graph, old[1].graph, get_metric("smatch"))
    assert view.metric == view.explained_by == "smatch"
    assert view.reference.nodes["v:g2"] == "missing"
    assert view.candidate.nodes["v:g"] == "matched"
    ref_edge = next(e for e in view.reference.scene.edges if e.target == "v:g2")
    assert view.reference.edges[ref_edge.key] == "missing"
    new_edge = next(
        e for e in view.candidate.scene.edges
        if (e.source, e.role, e.target) == ("v:v", ":ARG0", "v:g")
    )
    assert view.candidate.edges[new_edge.key] == "extra"
    assert all(status == "matched" for key, status in view.candidate.nodes.items()
               if key != "v:g")
    rows = {(r.status, r.reference.text if r.reference else None,
             r.candidate.text if r.candidate else None) for r in view.triples}
    assert ("missing", "(v :ARG0 g2)", None) in rows
    assert ("missing", "(g2 / girl)", None) in rows
    assert ("extra", None, "(v :ARG0 g)") in rows
    # every row is placed in its own file
    missing = next(r for r in view.triples if r.status == "missing")
    assert missing.reference is not None
    assert missing.reference.path.endswith("annotations_v1.amr")


def test_relabelled_concepts_name_their_partner(
    versions: tuple[Corpus, Corpus],
) -> None:
    old, new = versions
    view = pair_view(new[2].graph, old[2].graph, get_metric("smatch"))  # ex.3
    assert view.candidate.partners == {"v:p": "researcher", "v:q": "quick"}
    assert view.reference.partners == {"v:r": "person", "v:q": "quick-02"}
    assert view.reference.nodes["v:r"] == "relabelled"
    relabelled = [r for r in view.triples if r.status == "relabelled"]
    assert [(r.reference.text, r.candidate.text) for r in relabelled] == [
        ("(r / researcher)", "(p / person)"), ("(q / quick)", "(q / quick-02)")
    ]
    assert relabelled[0].candidate_keys == ("v:p",)
    assert relabelled[0].reference_keys == ("v:r",)
    # differences are listed first, the matched triples after them
    statuses = [r.status for r in view.triples]
    assert statuses.index("matched") > statuses.index("extra")
    links = {(k.candidate, k.reference, k.weight) for k in view.links}
    assert ("v:p", "v:r", 1.0) in links and ("v:f", "v:f", 1.0) in links


def test_a_changed_attribute_value_is_a_relabelled_constant() -> None:
    view = pair_view(decode('(d / date-entity :year 2024)'),
                     decode('(d / date-entity :year 2023)'),
                     get_metric("smatch"))
    (constant,) = [n.key for n in view.candidate.scene.nodes if n.kind == "constant"]
    assert view.candidate.nodes[constant] == "relabelled"
    assert view.candidate.partners[constant] == "2023"
    (edge,) = view.candidate.edges
    assert view.candidate.edges[edge] == "matched"  # the role itself is unchanged


def test_graded_concepts_of_s2match_are_relabelled_with_units() -> None:
    view = pair_view(decode('(w / want-01 :ARG0 (k / kitten))'),
                     decode('(w / want-01 :ARG0 (c / cat))'),
                     get_metric("s2match", vectors=MINI))
    assert view.explained_by == "s2match"
    assert view.candidate.nodes["v:k"] == "relabelled"
    assert view.candidate.partners["v:k"] == "cat"
    links = {k.candidate: (k.reference, k.weight) for k in view.links}
    assert links["v:w"] == ("v:w", 1.0)
    assert links["v:k"][0] == "v:c" and 0 < links["v:k"][1] < 1
    concepts = [u for u in view.units if u.group == "concepts"]
    assert any(u.text.startswith("kitten ~ cat") for u in concepts)


def test_wwlk_flows_are_an_n_to_m_alignment() -> None:
    view = pair_view(decode('(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))'),
                     decode('(w / want-01 :ARG0 (g / girl))'),
                     get_metric("wwlk", vectors=MINI))
    assert view.explained_by == "wwlk" and view.unit == "node flow"
    # three candidate nodes pour into two reference nodes: some node has
    # several partners, and the masses sum to one
    partners: dict[str, int] = {}
    for link in view.links:
        partners[link.candidate] = partners.get(link.candidate, 0) + 1
    assert len(view.links) > 3 or max(partners.values()) > 1
    assert sum(link.weight for link in view.links) == pytest.approx(1.0)
    assert [u.group for u in view.units] == ["flows"] * len(view.units)
    assert all(u.places for u in view.units)


def test_motif_metrics_list_units_and_draw_smatchs_alignment(
    versions: tuple[Corpus, Corpus],
) -> None:
    old, new = versions
    view = pair_view(new[0].graph, old[0].graph, get_metric("rematch"),
                     get_metric("smatch"))
    assert (view.metric, view.explained_by, view.unit) == ("rematch", "smatch", "motif")
    extra = [u for u in view.units if u.group == "extra"]
    assert extra and all(p.path.endswith("annotations_v2.amr")
                         for u in extra for p in u.places)
    polarity = next(n for n in view.candidate.scene.nodes if n.label == "-")
    assert view.candidate.nodes[polarity.key] == "extra"
    # without a fallback the drawing stays uncoloured, the units listed
    plain = pair_view(new[0].graph, old[0].graph, get_metric("rematch"))
    assert plain.links == [] and plain.candidate.nodes == {}
    assert plain.units == view.units


def test_sembleu_ngrams_are_units_with_counts(versions: tuple[Corpus, Corpus]) -> None:
    old, new = versions
    view = pair_view(new[0].graph, old[0].graph, get_metric("sembleu"))
    assert view.unit == "n-gram"
    assert any("×" in u.text for u in view.units)


@pytest.mark.parametrize("name", sorted(set(metric_names()) - {"recommended"}))
def test_every_metric_explains_a_umr_sentence_pair_in_the_umr_files(
    name: str,
) -> None:
    # issue 31: one concept edited (book -> magazine) in sentence 2
    umr = data_path("umr/scoring")
    reference, _ = read_umr_corpus(umr / "gold.umr")
    candidate, _ = read_umr_corpus(umr / "concept.umr")
    assert reference[1].graph is not None and candidate[1].graph is not None
    takes_vectors = any(spec.name == "vectors" for spec in option_specs(name))
    options = {"vectors": MINI} if takes_vectors else {}
    view = pair_view(
        candidate[1].graph, reference[1].graph, get_metric(name, **options),
        get_metric("smatch"),
    )
    assert 0.0 < view.score.f1 < 1.0
    places = [p for row in view.triples for p in (row.reference, row.candidate) if p]
    places += [p for unit in view.units for p in unit.places]
    assert places
    assert {Path(p.path).name for p in places} <= {"gold.umr", "concept.umr"}
    # the edited concept: drawn as relabelled, and named at its line
    assert view.reference.nodes["v:s2b2"] == "relabelled"
    assert view.reference.partners["v:s2b2"] == "magazine"
    assert any(place.line == 42 for place in places)
