"""tests/source_files.py: the guards that read the repository's source judge the files there when
read. A CI run once failed because a probe test another process wrote into tests/ was removed
between the listing and the read."""

from __future__ import annotations

from source_files import python_sources, read_if_there


def test_a_file_gone_between_the_listing_and_the_read_is_left_out(tmp_path) -> None:
    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text(f"# {name}\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not python\n", encoding="utf-8")

    def keep(path):  # called after the listing, before each read: a.py's turn removes b.py
        if path.name == "a.py":
            (tmp_path / "b.py").unlink()
        return True

    assert [(p.name, text) for p, text in python_sources(tmp_path, keep)] == [("a.py", "# a.py\n"), ("c.py", "# c.py\n")]


def test_keep_chooses_and_a_missing_file_reads_as_none(tmp_path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "y.py").write_text("y = 2\n", encoding="utf-8")
    assert [p.name for p, _ in python_sources(tmp_path)] == ["x.py", "y.py"]
    assert [p.name for p, _ in python_sources(tmp_path, lambda p: p.parent == tmp_path)] == ["y.py"]
    assert read_if_there(tmp_path / "gone.py") is None
