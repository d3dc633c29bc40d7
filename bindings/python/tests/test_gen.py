"""python -m smithycurl gen: the typed modules of the pizza and httpbin
services, imported and used against the servers, and checked with
mypy --strict when mypy is installed (required in CI)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from conftest import HTTPBIN_MODEL, PKG, Servers, pizza_model_paths

PROGRAM = '''
import decimal
import sys

import httpbin_api
import pizza_api
from pizza_api import FoodPizza, Ingredient, MenuItem, Pizza, PizzaAdminServiceClient, PizzaBase

import smithycurl


def main(pizza_url: str, httpbin_url: str) -> None:
    with PizzaAdminServiceClient(pizza_url, timeout=10) as client:
        item = MenuItem(food=FoodPizza(Pizza(name="m", base=PizzaBase.CREAM, toppings=[Ingredient.CHEESE])), price=9.5)
        added = client.add_menu_item(restaurant="typed", menu_item=item)
        menu: dict[str, MenuItem] = client.get_menu(restaurant="typed").menu
        got = menu[added.item_id]
        assert got == item and isinstance(got.food, FoodPizza)
        base: PizzaBase = got.food.value.base
        print("menu", added.item_id, base.name, added.added.tzinfo is not None)
        try:
            client.get_menu(restaurant="nowhere")
        except pizza_api.NotFoundError as e:
            name: str = e.name
            print("not found", name, e.status)
        p = client.primitives(uuid="51216269-c0c8-454a-871e-329513e54e23", local_date="2025-08-15",
                              local_time="13:26:51", duration=decimal.Decimal("1.000000001"),
                              offset_date_time=added.added)
        print("duration", p.duration + 1)
        print("enum", client.get_int_enum(aa=pizza_api.EnumResult.SECOND).result.name)
        try:
            client.health(query="fail")
        except pizza_api.UnknownServerError as e:
            print("server error", e.error_code.value, e.status)
        print("default", client.http_payload_with_default().body)
    with httpbin_api.HttpBinClient(httpbin_url) as hb:
        print("ip", hb.get_ip().origin)
        echo = hb.anything(id=25, test="yo", query_param="hello")
        print("echo", echo.json, echo.args)
        try:
            hb.status(code=500)
        except smithycurl.ServiceError as e:
            print("status", type(e).__name__, e.status)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
'''


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = str(tmp_path_factory.mktemp("gen"))
    env = dict(os.environ, PYTHONPATH=PKG)
    subprocess.run([sys.executable, "-m", "smithycurl", "gen", *pizza_model_paths(), "--service",
                    "alloy.test#PizzaAdminService", "-o", os.path.join(out, "pizza_api")], check=True, env=env)
    subprocess.run([sys.executable, "-m", "smithycurl", "gen", HTTPBIN_MODEL, "-o", os.path.join(out, "httpbin_api")],
                   check=True, env=env)
    with open(os.path.join(out, "program.py"), "w") as f:
        f.write(PROGRAM)
    return out


def test_generated_module_runs(generated: str, servers: Servers) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([generated, PKG]))
    r = subprocess.run([sys.executable, os.path.join(generated, "program.py"), servers.pizza, servers.httpbin],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("menu ") and lines[0].endswith(" CREAM True")
    assert lines[1:] == [
        "not found nowhere 404", "duration 2.000000001", "enum SECOND", "server error server.error 500",
        "default default value", "ip 127.0.0.1", "echo {'id': 25, 'test': 'yo'} {'query': ['hello']}",
        "status ServerFailure 500",
    ]


def test_generated_module_content(generated: str) -> None:
    with open(os.path.join(generated, "pizza_api", "__init__.py")) as f:
        src = f.read()
    assert "def add_menu_item(self, *, restaurant: str, menu_item: MenuItem | typing.Mapping[str, typing.Any]) -> AddMenuItemResult:" in src
    assert "class PriceError(smithycurl.ServiceError):" in src and "class PizzaBase(smithycurl.StrEnum):" in src
    with open(os.path.join(generated, "httpbin_api", "__init__.py")) as f:
        src = f.read()
    assert '"""Echoes the request: method, query, headers and JSON body.' in src
    assert "def anything(self, *, id: int, test: typing.Optional[str] = None, query_param: typing.Optional[str] = None) -> AnythingOutput:" in src
    assert os.path.exists(os.path.join(generated, "httpbin_api", "py.typed"))


def test_generated_module_passes_mypy_strict(generated: str, mypy_strict: list[str]) -> None:
    mypy = shutil.which("mypy")
    if mypy is None:
        if os.environ.get("CI"):
            pytest.fail("mypy is needed in CI (Debian package mypy)")
        pytest.skip("mypy not installed")
    env = dict(os.environ, MYPYPATH=os.pathsep.join([generated, PKG]))
    r = subprocess.run([mypy, *mypy_strict, os.path.join(generated, "program.py"),
                        os.path.join(PKG, "smithycurl")], capture_output=True, text=True, env=env, cwd=generated, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


MISSPELT = '''
import httpbin_api

httpbin_api.HttpBinClient("http://127.0.0.1:1", timout=10)
'''


def test_generated_client_lists_its_options(generated: str, mypy_strict: list[str]) -> None:
    """The generated client's constructor takes Model.client's options by
    name, so a misspelt one fails the type check and the call."""
    import inspect

    import smithycurl

    sys.path.insert(0, generated)
    try:
        import httpbin_api
    finally:
        sys.path.remove(generated)
    got = inspect.signature(httpbin_api.HttpBinClient.__init__).parameters
    want = [p for p in inspect.signature(smithycurl.Model.client).parameters.values()
            if p.kind is inspect.Parameter.KEYWORD_ONLY and p.name != "endpoint"]
    assert [(p.name, p.default) for p in want] == [(n, got[n].default) for n in got if n not in ("self", "endpoint")]
    with pytest.raises(TypeError, match="timout"):
        httpbin_api.HttpBinClient("http://127.0.0.1:1", timout=10)  # type: ignore[call-arg]
    mypy = shutil.which("mypy")
    if mypy is None:
        if os.environ.get("CI"):
            pytest.fail("mypy is needed in CI (Debian package mypy)")
        pytest.skip("mypy not installed")
    with open(os.path.join(generated, "misspelt.py"), "w") as f:
        f.write(MISSPELT)
    env = dict(os.environ, MYPYPATH=os.pathsep.join([generated, PKG]))
    r = subprocess.run([mypy, *mypy_strict, os.path.join(generated, "misspelt.py")],
                       capture_output=True, text=True, env=env, cwd=generated, timeout=120)
    assert r.returncode == 1 and 'Unexpected keyword argument "timout"' in r.stdout, r.stdout + r.stderr
