"""A resident kit's one-file edit and no-op do work in the edit, not in the design: counted
(not timed) at two design sizes, on the resident path the daemon runs (`regenerate` with
the resident analysis, handed over only when the run has something to render).

- the design's files are read for the inputs' digest only when their `stat` changed (a
  no-op reads none, an edit the edited file), and the design folder is walked once per
  run (not once for the digest, the protos, the session's listing and the check that the
  analysis is on disk);
- no folder is listed twice in one run (the sweep, the stale stubs' notices and the
  leftovers' search share one walk), and an output folder whose `lstat` is the one it had
  when it was last listed (and settled then) is not listed again;
- the writer looks at each output folder once, not once per output in it;
- the run cache re-serialises only the entries the run changed.

The outputs stay those of a clean run (`test_incremental`'s differential tests; here each
edit's tree is also compared with a fresh process's clean run)."""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from designs import tree

from kit_core import program, racy
from kit_core.generators.openapi import incremental as openapi_incremental
from kit_core.incremental import inputs, store
from kit_core.incremental import keys as keys_module
from kit_core.regenerate import Loaded, Outcome, regenerate
from kit_core.resident.designs import ResidentDesigns, as_loaded
from kit_core.writer import host as host_module

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "bench" / "gen"))
from bench_cli import toggle  # noqa: E402
from gen_design import write_design  # noqa: E402

RACY_NS = 200_000_000  # the tests' clock granularity: short, so they need not wait 2 s
SIZES = ((60, 20, 4), (120, 40, 8))  # types, methods, packages: twice the outputs


@pytest.fixture(autouse=True)
def short_racy_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(racy, "RACY_NS", RACY_NS)


def settle() -> None:
    time.sleep(2 * RACY_NS / 1e9)


class Work:
    """What one run did: folders listed (by path), design files read for the digest,
    folders the writer looked at, cache entries serialised."""

    real_scandir = staticmethod(os.scandir)

    def __init__(self, monkeypatch: pytest.MonkeyPatch, design: Path) -> None:
        self.design = str(design)
        self.listed: Counter[str] = Counter()
        self.digest_reads = 0
        self.dir_looks = 0
        real_scandir, real_open = os.scandir, open
        real_dir_problem = host_module.DiskHost.dir_problem

        def scandir(path: Any = ".") -> Any:
            if not isinstance(path, int):  # a folder by descriptor (rmtree) is not a listing
                self.listed[os.fspath(path)] += 1
            return real_scandir(path)

        def counted_open(file: Any, *args: Any, **kw: Any) -> Any:
            if os.fspath(file).startswith(self.design):
                self.digest_reads += 1
            return real_open(file, *args, **kw)

        def dir_problem(host: Any, directory: str) -> Any:
            self.dir_looks += 1
            return real_dir_problem(host, directory)

        monkeypatch.setattr(os, "scandir", scandir)
        monkeypatch.setattr(inputs, "open", counted_open, raising=False)
        monkeypatch.setattr(host_module.DiskHost, "dir_problem", dir_problem)

    def reset(self) -> None:
        self.file_keys = file_keys()
        self.listed.clear()
        self.digest_reads = self.dir_looks = 0
        self.units, self.stats = serialised()

    def serialised(self) -> tuple[int, int]:
        units, stats = serialised()
        return units - self.units, stats - self.stats

    def design_walks(self) -> int:
        return self.listed[self.design]

    def listed_under(self, root: Path, but: Path) -> list[str]:
        inside, design = os.path.join(str(root), ""), str(but)
        return sorted(p for p in self.listed if p.startswith(inside) and not p.startswith(design))

    def listed_twice(self) -> list[str]:
        return sorted(p for p, n in self.listed.items() if n > 1)


def file_keys() -> int:
    """Design files digested for the units' keys so far (every file each run: as before
    `keys._file_digest`)."""
    counts = getattr(keys_module, "counts", None)
    return counts["files"] if counts is not None else 0


def serialised() -> tuple[int, int]:
    """Cache entries and stat records serialised so far in this process (a whole cache
    serialised each time: none kept, as before `UnitEntry.json`)."""
    counts = getattr(store, "counts", None)
    return (counts["units"], counts["stats"]) if counts is not None else (1_000_000, 1_000_000)


def openapi_pieces() -> int:
    """The OpenAPI pieces' YAML taken into or given up from what the next render reuses, so
    far (every piece of the document each render: as before `incremental._keep_dumped`)."""
    counts = getattr(openapi_incremental, "counts", None)
    return counts["pieces"] if counts is not None else len(openapi_incremental._dumped)


def openapi_sorted() -> int:
    """Schema names sorted for the OpenAPI document so far (none counted: all of them each
    render, as before `incremental._order`: a render's whole document counted)."""
    counts = getattr(openapi_incremental, "counts", {})
    return counts["sorted"] if "sorted" in counts else -len(openapi_incremental._dumped)


class Project:
    def __init__(self, root: Path, size: tuple[int, int, int]) -> None:
        types, methods, packages = size
        root.mkdir(parents=True)
        (root / "go.mod").write_text("module example.com/bench\n\ngo 1.26\n", encoding="utf-8")
        self.edit_file = write_design(
            root / "design", types=types, methods=methods, packages=packages, big_lines=40
        ).edit_file
        self.root, self.design = root, (root / "design").resolve()
        self.designs = ResidentDesigns()
        out = regenerate(self.design)  # the clean run, as `kit gen` in a fresh process
        assert out.report is not None and out.report.ok, out.diagnostics

    def loaded(self) -> Loaded | None:
        """As the resident kit's `loaded` (`kit_core.daemon.server`)."""
        if program.design_files(self.design, ".proto"):
            return None
        return as_loaded(self.design, self.designs.snapshot(self.design), self.designs.disk(self.design))

    def run(self) -> Outcome:
        out = regenerate(self.design, loaded=self.loaded, resident=True)
        assert out.report is not None and out.report.ok, (out.diagnostics, out.report)
        return out

    def outputs(self) -> int:
        return sum(1 for p in self.root.rglob("*") if p.is_file() and "design" not in p.relative_to(self.root).parts)

    def folders(self) -> int:
        return sum(1 for p in self.root.rglob("*") if p.is_dir() and "design" not in p.relative_to(self.root).parts)


@pytest.fixture(scope="module")
def projects(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, int, int], Project]:
    """Each size's project, generated once (copied by each test)."""
    return {size: Project(tmp_path_factory.mktemp("size") / "project", size) for size in SIZES}


def project_of(src: Project, tmp_path: Path) -> Project:
    dst = tmp_path / "project"
    shutil.copytree(src.root, dst)
    p = Project.__new__(Project)
    p.root, p.design = dst, (dst / "design").resolve()
    p.edit_file = dst / src.edit_file.relative_to(src.root)
    p.designs = ResidentDesigns()
    for _ in range(2):  # the resident kit warm: its analysis and the generators' pieces kept
        toggle(p.edit_file)
        p.run()
    return p


def measured(src: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """A settled no-op and a one-file edit through the resident path, each checked for the
    work that must not grow with the design; what may grow only with the folders, counted."""
    p = project_of(src, tmp_path)
    work = Work(monkeypatch, p.design)
    settle()
    p.run()  # a no-op that plans (and records its plan)
    settle()

    work.reset()
    noop = p.run()
    assert noop.fast
    assert work.digest_reads == 0  # every design file vouched for by its stat
    assert work.design_walks() == 1
    assert work.listed_twice() == []

    toggle(p.edit_file)
    work.reset()
    pieces, names_sorted = openapi_pieces(), openapi_sorted()
    edit = p.run()
    names_sorted = openapi_sorted() - names_sorted if names_sorted >= 0 else len(openapi_incremental._dumped)
    pieces = openapi_pieces() - pieces if hasattr(openapi_incremental, "counts") else openapi_pieces()
    assert not edit.fast and edit.report is not None and edit.report.written
    assert work.digest_reads == 1  # the edited file only
    assert file_keys() - work.file_keys == 1  # the units' keys: the edited file digested again
    assert work.design_walks() == 1  # one walk for the digest, the protos, the listing, the check
    assert work.listed_twice() == []  # no output folder walked twice
    # every output folder's listing taken again by its unchanged `lstat` (all settled here)
    assert work.listed_under(p.root, but=p.design) == []
    units, stats = work.serialised()
    looks = work.dir_looks
    assert units == len(edit.rendered)  # the entries the edit changed; the others' JSON kept

    clean = tmp_path / "clean"
    shutil.copytree(p.root / "design", clean / "design")
    shutil.copy(p.root / "go.mod", clean / "go.mod")
    with monkeypatch.context() as m:  # a fresh process's run of the same design: the same tree
        m.setattr(os, "scandir", Work.real_scandir)
        out = regenerate((clean / "design").resolve())
    assert out.report is not None and out.report.ok
    assert without_design(tree(p.root)) == without_design(tree(clean))
    return {
        "outputs": p.outputs(),
        "folders": p.folders(),
        "looks": looks,
        "units": units,
        "stats": stats,
        "rendered": len(edit.rendered),
        "pieces": pieces,
        "sorted": names_sorted,
        "document": len(openapi_incremental._dumped),
    }


def test_an_edit_and_a_no_op_do_the_edit_s_work(
    projects: dict[tuple[int, int, int], Project], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small, large = (measured(projects[s], tmp_path / str(s[0]), monkeypatch) for s in SIZES)
    assert large["outputs"] - small["outputs"] > 2 * (large["folders"] - small["folders"])
    # the writer looks at each folder once: more outputs in as many more folders cost the folders
    assert large["looks"] - small["looks"] <= large["folders"] - small["folders"], (small, large)
    # the cache: the rendered units' entries and their files' records, the same at both sizes
    assert small["rendered"] == large["rendered"] and small["units"] == large["units"]
    assert small["stats"] == large["stats"], (small, large)
    # the OpenAPI document's kept YAML: the edited package's pieces, not the document's
    assert small["pieces"] == large["pieces"] < large["document"], (small, large)
    # an edit declaring no new name keeps the schemas' order (not sorted again)
    assert small["sorted"] == large["sorted"] == 0, (small, large)


def without_design(files: dict[str, bytes]) -> dict[str, bytes]:
    return {p: d for p, d in files.items() if not p.startswith("design/")}


def test_a_design_file_edited_with_its_time_put_back_is_read_again(tmp_path: Path) -> None:
    """The digest kept for a file is taken again only while size, times and inode are the
    same: an edit that keeps the size and puts the modification time back still changes
    the change time (which no user can set)."""
    design = tmp_path / "design"
    design.mkdir()
    f = design / "a.kit"
    f.write_text("package a\n\ntype A {\n\tx string\n}\n", encoding="utf-8")
    settle()
    digest = lambda: inputs.inputs_digest("b", design, tmp_path, None, ("go",))  # noqa: E731
    first = digest()
    assert digest() == first
    st = f.stat()
    f.write_text("package a\n\ntype B {\n\tx string\n}\n", encoding="utf-8")
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert f.stat().st_size == st.st_size and f.stat().st_mtime_ns == st.st_mtime_ns
    assert digest() != first


def test_a_file_changed_right_after_its_read_is_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """git's racy rule: a digest taken within the clock's granularity of the file's last
    change is not trusted by its stat (an edit in the same tick would keep the stat)."""
    design = tmp_path / "design"
    design.mkdir()
    f = design / "a.kit"
    f.write_text("package a\n", encoding="utf-8")
    reads: list[str] = []
    real: Callable[..., Any] = open

    def counted(file: Any, *args: Any, **kw: Any) -> Any:
        reads.append(os.fspath(file))
        return real(file, *args, **kw)

    monkeypatch.setattr(inputs, "open", counted, raising=False)
    inputs.design_inputs(design)
    inputs.design_inputs(design)  # still within the window: read again
    assert len(reads) == 2
    settle()
    inputs.design_inputs(design)  # read after the window: trusted from now on
    inputs.design_inputs(design)
    assert len(reads) == 3


def test_a_design_file_added_between_runs_is_seen(tmp_path: Path) -> None:
    """One walk per run, not per process: the next run lists the design again."""
    p = Project(tmp_path / "project", SIZES[0])
    p.run()
    new = p.design / "extra" / "extra.kit"
    new.parent.mkdir()
    new.write_text("package extra\n\ntype Extra {\n\tname string\n}\n", encoding="utf-8")
    out = p.run()
    assert not out.fast and any("extra" in name for name in out.rendered)
    assert (p.root / "internal" / "types" / "extra").is_dir()


def test_the_cache_body_is_the_cache(tmp_path: Path) -> None:
    """Written of kept pieces, the file reads back as the cache (and a changed record is
    written anew)."""
    c = store.Cache("b", "/p", inputs="i", targets=["go"])
    c.units["u"] = store.UnitEntry("k", [("a.go", "regen", "d")])
    c.units["v"] = store.UnitEntry("k2", [("b.go", "gen-once", "e")])
    c.stats["a.go"] = [1, 2, 3, 4]
    store.save(tmp_path, c)
    c.stats["a.go"] = [5, 6, 7, 8]
    c.units["u"] = store.UnitEntry("k3", [("a.go", "regen", "f")])
    before = dict(store.counts)
    store.save(tmp_path, c)
    assert store.counts["units"] - before["units"] == 1 and store.counts["stats"] - before["stats"] == 1
    store._kept.clear()
    loaded = store.load(tmp_path, "b", "/p")
    assert loaded is not None
    assert loaded.stats == {"a.go": [5, 6, 7, 8]}
    assert {n: (u.key, u.outputs) for n, u in loaded.units.items()} == {
        "u": ("k3", [("a.go", "regen", "f")]),
        "v": ("k2", [("b.go", "gen-once", "e")]),
    }


def test_an_output_folder_is_listed_again_when_it_changed_or_was_not_settled(tmp_path: Path) -> None:
    """`DiskHost.files_under` takes a folder's last listing again only while the folder has
    the `lstat` it had then and had it for longer than the racy window before the listing;
    a name added or removed since (which changes the folder's times) is listed again."""
    folder = tmp_path / "internal" / "types"
    folder.mkdir(parents=True)
    (folder / "a.go").write_text("a", encoding="utf-8")

    def listing() -> tuple[list[str], int]:
        before = host_module.listing_counts["listed"]
        found = host_module.DiskHost(tmp_path).files_under("internal")
        return found, host_module.listing_counts["listed"] - before

    assert listing() == (["internal/types/a.go"], 2)
    assert listing() == (["internal/types/a.go"], 2)  # just changed: not trusted yet
    settle()
    assert listing() == (["internal/types/a.go"], 2)  # listed after the window: kept
    assert listing() == (["internal/types/a.go"], 0)  # the folders unchanged: not read
    (folder / "b.go").write_text("b", encoding="utf-8")
    assert listing() == (["internal/types/a.go", "internal/types/b.go"], 1)  # only the changed folder
    (folder / "a.go").unlink()
    settle()
    assert listing()[0] == ["internal/types/b.go"]
    (folder / "sub").mkdir()
    (folder / "sub" / "c.go").write_text("c", encoding="utf-8")
    assert listing()[0] == ["internal/types/b.go", "internal/types/sub/c.go"]


def test_a_folder_holding_a_link_is_always_listed(tmp_path: Path) -> None:
    """A link's target may change (file to folder) while the folder holding it does not."""
    folder = tmp_path / "out"
    folder.mkdir()
    target = tmp_path / "elsewhere"
    target.write_text("x", encoding="utf-8")
    (folder / "link.go").symlink_to(target)
    settle()
    host_module.DiskHost(tmp_path).files_under("out")
    before = host_module.listing_counts["listed"]
    assert host_module.DiskHost(tmp_path).files_under("out") == ["out/link.go"]
    assert host_module.listing_counts["listed"] - before == 1
    target.unlink()
    target.mkdir()  # the link now leads to a folder: not a file any more, not entered
    assert host_module.DiskHost(tmp_path).files_under("out") == []


def test_a_folder_reached_through_a_link_is_always_listed(tmp_path: Path) -> None:
    """An output folder that is a link to a folder inside the project: the link's own times
    do not change when a file is added to the folder it leads to."""
    real = tmp_path / "real"
    real.mkdir()
    (real / "a.go").write_text("a", encoding="utf-8")
    (tmp_path / "out").symlink_to(real)
    settle()
    assert host_module.DiskHost(tmp_path).files_under("out") == ["out/a.go"]
    settle()
    (real / "b.go").write_text("b", encoding="utf-8")
    assert host_module.DiskHost(tmp_path).files_under("out") == ["out/a.go", "out/b.go"]
