"""Signature help: the signature of the built-in function whose argument list holds the cursor, and
which of its parameters the argument under the cursor fills.

    signature_help(snapshot, uri, offset) -> SignatureHelp | None
    help_for(fn, arg_index) -> SignatureHelp       the help of a `terraform.functions.Function`

Contract
--------
* The cursor must be inside the content of a JSON string read as a template (`"${format(...)}"`)
  or as a native expression without `${}` (`schema.STRING_NATIVE`: an import block's `to`, the
  elements of `replace_triggered_by`), between
  its quotes (the closing quote's offset counts, the opening quote's does not), directly in the
  argument list of a call: `"${upper(format("%s", |))}"` answers for `format`, and so does
  `"${format("%|` (inside a quoted string argument, the call around that string). Only the text
  before the cursor is read (`template.partial.context_at`), so half-typed input works: an
  unterminated string, a missing `)` or `}`, a document whose braces do not close. JSON escapes
  are decoded first (`\\"` is a quote of the expression, `\\u00e9` one character).
* The function is looked up for the module's engine (`Snapshot.is_opentofu`): `core::upper`
  is `upper`; a provider-defined function (`provider::aws::arn_parse`) from the provider schemas
  of the module (`provider_functions.function_named`: the provider required and its schema's
  `functions` loaded; its label shows the name as called); an unknown name and a function of the
  other engine only give None.
* `SignatureHelp.label` is `terraform.functions.signature(fn)`, `documentation` the function's
  one-sentence description, `parameters` one `SignatureParameter` per parameter (the fixed ones,
  then the variadic one), each with its `[start, end)` range in `label` in characters (Python
  `str` indices; the LSP edge converts them to UTF-16 code units): exactly the text
  `"name type"` (`"args... any"` for the variadic one).
* `active_parameter` is the index into `parameters` of the parameter the cursor's argument
  fills (`CallContext.arg_index`, the commas before the cursor at the call's own level): a
  fixed parameter, else the variadic one; None when the call already has more arguments than the
  function accepts (`Function.max_args`: the fixed parameters of a function without a variadic
  one, or the implementation's limit, e.g. `lookup` takes at most 3).
* Pure and total: an unknown document, an offset outside the text, anything odd gives None.
* Cost: an offset whose line has no `(` (nor a `\\u` escape) before it is answered at once;
  otherwise one `locate`, which decodes the string under the cursor (O(its length)), and a
  tokenization of the string's text before the cursor.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from ..hcljson.locate import locate
from ..hcljson.schema import STRING_NATIVE, STRING_TEMPLATE
from ..template.lexer import QUOTE_CLOSE, QUOTE_OPEN, tokenize
from ..template.partial import CallContext, context_at
from ..terraform.definition import functions
from ..workspace import Snapshot
from . import kinds
from .provider_functions import function_named

#: The string modes whose content is an expression where a function may be called.
_CALLABLE_MODES = frozenset({STRING_TEMPLATE, STRING_NATIVE})


@dataclass(frozen=True, slots=True)
class SignatureParameter:
    """One parameter: its name and its `[start, end)` character range in the signature label."""

    name: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class SignatureHelp:
    label: str
    documentation: str
    parameters: tuple[SignatureParameter, ...]
    active_parameter: int | None


def signature_help(snapshot: Snapshot, uri: str, offset: int) -> SignatureHelp | None:
    """The signature help at `offset` of open document `uri` (see module doc), or None."""
    if (own := kinds.answer("signature_help", snapshot, uri, offset)) is not kinds.CONFIGURATION:
        return own
    state = snapshot.document(uri)
    if state is None:
        return None
    text = state.text
    if not 0 <= offset <= len(text):
        return None
    # A JSON string never holds a raw line break, so a call around the cursor has its `(` (or a
    # `\u0028` escape) before the cursor on the cursor's line: most offsets are answered here,
    # without locating and decoding the string (the `,` trigger fires between members too).
    index = state.line_index
    line_start = index.line_start(index.line_of(offset))
    if text.find("(", line_start, offset) < 0 and text.find("\\u", line_start, offset) < 0:
        return None
    found = locate(text, state.analysis.body, offset).string
    if found is None or found.mode not in _CALLABLE_MODES:
        return None
    value, offsets = found.value, found.decoded.offsets
    if not offsets[0] <= offset <= offsets[len(value)]:
        return None  # on the opening quote, or after the closing one
    if found.mode == STRING_NATIVE:
        # A native expression is what a template's `${` holds: read it as one that never closes.
        value = "${" + value
        offsets = [offsets[0], offsets[0], *offsets]
    call = _call_at(value, offsets, offset)
    if call is None:
        return None
    fn = function_named(snapshot, uri, call.name)
    if fn is None:
        return None
    return help_for(fn, call.arg_index)


def _call_at(value: str, offsets: Sequence[int], offset: int) -> CallContext | None:
    """The call whose argument list holds `offset`, also from inside a quoted string argument
    (`format("%s|`: the help stays while a string argument is typed)."""
    context = context_at(value, offsets, offset)
    if context.kind != "string":
        return context.call
    n = len(value)
    c = min(max(bisect_right(offsets, offset, 0, n + 1) - 1, 0), n)
    opened: list[int] = []  # decoded indexes of the quoted strings still open before the cursor
    for token in tokenize(value[:c], "template").tokens:
        if token.type == QUOTE_OPEN:
            opened.append(token.start_pos)
        elif token.type == QUOTE_CLOSE and opened:
            opened.pop()
    return context_at(value, offsets, offsets[opened[-1]]).call if opened else None


def help_for(fn: functions.Function, arg_index: int) -> SignatureHelp:
    """The signature help of `fn` with the cursor in argument `arg_index` (0-based)."""
    label = functions.signature(fn)
    params = [*fn.parameters, *([fn.variadic] if fn.variadic is not None else [])]
    parts = [f"{p.name} {p.type}" for p in fn.parameters]
    if fn.variadic is not None:
        parts.append(f"{fn.variadic.name}... {fn.variadic.type}")
    out: list[SignatureParameter] = []
    at = len(fn.name) + 1  # just after `name(`
    for p, part in zip(params, parts):
        start = label.find(part, at)
        if start < 0:  # `signature` changed its format: no ranges rather than wrong ones
            out = []
            break
        out.append(SignatureParameter(p.name, start, start + len(part)))
        at = start + len(part)
    return SignatureHelp(label, fn.description, tuple(out), _active(fn, arg_index) if out else None)


def _active(fn: functions.Function, arg_index: int) -> int | None:
    if arg_index < 0:
        return None
    high = fn.max_args
    if high is not None and arg_index >= high:
        return None  # more arguments than the function accepts
    if arg_index < len(fn.parameters):
        return arg_index
    return len(fn.parameters) if fn.variadic is not None else None
