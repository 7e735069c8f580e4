"""Unit tests of amr_lsp.config: camelCase settings, defaults, graceful fallback."""

from __future__ import annotations

from amr_lsp.config import Features, Settings, camel, load_settings, merge


def test_defaults() -> None:
    settings, problems = load_settings(None)
    assert settings == Settings()
    assert problems == []
    assert settings.metric == "smatch" and settings.debounce_ms == 0
    assert settings.features == Features(
        validation=True, diff=True, code_lens=True, inlay_hints=False,
        document_score=True,
    )


def test_camel_case_and_nesting() -> None:
    settings, problems = load_settings(
        {
            "references": {"ann/*.amr": "gold/{dir}/{name}.amr"},
            "metric": "smatch",
            "metricOptions": {"root": "concept"},
            "debounceMs": 25,
            "features": {"inlayHints": True, "documentScore": False},
        }
    )
    assert problems == []
    assert settings.metric_options == {"root": "concept"}
    assert settings.debounce_ms == 25
    assert settings.features.inlay_hints and not settings.features.document_score
    assert camel("metric_options") == "metricOptions"


def test_each_bad_value_falls_back_alone() -> None:
    settings, problems = load_settings(
        {
            "metric": "smatch",
            "metricOptions": {"root": "sideways"},
            "debounceMs": -5,
            "features": {"diff": "no", "codeLens": False},
            "references": {"a/*.amr": "{nope}.amr", "b/*.amr": "gold/{name}.amr"},
            "references2": 1,
        }
    )
    assert settings.metric_options == {}
    assert settings.debounce_ms == 0
    assert settings.features.diff is True and settings.features.code_lens is False
    assert settings.references == {"b/*.amr": "gold/{name}.amr"}
    assert len(problems) == 5
    assert any(
        p.startswith("metric: metric 'smatch': root must be one of") for p in problems
    )


def test_booleans_are_not_numbers() -> None:
    settings, problems = load_settings({"debounceMs": True})
    assert settings.debounce_ms == 0 and problems


def test_merge() -> None:
    assert merge({"a": 1, "f": {"x": 1, "y": 2}}, {"f": {"y": 3}, "b": 2}) == {
        "a": 1, "b": 2, "f": {"x": 1, "y": 3}
    }


def test_low_score_threshold_issue_22() -> None:
    assert load_settings({})[0].low_score_threshold == 0.8
    settings, problems = load_settings({"lowScoreThreshold": 1})
    assert settings.low_score_threshold == 1.0 and problems == []
    for bad in (1.5, -0.1, "0.9", True):
        settings, problems = load_settings({"lowScoreThreshold": bad})
        assert settings.low_score_threshold == 0.8 and len(problems) == 1, bad


def test_settings_with_fixed_choices_issue_22() -> None:
    settings, problems = load_settings({})
    assert (settings.diff_diagnostics, settings.format_style) == (
        "grouped", "keep-lines"
    )
    settings, problems = load_settings(
        {"diffDiagnostics": "per-triple", "formatStyle": "penman"}
    )
    assert (settings.diff_diagnostics, settings.format_style) == (
        "per-triple", "penman"
    )
    assert problems == []
    settings, problems = load_settings(
        {"diffDiagnostics": "per-line", "formatStyle": 2}
    )
    assert (settings.diff_diagnostics, settings.format_style) == (
        "grouped", "keep-lines"
    )
    assert problems == [
        "diffDiagnostics: 'per-line' is not a valid value "
        "(one of 'grouped', 'per-triple') (default used)",
        "formatStyle: 2 is not a valid value "
        "(one of 'keep-lines', 'penman') (default used)",
    ]
