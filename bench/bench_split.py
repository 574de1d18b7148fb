"""What splitting a hot function cost: the working tree's module against the same module at a git
revision, run alternately in one process.

Run: python bench/bench_split.py [--before REV] [--quick] [CASE ...]     (REV defaults to `main`)

Cases (all by default), each the hot function of a module timed on one input:

    fastparse   `jsonsyntax.fastparse._fast_parse` on the CDKTF-like document of `cdktf_doc` (5 MB)
    parser      `jsonsyntax.parser._parse_value_tokens` (the robust loop) on the 500 KB document,
                and on the same with an error every 200 lines
    lexer       `template.lexer.tokenize` of every string of the 500 KB document holding `${`, and
                of a set of expressions, templates with directives and type constraints
    line_index  `text.LineIndex.update`: a one-character insert then delete in the middle of 5 MB
                (a letter; a line break, which adds and removes a line start)
    semantic    `template.semantic.classify` of the parsed templates of the lexer case
    provider_rules  `terraform.rules.provider_rules` on the resource bodies of `bench_schemas.make_aws`
                (5 MB; the AWS 4.13 schema of the test data): the quick open's compiled one-pass test
                (`_quiet_test(...)(body)`) and the body rule (`resource_body_findings`) on the C
                scanner's values, the body rule on the tree, and on the tree again with problems
                (every other body without its required arguments, every third with a wrong kind)

"Before" is the module's source at REV, executed as a module of its own next to the tree's (its
relative imports resolve to the working tree's other modules). The two run alternately, in turns
that swap which goes first, each turn after a full collection; a parse runs inside
`gcpolicy.paused_gc()` as the server runs it. Printed per case: the median time of each and the
ratio after / before (the median of the per-turn ratios, with their spread). A ratio within the
spread of runs of the same code is no measurable difference on this machine.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cdktf_doc import make

from hcljson_ls.gcpolicy import paused_gc
from hcljson_ls.jsonsyntax.scanner import scan
from hcljson_ls.template import parse_expression, parse_template, parse_type

ROOT = Path(__file__).resolve().parents[1]


def before_module(name: str, rev: str) -> types.ModuleType:
    """Module `name` (e.g. `hcljson_ls.template.lexer`) as it was at `rev`, loaded as a module of
    its own (`<name>__before`) in the same package."""
    path = "server/" + name.replace(".", "/") + ".py"
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{path}"], check=True,
                            capture_output=True, text=True).stdout
    module = types.ModuleType(name + "__before")
    module.__package__ = name.rpartition(".")[0]
    module.__file__ = f"{rev}:{path}"
    sys.modules[module.__name__] = module  # (dataclasses look their module up)
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module


def after_module(name: str) -> types.ModuleType:
    __import__(name)
    return sys.modules[name]


def alternate(before, after, turns: int, inner: int = 1) -> tuple[float, float, list[float]]:
    """Median seconds of one call of `before` and of `after` (each timed `inner` calls at a time, in
    process CPU time: the other load on the machine weighs less), and the per-turn ratios after / before."""
    tb, ta, ratios = [], [], []
    for turn in range(turns):
        pair = {}
        for which, fn in (("b", before), ("a", after)) if turn % 2 == 0 else (("a", after), ("b", before)):
            gc.collect()
            t0 = time.process_time()
            for _ in range(inner):
                fn()
            pair[which] = (time.process_time() - t0) / inner
        tb.append(pair["b"])
        ta.append(pair["a"])
        ratios.append(pair["a"] / pair["b"])
    return statistics.median(tb), statistics.median(ta), ratios


def report(label: str, result: tuple[float, float, list[float]]) -> None:
    b, a, ratios = result
    unit, scale = ("ms", 1e3) if b >= 1e-3 else ("µs", 1e6)
    ratios = sorted(ratios)
    print(f"{label:<46} before {b * scale:9.2f} {unit}  after {a * scale:9.2f} {unit}  "
          f"after/before {statistics.median(ratios):.3f} (turns {ratios[0]:.3f}-{ratios[-1]:.3f})", flush=True)


def paused(fn):
    def run():
        with paused_gc():
            fn()
    return run


def damaged(text: str, every: int = 200) -> str:
    """`text` with a comma removed after every `every`th line that ends in one (syntax/missing-comma)."""
    lines = text.split("\n")
    for i in range(every, len(lines), every):
        while i < len(lines) and not lines[i].endswith(","):
            i += 1
        if i < len(lines):
            lines[i] = lines[i][:-1]
    return "\n".join(lines)


def template_strings(text: str) -> list[str]:
    out: list[str] = []

    def walk(v) -> None:
        if isinstance(v, str):
            if "${" in v:
                out.append(v)
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(k)
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(json.loads(text))
    return out


# Expressions, directives, quoted strings, `for` and type constraints: every branch of the lexer.
EXPRESSIONS = [
    "aws_instance.web[count.index].id", "module.net.subnets[*].id", "var.a == 1 ? var.b : \"c-${var.d}\"",
    "[for k, v in var.m : upper(k) if v != null]", "{for s in var.l : s => length(s)...}",
    "provider::aws::arn_parse(var.arn).region", "!var.x && (var.y || var.z) % 2 >= 1.5e3",
    "{\n  a = 1\n  b = \"two\"\n}", "jsonencode({ name = \"x\\n\\t\\\"y\\\"\", list = [1, 2, 3] })",
]
TEMPLATES = [
    "%{ for i, x in var.list ~}${i}: ${x}\n%{ endfor ~}", "%{ if var.on }on%{ else }off%{ endif }",
    "arn:aws:s3:::${var.bucket}/*", "$${literal} %%{literal} ${~ trimspace(var.s) ~}",
]
TYPES = ["map(object({ name = string, size = optional(number, 1), tags = list(string) }))",
         "tuple([string, bool, set(number)])"]


def case_fastparse(rev: str, quick: bool, turns: int) -> None:
    before, after = before_module("hcljson_ls.jsonsyntax.fastparse", rev), after_module("hcljson_ls.jsonsyntax.fastparse")
    size = 500_000 if quick else 5_000_000
    text = make(size)
    assert before._fast_parse(text) is not None and after._fast_parse(text) is not None
    report(f"fastparse, CDKTF-like {size // 1000} KB",
           alternate(paused(lambda: before._fast_parse(text)), paused(lambda: after._fast_parse(text)), turns))


def case_parser(rev: str, quick: bool, turns: int) -> None:
    before, after = before_module("hcljson_ls.jsonsyntax.parser", rev), after_module("hcljson_ls.jsonsyntax.parser")
    for label, text in (("well-formed", make(500_000)), ("an error every 200 lines", damaged(make(500_000)))):
        toks = scan(text)

        def run(module, text=text, toks=toks):
            return paused(lambda: module._parse_value_tokens(text, toks, 0, [], True))

        report(f"parser (robust loop), 500 KB, {label}", alternate(run(before), run(after), turns))


def lexer_inputs(quick: bool) -> list[tuple[str, str]]:
    strings = template_strings(make(50_000 if quick else 500_000))
    return ([(s, "template") for s in strings] + [(s, "template") for s in TEMPLATES * 50]
            + [(s, "expression") for s in EXPRESSIONS * 50] + [(s, "type") for s in TYPES * 50])


def case_lexer(rev: str, quick: bool, turns: int) -> None:
    before, after = before_module("hcljson_ls.template.lexer", rev), after_module("hcljson_ls.template.lexer")
    inputs = lexer_inputs(quick)
    for value, mode in inputs:
        assert [(t.type, t.start_pos, t.end_pos, str(t)) for t in before.tokenize(value, mode).tokens] == \
            [(t.type, t.start_pos, t.end_pos, str(t)) for t in after.tokenize(value, mode).tokens], value

    def run(module):
        tokenize = module.tokenize
        return lambda: [tokenize(v, m) for v, m in inputs]

    report(f"lexer, {len(inputs)} strings", alternate(run(before), run(after), turns))


def case_line_index(rev: str, quick: bool, turns: int) -> None:
    before, after = before_module("hcljson_ls.text.line_index", rev), after_module("hcljson_ls.text.line_index")
    line = '    "aws_instance_%d": {"ami": "ami-%d", "instance_type": "t3.micro"},\n'
    text = "".join(line % (i, i) for i in range(7_000 if quick else 70_000))

    def run(module, inserted):
        index = module.LineIndex(text)
        index.line_count  # (built)
        middle = len(text) // 2

        def edit():
            index.update(middle, middle, inserted)
            index.update(middle, middle + len(inserted), "")
        return edit

    for inserted in ("x", "\n"):
        report(f"LineIndex.update, {inserted!r} inserted + deleted, {len(text) / 1e6:.1f} MB",
               alternate(run(before, inserted), run(after, inserted), turns, inner=2000))


def case_semantic(rev: str, quick: bool, turns: int) -> None:
    before, after = before_module("hcljson_ls.template.semantic", rev), after_module("hcljson_ls.template.semantic")
    trees = []
    for value, mode in lexer_inputs(quick):
        offsets = list(range(len(value) + 1))
        parse = {"template": parse_template, "expression": parse_expression, "type": parse_type}[mode]
        trees.append(parse(value, offsets).tree)
    for tree in trees:
        assert before.classify(tree) == after.classify(tree)

    def run(module):
        classify = module.classify
        return lambda: [classify(t) for t in trees]

    report(f"semantic tokens, {len(trees)} trees", alternate(run(before), run(after), turns))


def provider_rules_inputs(size: int) -> tuple[list, list, list, str]:
    """(schema, values body) and (schema, tree body) of every resource of `make_aws(size)`, the same with
    problems on the tree, and the text the tree bodies are read in (`TreeView`) with the problem one's."""
    import bench_schemas  # lazy: its imports (the workspace, bench_open) are only for this case

    from hcljson_ls.hcljson.skim import _DECODER
    from hcljson_ls.jsonsyntax import parse
    from hcljson_ls.terraform.analysis import analyze_file
    from hcljson_ls.terraform.schemas import provider_schema

    aws = provider_schema.load(bench_schemas.default_schema_file())
    text = bench_schemas.make_aws(size)
    values = [(aws.resource(bench_schemas.AWS, t), b) for t, named in dict(_DECODER.decode(text))["resource"] for _, b in named]

    def tree(text: str) -> list:
        root = analyze_file(text, parse(text).root, "main.tf.json").body
        blocks = [b for b in root.blocks if b.type_name == "resource"]
        return [(aws.resource(bench_schemas.AWS, b.labels[0].value), b.body) for b in blocks]

    doc = json.loads(text)
    for i, body in enumerate(b for named in doc["resource"].values() for b in named.values()):
        schema = aws.resource(bench_schemas.AWS, next(t for t, named in doc["resource"].items() if body in named.values()))
        if i % 2 == 0:
            for name in [n for n, a in schema.attributes.items() if a.required]:
                body.pop(name, None)
        if i % 3 == 0:
            body["tags"] = 7
    bad = json.dumps(doc, indent=2, ensure_ascii=False)
    return values, tree(text), tree(bad), (text, bad)


def case_provider_rules(rev: str, quick: bool, turns: int) -> None:
    from hcljson_ls.hcljson.view import VALUES, TreeView, diagnostics_of

    name = "hcljson_ls.terraform.rules.provider_rules"
    before, after = before_module(name, rev), after_module(name)
    values, good, bad, (text, bad_text) = provider_rules_inputs(500_000 if quick else 5_000_000)
    where = "this block"

    def quiet(module):
        tests = [(module._quiet_test("resource", schema), v) for schema, v in values]
        assert all(test(v) for test, v in tests)
        return lambda: [test(v) for test, v in tests]

    def body_rule(module, view, bodies):
        rule = module.resource_body_findings
        return lambda: [rule(view, "resource", b, schema, where) for schema, b in bodies]

    for label, bodies, in_text in (("values", values, None), ("tree", good, text), ("tree, with problems", bad, bad_text)):
        view = VALUES if in_text is None else TreeView(in_text)
        if in_text is not None:
            found = [diagnostics_of(view, f) for f in body_rule(before, view, bodies)()]
            assert found == [diagnostics_of(view, f) for f in body_rule(after, view, bodies)()]
            assert any(found) == (label != "tree"), label
        report(f"body rule, {label}, {len(bodies)} bodies",
               alternate(body_rule(before, view, bodies), body_rule(after, view, bodies), turns))
    report(f"quiet test, values, {len(values)} bodies", alternate(quiet(before), quiet(after), turns))


CASES = {"fastparse": case_fastparse, "parser": case_parser, "lexer": case_lexer,
         "line_index": case_line_index, "semantic": case_semantic,
         "provider_rules": case_provider_rules}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", help=", ".join(CASES) + " (default: all)")
    parser.add_argument("--before", default="main")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--turns", type=int, default=0)
    args = parser.parse_args()
    unknown = [c for c in args.cases if c not in CASES]
    if unknown:
        parser.error(f"unknown case {', '.join(unknown)}: one of {', '.join(CASES)}")
    turns = args.turns or (5 if args.quick else 21)
    print(f"before: {args.before}, after: the working tree; {turns} turns each", flush=True)
    for name in args.cases or CASES:
        CASES[name](args.before, args.quick, turns)


if __name__ == "__main__":
    main()
