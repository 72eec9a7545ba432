"""Every mutation group (scripts/mutation.py) and the plain mutmut run of pyproject.toml name modules and test files
that are there: a test moved or renamed fails here, not tens of minutes into a mutation run."""

from __future__ import annotations

import tomllib

from scripts.mutation import GROUPS, ROOT, missing_paths


def test_every_group_names_modules_tests_and_plugins_that_exist() -> None:
    assert len(GROUPS) == 22
    assert missing_paths() == []


def test_a_moved_test_file_or_plugin_is_reported_and_an_option_s_value_is_not_a_path() -> None:
    groups = {
        "moved": (
            ["bot/kernel/srs.py", "bot/kernel/gone.py"],
            ["tests/test_rules.py", "tests/unit/test_rules.py::test_x", "-k", "not slow", "-p", "tests.gone"],
        )
    }
    assert missing_paths(groups) == ["moved: tests/test_rules.py", "moved: tests.gone", "moved: bot/kernel/gone.py"]
    assert (
        missing_paths({"ok": (["bot/kernel/srs.py"], ["tests/unit/test_rules.py", "-p", "tests.mutation_warmup"])})
        == []
    )


def test_the_plain_mutmut_run_names_modules_and_tests_that_exist() -> None:
    mutmut = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    paths = [*mutmut["paths_to_mutate"], *mutmut["pytest_add_cli_args_test_selection"]]
    assert len(paths) == 7
    assert [p for p in paths if not (ROOT / p).exists()] == []
