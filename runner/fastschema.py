"""A fast yes/no check for the subset of JSON Schema 2020-12 that the shipped schemas use.

jsonschema needs ~25 ms for one 16x8 JSON state; a match log holds hundreds. `compile_schema` turns a schema
into nested closures (well under 1 ms per state). The check is one-sided by design: True means valid; False
means "ask jsonschema", which stays the authority and words the problems. So anything unusual (a float
where `multipleOf` applies, an enum holding numbers) simply answers False. A keyword outside the subset
makes `compile_schema` raise `Unsupported`, and the caller uses jsonschema alone.
"""

from __future__ import annotations

import math
import re
import urllib.parse
from typing import Any, Callable, Protocol

import attrs

Check = Callable[[Any], bool]

#: Keywords that never affect validity.
_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples"})

_TYPES: dict[str, Check] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "integer": lambda x: isinstance(x, int) and not isinstance(x, bool),  # strict, like runner.schemas
    "number": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
}


class Resolved(Protocol):
    contents: Any
    resolver: "Resolver"


class Resolver(Protocol):
    """What `$ref` resolution needs: `referencing.Resolver` fits, and so does LocalResolver."""

    def lookup(self, ref: str) -> Resolved: ...


@attrs.frozen
class LocalResolved:
    contents: Any
    resolver: "LocalResolver"


@attrs.frozen
class LocalResolver:
    """Resolves `$ref`s among a fixed set of local schemas by `$id` (relative ids and `#/...` pointers).

    Lets the fast check run without importing `referencing`/`jsonschema` (about 80 ms of start-up), which
    only load when a document fails the fast check and needs worded problems.
    """

    schemas: dict[str, Any]  # absolute $id -> schema
    base: str  # $id of the schema being compiled

    def lookup(self, ref: str) -> LocalResolved:
        target, _, pointer = ref.partition("#")
        uri = urllib.parse.urljoin(self.base, target) if target else self.base
        if uri not in self.schemas:
            raise Unsupported(f"unknown $ref {ref!r}")
        contents = self.schemas[uri]
        for part in filter(None, pointer.split("/")):
            part = part.replace("~1", "/").replace("~0", "~")
            contents = contents[int(part)] if isinstance(contents, list) else contents[part]
        return LocalResolved(contents, LocalResolver(self.schemas, uri))

class Unsupported(ValueError):
    """The schema uses a keyword this compiler does not know."""


def compile_schema(schema: Any, resolver: Resolver) -> Check:
    """A function telling whether an instance is (certainly) valid against `schema`."""
    return _Compiler(resolver).compile(schema)


def _all_of(checks: list[Check]) -> Check:
    if len(checks) == 1:
        return checks[0]

    def all_of(x: Any) -> bool:
        for check in checks:
            if not check(x):
                return False
        return True

    return all_of


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


class _Compiler:
    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver

    def compile(self, schema: Any) -> Check:
        if schema is True:
            return lambda x: True
        if schema is False:
            return lambda x: False
        if not isinstance(schema, dict):
            raise Unsupported(f"schema {schema!r}")
        keywords = {k: v for k, v in schema.items() if k not in _ANNOTATIONS}
        fused = self._fused(keywords)
        if fused is not None:
            return fused
        checks = []
        for keyword, value in keywords.items():
            make = getattr(self, "_" + keyword.lstrip("$"), None)
            if make is None:
                raise Unsupported(keyword)
            checks.append(make(value, schema))
        return _all_of(checks)

    def _fused(self, keywords: dict[str, Any]) -> Check | None:
        """One closure for the shapes that make up most of a state: closed objects, typed arrays, integers."""
        kind, names = keywords.get("type"), set(keywords)
        if kind == "integer" and names <= {"type", "minimum", "maximum"}:
            low, high = keywords.get("minimum", -math.inf), keywords.get("maximum", math.inf)
            return lambda x: type(x) is int and low <= x <= high
        if kind == "array" and names <= {"type", "items", "minItems", "maxItems"}:
            low, high = keywords.get("minItems", 0), keywords.get("maxItems", math.inf)
            item = self.compile(keywords.get("items", True))

            def array(x: Any) -> bool:
                if type(x) is not list or not low <= len(x) <= high:
                    return False
                for value in x:
                    if not item(value):
                        return False
                return True

            return array
        properties = keywords.get("properties", {})
        if (
            kind == "object"
            and names == {"type", "properties", "required", "additionalProperties"}
            and keywords["additionalProperties"] is False
            and set(keywords["required"]) == set(properties)
        ):
            keys = frozenset(properties)
            subs = tuple((key, self.compile(sub)) for key, sub in properties.items())

            def closed_object(x: Any) -> bool:
                if type(x) is not dict or x.keys() != keys:
                    return False
                for key, sub in subs:
                    if not sub(x[key]):
                        return False
                return True

            return closed_object
        if names == {"$ref"}:
            return self._ref(keywords["$ref"], keywords)
        return None

    def _ref(self, ref: str, schema: dict) -> Check:
        resolved = self.resolver.lookup(ref)
        return _Compiler(resolved.resolver).compile(resolved.contents)

    def _type(self, value: str | list[str], schema: dict) -> Check:
        names = [value] if isinstance(value, str) else value
        tests = [_TYPES[name] for name in names]
        if len(tests) == 1:
            return tests[0]
        return lambda x: any(test(x) for test in tests)

    def _enum(self, values: list, schema: dict) -> Check:
        if not all(v is None or isinstance(v, str) for v in values):
            raise Unsupported("enum of non-strings")  # JSON equality of numbers/bools differs from Python's
        allowed = frozenset(values)
        return lambda x: (x is None or isinstance(x, str)) and x in allowed

    def _const(self, value: Any, schema: dict) -> Check:
        return self._enum([value], schema)

    def _required(self, keys: list[str], schema: dict) -> Check:
        return lambda x: not isinstance(x, dict) or all(key in x for key in keys)

    def _properties(self, properties: dict[str, Any], schema: dict) -> Check:
        checks = [(key, self.compile(sub)) for key, sub in properties.items()]

        def check(x: Any) -> bool:
            if not isinstance(x, dict):
                return True
            for key, sub in checks:
                if key in x and not sub(x[key]):
                    return False
            return True

        return check

    def _additionalProperties(self, additional: Any, schema: dict) -> Check:
        if "patternProperties" in schema:
            raise Unsupported("patternProperties")
        known = frozenset(schema.get("properties", ()))
        if additional is False:
            return lambda x: not isinstance(x, dict) or known.issuperset(x)
        sub = self.compile(additional)
        return lambda x: not isinstance(x, dict) or all(sub(v) for k, v in x.items() if k not in known)

    def _propertyNames(self, names: Any, schema: dict) -> Check:
        sub = self.compile(names)
        return lambda x: not isinstance(x, dict) or all(sub(key) for key in x)

    def _prefixItems(self, items: list, schema: dict) -> Check:
        subs = [self.compile(item) for item in items]
        return lambda x: not isinstance(x, list) or all(sub(v) for sub, v in zip(subs, x))

    def _items(self, items: Any, schema: dict) -> Check:
        start = len(schema.get("prefixItems", ()))
        if items is False:
            return lambda x: not isinstance(x, list) or len(x) <= start
        sub = self.compile(items)
        if start == 0:
            return lambda x: not isinstance(x, list) or all(sub(v) for v in x)
        return lambda x: not isinstance(x, list) or all(sub(v) for v in x[start:])

    def _minItems(self, n: int, schema: dict) -> Check:
        return lambda x: not isinstance(x, list) or len(x) >= n

    def _maxItems(self, n: int, schema: dict) -> Check:
        return lambda x: not isinstance(x, list) or len(x) <= n

    def _minLength(self, n: int, schema: dict) -> Check:
        return lambda x: not isinstance(x, str) or len(x) >= n

    def _maxLength(self, n: int, schema: dict) -> Check:
        return lambda x: not isinstance(x, str) or len(x) <= n

    def _pattern(self, pattern: str, schema: dict) -> Check:
        compiled = re.compile(pattern)
        return lambda x: not isinstance(x, str) or compiled.search(x) is not None

    def _minimum(self, n: float, schema: dict) -> Check:
        return lambda x: not _is_number(x) or x >= n

    def _maximum(self, n: float, schema: dict) -> Check:
        return lambda x: not _is_number(x) or x <= n

    def _multipleOf(self, n: float, schema: dict) -> Check:
        if not isinstance(n, int):
            raise Unsupported("multipleOf a fraction")
        # floats answer False: jsonschema decides them
        return lambda x: not _is_number(x) or (isinstance(x, int) and x % n == 0)

    def _if(self, condition: Any, schema: dict) -> Check:
        """`if`/`then`/`else` as one check (match.json's rules for one game)."""
        test = self.compile(condition)
        then = self.compile(schema.get("then", True))
        otherwise = self.compile(schema.get("else", True))
        return lambda x: then(x) if test(x) else otherwise(x)

    def _then(self, value: Any, schema: dict) -> Check:
        return lambda x: True  # checked by _if

    _else = _then

    def _allOf(self, parts: list, schema: dict) -> Check:
        """Every part (bot.json's "custom needs `command`, any other language `botFileName`" rule)."""
        return _all_of([self.compile(part) for part in parts]) if parts else lambda x: True

    def _anyOf(self, options: list, schema: dict) -> Check:
        checks = [self.compile(option) for option in options]
        return lambda x: any(check(x) for check in checks)

    def _not(self, value: Any, schema: dict) -> Check:
        check = self.compile(value)
        return lambda x: not check(x)
