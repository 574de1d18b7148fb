"""The `Workspace`'s parts, each on its own (issue 21 §4: one job each): the open documents'
revisions and stale set, the module map's files of a module, and the declaration index reporting
what it finds changed to its owner instead of deciding what that makes stale."""

from __future__ import annotations

from documents import edit
from fixture import parse_fixture

from hcljson_ls.workspace import DocumentState
from hcljson_ls.workspace.declaration_index import DeclarationIndex
from hcljson_ls.workspace.files import module_key, uri_of_path
from hcljson_ls.workspace.module_map import ModuleMap
from hcljson_ls.workspace.open_documents import OpenDocuments


def _declared(keys):
    """`keys` (a set, or a mapping by key) with only the declarations a file writes as blocks: a
    variable's other keys (`variable-input`: what a module call may set) left out."""
    if isinstance(keys, dict):
        return {k: v for k, v in keys.items() if k[0] in ("variable", "output", "local")}
    return {k for k in keys if k[0] in ("variable", "output", "local")}


def _state(uri: str, text: str) -> DocumentState:
    return DocumentState.open(uri, text, 1, "terraform-json")


def test_revisions_never_repeat_and_only_open_documents_come_back_stale(tmp_path):
    documents = OpenDocuments()
    a, b = uri_of_path(str(tmp_path / "a.tf.json")), uri_of_path(str(tmp_path / "b.tf.json"))
    documents.put(_state(a, "{}"))
    documents.put(_state(b, "{}"))
    seen = [documents.revision(a), documents.revision(b)]
    documents.touch([a, b, "file:///never/opened.tf.json"])
    seen += [documents.revision(a), documents.revision(b)]
    documents.drop(b)
    documents.put(_state(b, "{}"))  # opened again: a new revision, not its old one
    seen.append(documents.revision(b))
    assert len(set(seen)) == len(seen) == 5
    assert documents.revision("file:///never/opened.tf.json") is None

    documents.stale([a, b])
    documents.drop(b)
    assert documents.take_stale() == {a}
    assert documents.take_stale() == set()  # taken once
    assert documents.in_module(module_key(a)) == {a} and documents.in_module(module_key(a), but=a) == set()


def test_the_module_map_counts_open_buffers_but_not_variables_or_test_files(tmp_path):
    (tmp_path / "main.tf.json").write_text("{}")
    (tmp_path / "main.tofu.json").write_text("{}")
    documents = OpenDocuments()
    modules = ModuleMap(documents)
    key = str(tmp_path)
    for name in ("new.tf.json", "prod.tfvars.json", "it.tftest.json"):
        documents.put(_state(uri_of_path(str(tmp_path / name)), "{}"))
    # "auto": a `.tofu.json` file makes OpenTofu read the module, which hides `main.tf.json`
    assert modules.effective_names(key) == ["main.tofu.json", "new.tf.json"] and modules.is_opentofu(key)
    assert modules.set_engine("terraform") and not modules.set_engine("terraform")
    assert modules.effective_names(key) == ["main.tf.json", "new.tf.json"]
    assert [m.directory for m in modules.known()] == [key]


def test_the_declaration_index_reports_what_changed_and_leaves_staleness_to_its_owner(tmp_path):
    ws = parse_fixture("""
//- /app/main.tf.json
{"variable": {"region": {}}, "output": {"o": {"value": "${var.region}"}}}
//- /app/other.tf.json
{"locals": {"a": 1}}
""").workspace(tmp_path)
    key = str(tmp_path / "app")
    main = ws.uri("/app/main.tf.json")
    documents = OpenDocuments()
    modules = ModuleMap(documents)
    told: list[tuple[str, frozenset, str]] = []
    index = DeclarationIndex(modules, documents, lambda module, changed, uri: told.append((module.directory, changed, uri)),
                             lambda key, but: None)
    assert _declared(index.key_index(key)) == {("variable", "region"): {"main.tf.json"},
                                               ("output", "o"): {"main.tf.json"}, ("local", "a"): {"other.tf.json"}}

    state = _state(main, (tmp_path / "app" / "main.tf.json").read_text())
    documents.put(state)
    index.sync(main)
    # Its first sync is reported, with nothing changed: the buffer declares what the file on disk did.
    assert told == [(key, frozenset(), main)]
    told.clear()
    at = state.text.index('"region"')  # search: the variable's name in the document above
    edit(state, at + 1, at + 7, "zone")
    index.sync(main)
    [(directory, changed, uri)] = told
    assert (directory, _declared(changed), uri) == (key, {("variable", "region"), ("variable", "zone")}, main)
    index.sync(main)
    assert len(told) == 1  # the same declarations: nothing more to report
    # The index is remembered per module revision: the owner bumps it, as the Workspace does.
    assert ("variable", "zone") not in index.key_index(key)
    modules.module(key).bump()
    assert index.key_index(key)[("variable", "zone")] == {"main.tf.json"}
    assert index.declaration_sites(key, ("variable", "zone")) == [(main, at, at + 6)]
