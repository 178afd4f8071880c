"""A shape read from the dataclass a document is `asdict` of (core.shapes.of): its fields are
declared once, in the dataclass, and the document must hold exactly them."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest
from pydantic import ValidationError

from cok.core.shapes import fits, of


@dataclass(frozen=True)
class Label:
    """A text placed on a picture."""

    x: str
    text: str


@dataclass(frozen=True)
class Picture:
    title: str
    size: tuple[int, int]
    labels: list[Label]
    mark: Label | None
    by_id: dict[str, Label]


PICTURE = Picture("map", (3, 4), [Label("1.0", "Kingsford")], None, {"a": Label("2.0", "Ash")})


def test_a_dataclass_as_its_document_fits_the_shape_read_from_it() -> None:
    fits(of(Picture), dataclasses.asdict(PICTURE))


def test_a_field_the_dataclass_does_not_have_is_refused_even_in_a_nested_one() -> None:
    document = dataclasses.asdict(PICTURE)
    document["labels"][0]["colour"] = "red"
    with pytest.raises(ValidationError):
        fits(of(Picture), document)


def test_a_field_of_another_type_is_refused() -> None:
    document = {**dataclasses.asdict(PICTURE), "size": ["3", "4"]}
    with pytest.raises(ValidationError):
        fits(of(Picture), document)


def test_the_shape_and_its_nested_ones_are_named_with_the_prefix_and_keep_the_docstring() -> None:
    shape = of(Picture, "Drawn", "DrawnDocument")
    assert shape.__name__ == "DrawnDocument"
    nested = shape.model_json_schema()["$defs"]
    assert set(nested) == {"DrawnLabel"}
    assert nested["DrawnLabel"]["description"] == "A text placed on a picture."
