"""Rich modules that typer's help imports and nemori's help never uses, loaded on first use.

typer.rich_utils imports rich.markdown (with markdown-it) and rich.traceback (with pygments)
at its top, for markdown help text and pretty tracebacks: nemori's help is rich markup and its
errors are one line, so those imports were 75 ms of the 0.33 s of `nemori --help`. A stand-in
module holds each until something uses its class or reads another of its names; then the
real module takes its place in sys.modules and answers.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

# each module, and the name typer.rich_utils takes from it
DEFERRED = {"rich.markdown": "Markdown", "rich.traceback": "Traceback"}


def real(module_name: str) -> types.ModuleType:
    """The real module (imported now if only its stand-in is there)."""
    module = sys.modules.get(module_name)
    if isinstance(module, StandIn):
        del sys.modules[module_name]
        module = importlib.import_module(module_name)
    return module if module is not None else importlib.import_module(module_name)


class StandIn(types.ModuleType):
    """A module not imported yet: any name read from it but the deferred class imports it."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # the import system asks for __path__ and the like
            raise AttributeError(name)
        return getattr(real(self.__name__), name)


class Deferred(type):
    """The type of a deferred class: what is asked of it is asked of the real class."""

    def __getattr__(cls, name: str) -> Any:  # class methods: Traceback.from_exception(...)
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(real_class(cls), name)

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, real_class(cls))

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return real_class(cls)(*args, **kwargs)


def real_class(cls: type) -> type:
    """The real class a deferred class stands for."""
    return getattr(real(cls.__module__), cls.__name__)  # type: ignore[no-any-return]


def stand_in(module_name: str, class_name: str) -> StandIn:
    """A stand-in for module_name whose class_name is a class that stands for the real one."""
    module = StandIn(module_name)
    # a class, since typer writes it in annotations (`Markdown | Text`)
    setattr(module, class_name, Deferred(class_name, (), {"__module__": module_name}))
    return module


def defer_rich_extras() -> None:
    """Put stand-ins for DEFERRED's modules in sys.modules, unless they are imported already."""
    for module_name, class_name in DEFERRED.items():
        if module_name not in sys.modules:
            package, _, name = module_name.rpartition(".")
            module = sys.modules[module_name] = stand_in(module_name, class_name)
            setattr(importlib.import_module(package), name, module)  # as an import would
