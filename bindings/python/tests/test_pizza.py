"""Every operation of alloy's PizzaAdminService against the in-repo server,
with the typed values: dataclasses, enums, unions, timestamps, decimals,
documents, defaults, and each modeled error."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import time

import pytest

import smithycurl


def test_every_operation(pizza: smithycurl.Client) -> None:
    T, E = pizza.types, pizza.errors
    called = set()

    def op(name: str):  # type: ignore[no-untyped-def]
        called.add(name)
        return getattr(pizza, name)

    # Menus: structures, a union, enums, a timestamp header, a float.
    margherita = T.MenuItem(
        food=T.FoodPizza(T.Pizza(name="margharita", base=T.PizzaBase.TOMATO, toppings=[T.Ingredient.MUSHROOM, "TOMATO"])),
        price=9.0,
    )
    before = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    added = op("add_menu_item")(restaurant="uncle:mikes", menu_item=margherita)
    assert isinstance(added.item_id, str)
    assert added.added.tzinfo is not None and added.added >= before - datetime.timedelta(seconds=5)
    salad = {"food": {"salad": {"name": "caesar", "ingredients": ["Salad", "CHEESE"]}}, "price": 7.5}
    added2 = pizza.add_menu_item(T.AddMenuItemRequest(restaurant="uncle:mikes", menu_item=salad))
    menu = op("get_menu")(restaurant="uncle:mikes").menu
    got = menu[added.item_id]
    assert got == T.MenuItem(
        food=T.FoodPizza(T.Pizza(name="margharita", base=T.PizzaBase.TOMATO, toppings=[T.Ingredient.MUSHROOM, T.Ingredient.TOMATO])),
        price=9.0,
    )
    assert isinstance(got.food, T.Food) and got.food.member_name == "pizza"
    assert got.food.value.base is T.PizzaBase.TOMATO and got.food.value.base == "T"
    assert menu[added2.item_id].food.value.ingredients == [T.Ingredient.SALAD, T.Ingredient.CHEESE]

    # Errors of the menus.
    with pytest.raises(E.PriceError) as pe:
        pizza.add_menu_item(restaurant="bobs", menu_item={"food": {"salad": {"name": "air", "ingredients": []}}, "price": 0})
    assert (pe.value.status, pe.value.message, pe.value.code) == (400, "Price must be greater than 0", 400)
    assert pe.value.attempts == 1 and pe.value.shape_id == "alloy.test#PriceError"
    with pytest.raises(E.NotFoundError) as nf:
        pizza.get_menu(restaurant="nowhere")
    assert nf.value.name == "nowhere" and nf.value.status == 404
    assert str(nf.value) == "NotFoundError (HTTP 404): name='nowhere'"
    with pytest.raises(E.FallbackError) as fb:
        pizza.get_menu(restaurant="fallback")
    assert fb.value.error == "no menu, try the place next door"
    with pytest.raises(E.GenericServerError) as gs:
        pizza.add_menu_item(restaurant="boom", menu_item=margherita)
    assert gs.value.status == 502 and gs.value.attempts == 1  # not idempotent: sent once

    # Version and health; the @readonly 500 is retried then raised.
    assert op("version")().version == "1.0.0"
    assert op("health")(query="hello").status == "ok"
    assert pizza.health().status == "ok"
    with pytest.raises(E.UnknownServerError) as us:
        pizza.health(query="fail")
    assert us.value.status == 500 and us.value.attempts == 3
    assert us.value.error_code is T.UnknownServerErrorCode.ERROR_CODE
    assert (us.value.description, us.value.state_hash) == ("health check failed", "abc123")
    assert us.value.meta.error_code == "alloy.test#UnknownServerError" or us.value.meta.error_code.endswith("UnknownServerError")

    # HTTP bindings: headers, labels, query.
    headers = dict(uppercase_header="UPPERCASE_VALUE", capitalized_header="Capitalized_value",
                   lowercase_header="lowercase_value", mixed_header="aLLMiXedUP")
    assert op("header_endpoint")(**headers) == T.HeaderEndpointData(**headers)
    rt = op("round_trip")(label="the label/ü", header="the header", query="the query&x=1", body="the body")
    assert rt == T.RoundTripData(label="the label/ü", header="the header", query="the query&x=1", body="the body")
    assert pizza.round_trip(label="only") == T.RoundTripData(label="only")

    # Enums and codes.
    assert op("get_enum")(aa=T.TheEnum.V2).result == "v2"
    r = op("get_int_enum")(aa=T.EnumResult.FIRST).result
    assert r is T.EnumResult.FIRST and r == 1
    assert pizza.get_int_enum(aa=2).result is T.EnumResult.SECOND
    for code in (200, 201, 299):
        assert op("custom_code")(code=code).code == code
    with pytest.raises(E.GenericClientError, match="want 200 to 399") as gc:
        pizza.custom_code(code=600)
    assert gc.value.status == 418

    # Payloads with defaults.
    assert op("http_payload_with_default")(body="custom value").body == "custom value"
    assert pizza.http_payload_with_default().body == "default value"
    assert op("http_payload_required_with_default")(body="x").body == "x"
    assert pizza.http_payload_required_with_default().body == "default value"
    assert T.HttpPayloadRequiredWithDefaultInputOutput().body == "default value"  # the model's default

    # Open unions: known members as classes, @jsonUnknown documents kept.
    tagged = op("open_unions")(data={"tagged": {"str": "string value"}}).data
    assert tagged == T.OpenUnionsPayloadTagged(T.OpenTaggedUnionStr("string value"))
    other = pizza.open_unions(data=T.OpenUnionsPayloadTagged(T.OpenTaggedUnionOther({"whatisthis": {"nested": "x"}}))).data
    assert other.value.value == {"whatisthis": {"nested": "x"}}
    disc = pizza.open_unions(data={"discriminated": {"smol": {"content": "some string"}}}).data
    assert disc.value == T.OpenDiscriminatedUnionSmol(T.SmallStruct(content="some string"))
    disc2 = pizza.open_unions(data={"discriminated": {"other": {"key": "mysterious", "extras": 42}}}).data
    assert disc2.value.value == {"key": "mysterious", "extras": 42}

    # Primitives: every digit of a bigDecimal, an aware datetime.
    when = datetime.datetime(2025, 8, 15, 22, 26, 51, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))
    p = op("primitives")(uuid="51216269-c0c8-454a-871e-329513e54e23", local_date="2025-08-15",
                         local_time="13:26:51.123456789", duration=decimal.Decimal("86400.000000001"),
                         offset_date_time=when)
    assert p.duration == decimal.Decimal("86400.000000001") and isinstance(p.duration, decimal.Decimal)
    assert p.offset_date_time == when and p.offset_date_time.utcoffset() == datetime.timedelta(0)
    assert p.local_time == "13:26:51.123456789"

    # Documents stay plain values, in order.
    doc = {"zz": [1, 2.5], "aa": None, "mm": {"b": 1, "a": 2}}
    po = op("preserve_order")(map={"z": 1, "a": 2, "m": 3}, document=doc)
    assert list(po.map) == ["z", "a", "m"] and po.document == doc and list(po.document) == ["zz", "aa", "mm"]

    assert called == set(pizza.operations), f"untested: {set(pizza.operations) - called}"


def test_validation_lists_every_violation(pizza: smithycurl.Client) -> None:
    with pytest.raises(smithycurl.ValidationError) as e:
        pizza.add_menu_item(restaurant="bobs", menu_item={"food": {"pizza": {"name": "x"}}, "price": 1})
    assert isinstance(e.value, ValueError) and e.value.attempts == 0
    assert len(e.value.violations) == 2, e.value.violations
    assert any("base" in v for v in e.value.violations) and any("toppings" in v for v in e.value.violations)


def test_validate_checks_constraints(pizza_model: smithycurl.Model, servers) -> None:  # type: ignore[no-untyped-def]
    with pizza_model.client("alloy.test#PizzaAdminService", endpoint=servers.pizza, validate=True, retries=False) as c:
        with pytest.raises(smithycurl.ValidationError, match="above the maximum 5"):
            c.health(query="too long")
        with pytest.raises(smithycurl.ValidationError, match='"v3"'):
            c.get_enum(aa="v3")


def test_by_default_the_server_rejects(pizza: smithycurl.Client, pizza_model: smithycurl.Model, servers) -> None:  # type: ignore[no-untyped-def]
    # The constraint traits are not checked by default (nor with validate=False).
    with pizza_model.client("alloy.test#PizzaAdminService", endpoint=servers.pizza, validate=False, retries=False) as raw:
        for c in (pizza, raw):
            with pytest.raises(c.errors.GenericClientError, match="query longer than 5") as e:
                c.health(query="too long")
            assert e.value.status == 418
            with pytest.raises(c.errors.GenericClientError, match="v3"):
                c.get_enum(aa="v3")
        # @required is always checked.
        with pytest.raises(smithycurl.ValidationError, match="toppings: is required"):
            raw.add_menu_item(restaurant="bobs", menu_item={"food": {"pizza": {"name": "x", "base": "T"}}, "price": 1})


def test_unknown_values_from_a_newer_server(pizza: smithycurl.Client) -> None:
    T = pizza.types
    reg = pizza.model.registry
    # An enum value the model does not list is kept, not an error.
    base = T.PizzaBase("X")
    assert base == "X" and base.known is False and base.name is None and isinstance(base, T.PizzaBase)
    assert T.PizzaBase("T") is T.PizzaBase.TOMATO and T.PizzaBase.TOMATO.known
    assert "unknown" in repr(base) and str(base) == "X"
    n = T.EnumResult(7)
    assert n == 7 and not n.known
    # A union member it does not know decodes to <Union>Unknown.
    food = reg.codec("alloy.test#Food", "union").dec({"soup": {"name": "minestrone"}})
    assert isinstance(food, T.Food) and isinstance(food, smithycurl.UnknownUnionMember)
    assert (food.tag, food.value) == ("soup", {"name": "minestrone"})
    menu_item = reg.codec("alloy.test#MenuItem", "structure").dec(
        {"food": {"pizza": {"name": "p", "base": "Z", "toppings": ["TRUFFLE"]}}, "price": 3, "newMember": 1}
    )
    assert menu_item.food.value.base == "Z" and menu_item.food.value.toppings[0] == "TRUFFLE"
    assert menu_item.price == 3.0 and isinstance(menu_item.price, float)


def test_types_are_dataclasses(pizza: smithycurl.Client) -> None:
    T = pizza.types
    assert dataclasses.is_dataclass(T.Pizza) and issubclass(T.Pizza, smithycurl.Structure)
    assert issubclass(T.PizzaBase, smithycurl.StrEnum) and issubclass(T.EnumResult, smithycurl.IntEnum)
    assert issubclass(pizza.errors.PriceError, smithycurl.ServiceError)
    fields = {f.name: f for f in dataclasses.fields(T.AddMenuItemResult)}
    assert list(fields) == ["item_id", "added"]
    assert fields["added"].type == "datetime.datetime"
    assert {f.name: f.type for f in dataclasses.fields(T.HealthRequest)} == {"query": "typing.Optional[str]"}
    assert T.Pizza.__doc__
    e = pizza.errors.PriceError(message="m", code=3)
    assert (e.message, e.code) == ("m", 3) and repr(e) == "PriceError(status=0, message='m', code=3)"
    with pytest.raises(TypeError, match="no member"):
        pizza.errors.PriceError(bogus=1)
