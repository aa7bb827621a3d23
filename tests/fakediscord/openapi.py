"""Discord's published OpenAPI spec, applied to every request the bot sends the fake.

Discord generates `discord_api_spec/openapi.json` from its own server code, so it is the
nearest thing here to asking real Discord whether it accepts a request: the route and method,
the path and query parameters, and the JSON body (or a multipart request's `payload_json`)
against the operation's request schema with its `$ref`s resolved.

Two things are stricter than the spec as published, on purpose:
- an object with listed properties takes no others (Discord ignores unknown fields, but a
  field it ignores is a bug of ours: a misspelt name, or a setting that never takes effect);
- a query parameter the operation does not list is refused.

discord.py itself sends a few things the spec does not list, which Discord accepts. Each is
allowed by name with its reason (`ALLOWANCES`); nothing else is.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

import fastjsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_FILE = Path(__file__).parent / "discord_api_spec" / "openapi.json"
# Compiled validators, shared by every process and run on this machine: making one takes up
# to a second of CPU, which a test process spends while a bot waits for its answers.
VALIDATOR_CACHE = Path(tempfile.gettempdir()) / "fakediscord-validators"
SPEC_URI = "urn:discord-api-spec"
API_PREFIX = "/api/v10"
_VALUE_SHOWN = 80  # characters of a refused value quoted in a report

Action = Literal["snowflake_int", "drop", "bool_digit"]
ANY = object()


@dataclass(frozen=True)
class Allowance:
    """One thing discord.py sends that the spec does not list and Discord accepts.

    `where` is a JSON path pattern matched against the end of a value's path: `*` stands for
    one key or index. `operations` names the operations (operationId) it applies to.
    """

    name: str
    reason: str
    operations: frozenset[str]
    where: tuple[str | frozenset[str], ...]  # a set: any one of these keys
    action: Action
    only: object = ANY  # the one value allowed there (ANY: any value)

    def applies(self, operation: str, path: tuple[str | int, ...], value: object = ANY) -> bool:
        if operation not in self.operations or len(path) < len(self.where):
            return False
        if self.only is not ANY and (value is ANY or value != self.only):
            return False
        tail = path[len(path) - len(self.where) :]
        return all(_matches(p, k) for p, k in zip(self.where, tail, strict=True))


def _matches(pattern: str | frozenset[str], key: str | int) -> bool:
    if isinstance(pattern, frozenset):
        return str(key) in pattern
    return pattern == "*" or pattern == str(key)


_MESSAGE_BODIES = frozenset(
    {
        "create_message",
        "update_message",
        "create_interaction_response",
        "execute_webhook",
        "update_original_webhook_message",
        "update_webhook_message",
    }
)

ALLOWANCES: tuple[Allowance, ...] = (
    Allowance(
        "select option emoji id as an integer",
        "discord.py's PartialEmoji.to_dict() gives the id as an int; Discord reads it",
        _MESSAGE_BODIES,
        ("options", "*", "emoji", "id"),
        "snowflake_int",
    ),
    Allowance(
        "button emoji id as an integer",
        "discord.py's PartialEmoji.to_dict() gives the id as an int; Discord reads it",
        _MESSAGE_BODIES,
        ("components", "*", "components", "*", "emoji", "id"),
        "snowflake_int",
    ),
    Allowance(
        "DM recipient id as an integer",
        "discord.py's HTTPClient.start_private_message sends recipient_id as an int",
        frozenset({"create_dm"}),
        ("recipient_id",),
        "snowflake_int",
    ),
    Allowance(
        "allowed mentions' user ids as integers",
        "discord.py's AllowedMentions.to_dict() lists user ids as ints",
        _MESSAGE_BODIES,
        ("allowed_mentions", "users", "*"),
        "snowflake_int",
    ),
    Allowance(
        "allowed mentions' role ids as integers",
        "discord.py's AllowedMentions.to_dict() lists role ids as ints",
        _MESSAGE_BODIES,
        ("allowed_mentions", "roles", "*"),
        "snowflake_int",
    ),
    Allowance(
        "an attachment's id as the index of its file",
        "discord.py names a new upload by the index of its files[n] part, as an int",
        _MESSAGE_BODIES,
        ("attachments", "*", "id"),
        "snowflake_int",
    ),
    Allowance(
        "a kept attachment as discord.py describes it",
        "an edit that keeps a message's files lists them with Attachment.to_dict(), which adds"
        " the fields Discord sent (url, size, ...); Discord reads the id and ignores the rest",
        _MESSAGE_BODIES,
        (
            "attachments",
            "*",
            frozenset({"url", "proxy_url", "size", "spoiler", "height", "width", "content_type"}),
        ),
        "drop",
    ),
    Allowance(
        "with_response as 1 or 0",
        "discord.py sends booleans in query strings as 1/0",
        frozenset({"create_interaction_response"}),
        ("query", "with_response"),
        "bool_digit",
    ),
    Allowance(
        "wait as 1 or 0",
        "discord.py sends booleans in query strings as 1/0",
        frozenset({"execute_webhook"}),
        ("query", "wait"),
        "bool_digit",
    ),
    Allowance(
        "with_components as 1 or 0",
        "discord.py sends booleans in query strings as 1/0",
        frozenset({"execute_webhook", "update_original_webhook_message", "update_webhook_message"}),
        ("query", "with_components"),
        "bool_digit",
    ),
    Allowance(
        "tts: false on a message edit",
        "discord.py's webhook edits carry tts: false, which Discord ignores",
        frozenset({"update_original_webhook_message", "update_webhook_message", "update_message"}),
        ("tts",),
        "drop",
        only=False,
    ),
    Allowance(
        "tts: false in an interaction's answer",
        "discord.py's InteractionResponse.edit_message (type 7) carries tts: false, which"
        " Discord ignores; the spec lists tts only for a new message (type 4)",
        frozenset({"create_interaction_response"}),
        ("data", "tts"),
        "drop",
        only=False,
    ),
    Allowance(
        "an embed's flags",
        "discord.py's Embed.to_dict() keeps the flags it read from Discord; Discord ignores them",
        _MESSAGE_BODIES,
        ("embeds", "*", "flags"),
        "drop",
    ),
    Allowance(
        "nsfw in a command sync",
        "discord.py sends nsfw for every command; the spec's request schema leaves it out",
        frozenset(
            {
                "bulk_set_application_commands",
                "bulk_set_guild_application_commands",
                "create_application_command",
                "create_guild_application_command",
            }
        ),
        ("*", "nsfw"),
        "drop",
    ),
)


@dataclass(frozen=True)
class Violation:
    """One way a request breaks Discord's spec: where, which rule, and the value."""

    route: str  # "POST /channels/{channel_id}/messages"
    where: str  # "body.components[0].components[1].custom_id", "query.limit", "path"
    rule: str  # "maxLength: 100"
    value: str  # the refused value, quoted and cut short
    code: str = "INVALID"  # Discord's error code for it, as in BASE_TYPE_MAX_LENGTH

    def __str__(self) -> str:
        return f"{self.route}: {self.where}: {self.rule} (got {self.value})"


@dataclass
class Operation:
    """One route and method of the spec, with its parameters and request schemas."""

    method: str
    template: str
    operation_id: str
    pattern: re.Pattern[str]
    path_params: dict[str, str]  # name: JSON pointer of its schema in the spec
    query_params: dict[str, str]
    required_query: frozenset[str]
    body_schema: str | None  # JSON pointer of the application/json request schema, if any
    body_required: bool
    literal_segments: int
    _validators: dict[str, Draft202012Validator] = field(default_factory=dict)
    _fast: dict[str, Callable[[Any], Any]] = field(default_factory=dict)

    @property
    def route(self) -> str:
        return f"{self.method} {self.template}"


class DiscordSpec:
    """Checks requests against Discord's OpenAPI spec; validators are compiled once each."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.spec = _tagged_unions(_strict(spec))
        self._formatless = _without_formats(self.spec)
        resource = Resource.from_contents(self.spec, default_specification=DRAFT202012)
        self.registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
        self.operations = sorted(
            self._operations(), key=lambda op: (-op.literal_segments, op.template)
        )

    @classmethod
    @cache
    def load(cls) -> DiscordSpec:
        """The project's copy of the spec (loaded once per process)."""
        return cls(json.loads(SPEC_FILE.read_text(encoding="utf-8")))

    def _operations(self) -> Iterator[Operation]:
        for template, item in self.spec["paths"].items():
            at = f"#/paths/{_escape(template)}"
            shared = {
                (p["in"], p["name"]): (p, f"{at}/parameters/{n}/schema")
                for n, p in enumerate(item.get("parameters", []))
            }
            for method, op in item.items():
                if method == "parameters":
                    continue
                params = dict(shared)
                params.update(
                    {
                        (p["in"], p["name"]): (p, f"{at}/{method}/parameters/{n}/schema")
                        for n, p in enumerate(op.get("parameters", []))
                    }
                )
                body = op.get("requestBody") or {}
                json_body = (body.get("content") or {}).get("application/json")
                segments = template.strip("/").split("/")
                yield Operation(
                    method=method.upper(),
                    template=template,
                    operation_id=op.get("operationId", f"{method} {template}"),
                    pattern=_template_pattern(segments),
                    path_params={n: ref for (i, n), (_, ref) in params.items() if i == "path"},
                    query_params={n: ref for (i, n), (_, ref) in params.items() if i == "query"},
                    required_query=frozenset(
                        n for (i, n), (p, _) in params.items() if i == "query" and p.get("required")
                    ),
                    body_schema=(
                        f"{at}/{method}/requestBody/content/application~1json/schema"
                        if json_body
                        else None
                    ),
                    body_required=bool(body.get("required")),
                    literal_segments=sum(1 for s in segments if not s.startswith("{")),
                )

    def find(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        """The operation a request is for, and its path parameters; None: not in the spec."""
        path = path.removeprefix(API_PREFIX)
        for op in self.operations:
            if op.method != method:
                continue
            match = op.pattern.fullmatch(path)
            if match is not None:
                return op, match.groupdict()
        return None

    def check(
        self,
        method: str,
        path: str,
        query: Mapping[str, str],
        body: Any | None,
    ) -> list[Violation]:
        """Every way this request breaks the spec (an empty list: Discord would take it).

        `body` is the JSON body, or a multipart request's `payload_json`; None for none.
        """
        found = self.find(method, path)
        if found is None:
            shown = path.removeprefix(API_PREFIX)
            return [Violation(f"{method} {shown}", "route", "not in Discord's API", "-")]
        op, path_values = found
        violations: list[Violation] = []
        for name, value in path_values.items():
            violations += self._check_value(op, f"path.{name}", op.path_params[name], value)
        violations += self._check_query(op, query)
        violations += self._check_body(op, body)
        return violations

    def _check_query(self, op: Operation, query: Mapping[str, str]) -> list[Violation]:
        violations: list[Violation] = []
        for name in sorted(op.required_query - set(query)):
            violations.append(Violation(op.route, f"query.{name}", "required", "nothing"))
        for name, raw in query.items():
            schema = op.query_params.get(name)
            if schema is None:
                violations.append(
                    Violation(
                        op.route, f"query.{name}", "not a parameter of this route", _shown(raw)
                    )
                )
                continue
            value = _query_value(self._resolve(schema), raw, op.operation_id, name)
            violations += self._check_value(op, f"query.{name}", schema, value)
        return violations

    def _check_body(self, op: Operation, body: Any | None) -> list[Violation]:
        if body is None:
            if op.body_required:
                return [Violation(op.route, "body", "required", "nothing")]
            return []
        if op.body_schema is None:
            return [Violation(op.route, "body", "this route takes no body", _shown(body))]
        return self._check_value(op, "body", op.body_schema, _allowed(body, op.operation_id))

    def _check_value(self, op: Operation, where: str, schema: str, value: Any) -> list[Violation]:
        """Checks a value with the fast compiled validator; only a value it refuses is
        checked again, slowly, to say exactly where and why."""
        fast = op._fast.get(where)
        if fast is None:
            fast = self._fast_validator(schema)
            op._fast[where] = fast
        try:
            fast(value)
        except fastjsonschema.JsonSchemaValueException as refusal:
            return self._explained(op, where, schema, value, refusal)
        return []

    def _explained(
        self,
        op: Operation,
        where: str,
        schema: str,
        value: Any,
        refusal: fastjsonschema.JsonSchemaValueException,
    ) -> list[Violation]:
        validator = op._validators.get(where)
        if validator is None:
            validator = self._validator(schema)
            op._validators[where] = validator
        errors = _explain(validator.iter_errors(value))
        found = [v for error in errors for v in _violations(op.route, where, error)]
        if found:
            return found
        # The two validators disagree: say what the fast one saw rather than let it pass.
        place = where + "".join(f"[{p}]" if p.isdigit() else f".{p}" for p in refusal.path[1:])
        return [Violation(op.route, place, refusal.rule or "schema", _shown(refusal.value))]

    def _fast_validator(self, pointer: str) -> Callable[[Any], Any]:
        # Compiled to Python once per operation and place: the whole document as the root,
        # so its "#/components/..." references resolve, entered at the schema's pointer.
        # Annotations (formats, encodings) are left out: the explaining validator leaves
        # them unchecked too. The compiled code is kept on disk for other processes.
        path = VALIDATOR_CACHE / f"{_cache_key(pointer)}.marshal"
        try:
            code = marshal.loads(path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            source = fastjsonschema.compile_to_code({**self._formatless, "$ref": pointer})
            code = compile(source, f"<validator {pointer}>", "exec")
            _write_atomically(path, marshal.dumps(code))
        namespace: dict[str, Any] = {}
        exec(code, namespace)
        return namespace["validate"]  # type: ignore[no-any-return]

    def _validator(self, pointer: str) -> Draft202012Validator:
        # The schema is named by its place in the whole document, so the "#/components/..."
        # references inside it resolve against the document.
        return Draft202012Validator({"$ref": SPEC_URI + pointer}, registry=self.registry)

    def _resolve(self, pointer: str) -> Any:
        """The schema at a JSON pointer of the spec, its own `$ref`s followed."""
        schema: Any = {"$ref": pointer}
        while isinstance(schema, dict) and "$ref" in schema:
            node: Any = self.spec
            for part in schema["$ref"].removeprefix("#/").split("/"):
                key = part.replace("~1", "/").replace("~0", "~")
                node = node[int(key)] if isinstance(node, list) else node[key]
            schema = node
        return schema


@cache
def _source_digest() -> str:
    """What a compiled validator depends on: the spec, how this module reads it, the
    compiler and the interpreter (whose bytecode is stored)."""
    digest = hashlib.sha256()
    for part in (SPEC_FILE.read_bytes(), Path(__file__).read_bytes()):
        digest.update(part)
    digest.update(f"{fastjsonschema.VERSION} {sys.version}".encode())
    return digest.hexdigest()


def _cache_key(pointer: str) -> str:
    return hashlib.sha256(f"{_source_digest()} {pointer}".encode()).hexdigest()[:40]


def _write_atomically(path: Path, data: bytes) -> None:
    """Another process reads the file whole or not at all; a failure only costs the cache."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".part-")
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except OSError:
        pass


def _escape(template: str) -> str:
    """A path template as one token of a JSON pointer."""
    return template.replace("~", "~0").replace("/", "~1")


def _template_pattern(segments: list[str]) -> re.Pattern[str]:
    parts = []
    for segment in segments:
        if segment.startswith("{") and segment.endswith("}"):
            parts.append(f"(?P<{segment[1:-1]}>[^/]+)")
        else:
            parts.append(re.escape(segment))
    return re.compile("/" + "/".join(parts))


def _strict(node: Any) -> Any:
    """The spec with every object that lists its properties closed to others."""
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    strict = {key: _strict(value) for key, value in node.items()}
    if "properties" in strict and "additionalProperties" not in strict:
        strict["additionalProperties"] = False
    return strict


def _tagged_unions(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec with each union of tagged objects (components, callbacks: every branch an
    object whose `type` names it) made a dispatch on that tag: a value is checked against the
    one branch it names, so checking costs one branch instead of all, and a refusal speaks
    of the kind of thing the value is."""

    def target(branch: Any) -> Any:
        while isinstance(branch, dict) and "$ref" in branch:
            node: Any = spec
            for part in branch["$ref"].removeprefix("#/").split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
            branch = node
        return branch

    def tags(branch: Any) -> list[Any] | None:
        tag = ((target(branch) or {}).get("properties") or {}).get("type") or {}
        if "const" in tag:
            return [tag["const"]]
        enum = tag.get("enum")
        return list(enum) if enum else None

    def dispatch(branches: list[Any]) -> list[Any] | None:
        tagged = [tags(branch) for branch in branches]
        if any(t is None for t in tagged):
            return None
        values = [v for t in tagged for v in t or []]
        if len(set(values)) != len(values):
            return None
        known = {"type": "object", "required": ["type"], "properties": {"type": {"enum": values}}}
        cases = [
            {"if": {"properties": {"type": {"enum": t}}}, "then": branch}
            for t, branch in zip(tagged, branches, strict=True)
        ]
        return [known, *cases]

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        out = {key: walk(value) for key, value in node.items()}
        for union in ("oneOf", "anyOf"):
            branches = out.get(union)
            if isinstance(branches, list) and len(branches) > 1:
                cases = dispatch(branches)
                if cases is not None:
                    del out[union]
                    out["allOf"] = [*out.get("allOf", []), *cases]
        return out

    return walk(spec)  # type: ignore[no-any-return]


def _without_formats(node: Any) -> Any:
    if isinstance(node, list):
        return [_without_formats(item) for item in node]
    if not isinstance(node, dict):
        return node
    return {k: _without_formats(v) for k, v in node.items() if k not in _ANNOTATIONS}


# Keywords the explaining validator takes as annotations only (JSON Schema 2020-12 asserts
# neither): the fast one must not check them either, or the two would disagree.
_ANNOTATIONS = ("format", "contentEncoding", "contentMediaType")


def _allowed(body: Any, operation: str) -> Any:
    """The body with each allowance applied where it matches (an int snowflake made a
    string, an ignored field dropped), so the spec judges everything else."""
    drops = _by_last_key(operation, "drop")
    snowflakes = _by_last_key(operation, "snowflake_int")

    def walk(node: Any, path: tuple[str | int, ...]) -> Any:
        if isinstance(node, dict):
            out = {}
            for key, value in node.items():
                child = (*path, key)
                candidates = drops.get(key, ()) + drops.get("*", ())
                if any(a.applies(operation, child, value) for a in candidates):
                    continue
                out[key] = walk(value, child)
            return out
        if isinstance(node, list):
            return [walk(value, (*path, i)) for i, value in enumerate(node)]
        if isinstance(node, int) and not isinstance(node, bool) and node >= 0 and path:
            last = str(path[-1])
            candidates = snowflakes.get(last, ()) + snowflakes.get("*", ())
            if any(a.applies(operation, path) for a in candidates):
                return str(node)
        return node

    return walk(body, ())


@cache
def _by_last_key(operation: str, action: Action) -> dict[str, tuple[Allowance, ...]]:
    """The operation's allowances of one kind, by the last key of their place ("*": any)."""
    found: dict[str, tuple[Allowance, ...]] = {}
    for allowance in ALLOWANCES:
        if allowance.action != action or operation not in allowance.operations:
            continue
        last = allowance.where[-1]
        for key in sorted(last) if isinstance(last, frozenset) else [last]:
            found[key] = (*found.get(key, ()), allowance)
    return found


def _query_value(schema: Any, raw: str, operation: str, name: str) -> Any:
    """A query string's value as the type its schema asks for (what Discord parses)."""
    kinds = schema.get("type") if isinstance(schema, dict) else None
    kinds = [kinds] if isinstance(kinds, str) else list(kinds or [])
    if "boolean" in kinds:
        if raw in ("true", "True"):
            return True
        if raw in ("false", "False"):
            return False
        digit = any(
            a.action == "bool_digit" and a.applies(operation, ("query", name)) for a in ALLOWANCES
        )
        if digit and raw in ("1", "0"):
            return raw == "1"
        return raw
    if "integer" in kinds:
        try:
            return int(raw)
        except ValueError:
            return raw
    return raw


def _explain(errors: Iterable[ValidationError]) -> list[ValidationError]:
    """The errors that say what is wrong: inside a union (oneOf/anyOf), those of the branch
    the value was meant for, chosen by its `type` (or by which branch got furthest)."""
    explained: list[ValidationError] = []
    for error in errors:
        if error.validator in ("oneOf", "anyOf") and error.context:
            branch = _meant_branch(error)
            explained += _explain(branch) if branch else [error]
        else:
            explained.append(error)
    return explained


def _meant_branch(error: ValidationError) -> list[ValidationError] | None:
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context or []:
        branches.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    depth = len(error.absolute_path)

    def ruled_out(errors: list[ValidationError]) -> bool:
        # The value is not of this branch at all: the wrong JSON type, or another `type` tag.
        for e in errors:
            relative = list(e.absolute_path)[depth:]
            if not relative and e.validator == "type":
                return True
            if relative == ["type"] and e.validator in ("const", "enum"):
                return True
        return False

    candidates = [errs for errs in branches.values() if not ruled_out(errs)]
    if not candidates:
        return None
    # The branch whose errors lie deepest is the one the value got furthest into.
    return max(candidates, key=lambda errs: (max(len(e.absolute_path) for e in errs), -len(errs)))


def _violations(route: str, root: str, error: ValidationError) -> list[Violation]:
    """One violation per refused value; an unknown or missing field is named in the path."""
    where = _json_path(root, error.absolute_path)
    schema: Any = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = set(schema.get("properties") or {})
        return [
            Violation(route, f"{where}.{key}", "unknown field", _shown(value), "UNKNOWN_FIELD")
            for key, value in error.instance.items()
            if key not in known
        ]
    if error.validator == "required" and isinstance(error.instance, dict):
        return [
            Violation(route, f"{where}.{key}", "required", "nothing", "BASE_TYPE_REQUIRED")
            for key in error.validator_value  # type: ignore[union-attr]
            if key not in error.instance
        ]
    code = _discord_code(str(error.validator), schema, error.validator_value)
    return [Violation(route, where, _rule(error), _shown(error.instance), code)]


def _discord_code(validator: str, schema: dict[str, Any], expected: Any) -> str:
    """The code Discord gives a field refused for this rule (its form errors' codes)."""
    if validator in ("minLength", "maxLength"):
        if "minLength" in schema and "maxLength" in schema:
            return "BASE_TYPE_BAD_LENGTH"
        return "BASE_TYPE_MIN_LENGTH" if validator == "minLength" else "BASE_TYPE_MAX_LENGTH"
    if validator == "type":
        kinds = [expected] if isinstance(expected, str) else list(expected)
        for kind, code in _TYPE_CODES.items():
            if kind in kinds:
                return code
    return _CODES.get(validator, "INVALID")


_CODES = {
    "minItems": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH",
    "minimum": "NUMBER_TYPE_MIN",
    "maximum": "NUMBER_TYPE_MAX",
    "pattern": "STRING_TYPE_REGEX",
    "enum": "BASE_TYPE_CHOICES",
    "const": "BASE_TYPE_CHOICES",
    "uniqueItems": "LIST_ITEM_VALUE_DUPLICATE",
}
_TYPE_CODES = {
    "integer": "NUMBER_TYPE_COERCE",
    "number": "NUMBER_TYPE_COERCE",
    "boolean": "BOOLEAN_TYPE_COERCE",
    "string": "STRING_TYPE_CONVERT",
    "array": "LIST_TYPE_CONVERT",
    "object": "DICT_TYPE_CONVERT",
}


def _rule(error: ValidationError) -> str:
    if error.validator in ("oneOf", "anyOf"):
        return f"{error.validator}: matches none of its schemas"
    value = error.validator_value
    if isinstance(value, dict | list):
        value = json.dumps(value)[:_VALUE_SHOWN]
    return f"{error.validator}: {value}"


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    if isinstance(value, str | list | dict):
        size = f" ({len(value)} {'characters' if isinstance(value, str) else 'items'})"
    else:
        size = ""
    if len(text) > _VALUE_SHOWN:
        text = text[: _VALUE_SHOWN - 1] + "…"
    return text + size


def _json_path(root: str, path: Iterable[str | int]) -> str:
    text = root
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text
