"""Cases and effects to and from plain JSON-able dicts.

The service stores a case as a row whose payload is ``case.to_dict()``; reading it back goes
through :func:`from_plain`, which checks every field against the dataclass's type hints and
reports the first broken path (``decisions[0].decided_on: …``) instead of building a bad case.
Keys the dataclass does not have are ignored, so the service may keep its own notes in the same
JSON object; they are not carried into the next ``to_dict``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from datetime import date
from enum import Enum
from typing import Any, TypeVar

from adjudication.errors import InvalidCaseData

SCHEMA_VERSION = 1
"""Version of the dict layout; bump it and convert old payloads when a field changes meaning."""

Plain = None | bool | int | str | list["Plain"] | dict[str, "Plain"]

T = TypeVar("T")


def to_plain(value: object) -> Plain:
    """Dataclasses become dicts, dates ISO strings, enums their values, tuples and sets lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            field.name: to_plain(getattr(value, field.name)) for field in dataclasses.fields(value)
        }
    if isinstance(value, Enum):
        return to_plain(value.value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, frozenset):
        return sorted((to_plain(item) for item in value), key=repr)
    if isinstance(value, (tuple, list)):
        return [to_plain(item) for item in value]
    if value is None or isinstance(value, (bool, int, str)):
        return value
    raise TypeError(f"cannot store {type(value).__name__} in a case payload")


def from_plain(cls: type[T], data: object, path: str = "$") -> T:
    """Build the dataclass ``cls`` from ``data``, checking each field's type."""
    value: T = _read(cls, data, path)
    return value


def _read(hint: Any, data: object, path: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        options = typing.get_args(hint)
        if data is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _read(option, data, path)
            except InvalidCaseData as error:
                errors.append(str(error))
        raise InvalidCaseData(path, "; ".join(errors) or "null is not allowed")
    if origin in (tuple, frozenset):
        if not isinstance(data, list):
            raise InvalidCaseData(path, f"expected a list, got {type(data).__name__}")
        item = typing.get_args(hint)[0]
        items = [_read(item, element, f"{path}[{i}]") for i, element in enumerate(data)]
        return tuple(items) if origin is tuple else frozenset(items)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _read_dataclass(hint, data, path)
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(data)
        except ValueError:
            known = ", ".join(str(member.value) for member in hint)
            raise InvalidCaseData(path, f"{data!r} is not one of: {known}") from None
    if hint is date:
        if not isinstance(data, str):
            raise InvalidCaseData(path, f"expected an ISO date, got {data!r}")
        try:
            return date.fromisoformat(data)
        except ValueError:
            raise InvalidCaseData(path, f"{data!r} is not an ISO date") from None
    if hint in (bool, int, str):
        # bool is an int in Python, but a payload's true is not a revision number.
        if type(data) is not hint:
            raise InvalidCaseData(path, f"expected {hint.__name__}, got {data!r}")
        return data
    raise InvalidCaseData(path, f"unsupported field type {hint!r}")


def _read_dataclass(cls: type[Any], data: object, path: str) -> Any:
    if not isinstance(data, dict):
        raise InvalidCaseData(path, f"expected an object, got {type(data).__name__}")
    hints = typing.get_type_hints(cls)
    fields = {field.name: field for field in dataclasses.fields(cls) if field.init}
    values: dict[str, Any] = {}
    for name, field in fields.items():
        if name in data:
            values[name] = _read(hints[name], data[name], f"{path}.{name}")
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise InvalidCaseData(f"{path}.{name}", "missing")
    try:
        return cls(**values)
    except ValueError as error:
        raise InvalidCaseData(path, str(error)) from error
