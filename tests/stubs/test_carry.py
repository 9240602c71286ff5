"""A renamed method carries the user's code into its new stub; the old file is left, with a
notice; ambiguous renames carry nothing."""

from __future__ import annotations

from pathlib import Path

from stub_helpers import KIT, PROTO, generate, project

OLD = "internal/service/items/create_item.go"
NEW = "internal/service/items/add_item.go"
BODY = '\tl.Info("create", "name", strings.ToUpper(in.Name))\n\treturn &types.Item{Name: in.Name}, nil\n'


def _implement(root: Path, path: str = OLD, method: str = "CreateItem") -> None:
    stub = root / path
    text = stub.read_text()
    text = text.replace(f"func (l *{method}Service) {method}(req ", f"func (s *{method}Service) {method}(in ")
    fresh = (
        f'\t// TODO: implement {method}; until then callers get 501 {{"message":"{method} is not implemented yet"}}.\n'
        f'\treturn nil, svccontext.NotImplemented("{method}")\n'
    )
    text = text.replace(fresh, BODY.replace("l.Info", "s.Info"))
    text = text.replace('import (\n\t"context"\n', 'import (\n\t"context"\n\t"strings"\n')
    stub.write_text(text)


def test_a_renamed_method_carries_body_names_and_imports(tmp_path: Path) -> None:
    root = project(tmp_path)
    generate(root)
    _implement(root)
    old_text = (root / OLD).read_text()
    (root / "design/shop.kit").write_text(KIT.replace("CreateItem", "AddItem"))
    report = generate(root)
    new = (root / NEW).read_text()
    assert "func (s *AddItemService) AddItem(in *types.NewItem) (*types.Item, error) {\n" in new
    assert BODY.replace("l.Info", "s.Info") in new
    assert 'import (\n\t"context"\n\t"strings"\n\n' in new  # in the standard library group
    assert (root / OLD).read_text() == old_text  # the old file is left as it was
    notices = [n for n in report.notices if n.path == OLD]
    assert len(notices) == 1 and f"its code was carried into {NEW}" in notices[0].message


def test_a_renamed_rpc_carries_its_code_and_drops_the_todo_imports(tmp_path: Path) -> None:
    root = project(tmp_path, kit=None, proto=PROTO)
    generate(root)
    stub = root / "internal/service/stock/get.go"
    text = stub.read_text()
    start = text.index("\t// TODO: implement Get;")
    end = text.index("}\n", start)
    stub.write_text(text[:start] + "\treturn &v1.Level{Count: int64(len(req.GetSku()))}, nil\n" + text[end:])
    proto = root / "design/stock/v1/stock.proto"
    proto.write_text(PROTO.replace("rpc Get(", "rpc Fetch("))
    generate(root)
    new = (root / "internal/service/stock/fetch.go").read_text()
    assert "return &v1.Level{Count: int64(len(req.GetSku()))}, nil" in new
    assert "codes" not in new and "status" not in new  # only the TODO used them
    assert (root / "internal/service/stock/get.go").is_file()


def test_two_renames_with_one_signature_carry_nothing(tmp_path: Path) -> None:
    clone = "\tpost CloneItem /clone {\n\t\trequest  NewItem\n\t\tresponse Item\n\t}\n\n"
    kit = KIT.replace("\tget GetItem", clone + "\tget GetItem")
    root = project(tmp_path, kit=kit)
    generate(root)
    _implement(root)
    (root / "design/shop.kit").write_text(kit.replace("CreateItem", "AddItem").replace("CloneItem", "CopyItem"))
    report = generate(root)
    assert "TODO: implement AddItem" in (root / NEW).read_text()
    assert "TODO: implement CopyItem" in (root / "internal/service/items/copy_item.go").read_text()
    assert not any("carried" in n.message for n in report.notices)


def test_an_editor_rename_pairs_stubs_whose_types_changed_too(tmp_path: Path) -> None:
    root = project(tmp_path)
    generate(root)
    _implement(root)
    (root / "design/shop.kit").write_text(
        KIT.replace("CreateItem", "AddItem").replace("response Item\n\t}\n\n\tget", "response Money\n\t}\n\n\tget")
    )
    generate(root, renames={OLD: NEW})
    new = (root / NEW).read_text()
    assert "AddItem(in *types.NewItem) (*types.Money, error) {\n" + BODY.replace("l.Info", "s.Info") in new


def test_without_a_rename_hint_a_changed_signature_is_a_new_stub(tmp_path: Path) -> None:
    root = project(tmp_path)
    generate(root)
    _implement(root)
    (root / "design/shop.kit").write_text(
        KIT.replace("CreateItem", "AddItem").replace("request  NewItem", "request  Item")
    )
    report = generate(root)
    assert "TODO: implement AddItem" in (root / NEW).read_text()
    assert any(n.path == OLD and "renamed or dropped" in n.message for n in report.notices)


def test_only_new_stubs_that_can_pair_are_read(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A fresh project's stubs (thousands in a large design, on every analysis in kit-lsp) are
    not parsed when no old stub could take them; a new stub beside an old one still pairs."""
    from kit_core.stubs import carry

    stub = "package items\n\nfunc (l *{0}Service) {0}(ctx context.Context) error {{\n\treturn nil\n}}\n"
    parsed: list[str] = []
    real = carry.GoSource.parse
    monkeypatch.setattr(carry.GoSource, "parse", staticmethod(lambda text: parsed.append(text) or real(text)))
    fresh = [(f"internal/service/s{i}/m.go", stub.format(f"M{i}")) for i in range(50)]
    assert carry.rename_pairs(fresh, [], lambda _: None) == []
    assert parsed == []
    old = "internal/service/s1/old.go"
    pairs = carry.rename_pairs(fresh, [old], lambda p: stub.format("Old").encode() if p == old else None)
    assert [(p.old, p.new) for p in pairs] == [(old, "internal/service/s1/m.go")]
    assert len(parsed) == 2  # the old stub and the one new stub beside it
