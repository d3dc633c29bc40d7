"""python -m smithycurl gen --async: the typed asyncio client classes of the
httpbin, extras and pizza services, imported and called against the servers
(operations, modeled errors, paginators, waiters, 100 calls at once), and
checked with mypy --strict when mypy is installed (required in CI)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from conftest import HTTPBIN_MODEL, PKG, REPO, Servers, pizza_model_paths

PROGRAM = '''
import asyncio
import base64
import sys
from typing import Any

import extras_api
import httpbin_api
import pizza_api
from extras_api import ExtrasAsyncClient, GetJobOutput, ListItemsOutput
from httpbin_api import AnythingOutput, HttpBinAsyncClient, HttpBinClient

import smithycurl


def no_base64(*_: Any) -> Any:
    raise AssertionError("a payload went through base64")


async def main(httpbin_url: str, extras_url: str, pizza_url: str) -> None:
    async with HttpBinAsyncClient(httpbin_url, timeout=10) as hb:
        ip: str = (await hb.get_ip()).origin
        echo: AnythingOutput = await hb.anything(id=25, test="yo", query_param="hello")
        print("ip", ip, "echo", echo.json, echo.args)
        with HttpBinClient(httpbin_url) as sync:
            assert type(echo) is type(sync.anything(id=1))
        outs = await asyncio.gather(*(hb.anything(id=i) for i in range(100)))
        print("gather", sum(1 for i, o in enumerate(outs) if o.json == {"id": i}))
        try:
            await hb.status(code=500)
        except smithycurl.ServiceError as e:
            print("status", type(e).__name__, e.status)
    async with ExtrasAsyncClient(extras_url, timeout=10, waiter_delays=(0.01, 0.04)) as ex:
        job: GetJobOutput = await ex.wait.job_done(id="done-2-gen-aio", max_wait=20)
        print("job", job.status)
        pages: list[ListItemsOutput] = [p async for p in ex.paginate.list_items(total=5, page_size=2)]
        print("pages", [p.items for p in pages])
        items = [i async for i in ex.paginate.list_items(total=3).items()]
        print("items", items)
        print("upload", (await ex.upload(name="g", body=b"hello")).size)
        big = bytes(i % 251 for i in range(251)) * 4178  # ~1 MiB, as bytes beside the JSON:
        setattr(base64, "b64encode", no_base64)  # never through base64 text
        setattr(base64, "b64decode", no_base64)
        up = await ex.upload(name="g", body=bytearray(big))
        down = await ex.download(name="g", n=len(big))
        print("payload", up.size == len(big) and up.sum == sum(big), down.body == big)
    async with pizza_api.PizzaAdminServiceAsyncClient(pizza_url, timeout=10) as pz:
        try:
            await pz.get_menu(restaurant="nowhere")
        except pizza_api.NotFoundError as e:
            name: str = e.name
            print("not found", name, e.status)
    _ = (extras_api, httpbin_api)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
'''


def _gen(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "smithycurl", "gen", *args], check=True, env=dict(os.environ, PYTHONPATH=PKG),
                   capture_output=True)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = str(tmp_path_factory.mktemp("genaio"))
    _gen(HTTPBIN_MODEL, "--async", "-o", os.path.join(out, "httpbin_api"))
    _gen(os.path.join(REPO, "testing", "servers", "extraserver", "extras.smithy"), "--async", "-o", os.path.join(out, "extras_api"))
    _gen(*pizza_model_paths(), "--service", "alloy.test#PizzaAdminService", "--async", "-o", os.path.join(out, "pizza_api"))
    with open(os.path.join(out, "program.py"), "w") as f:
        f.write(PROGRAM)
    return out


def test_generated_async_client_runs(generated: str, servers: Servers) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([generated, PKG]))
    r = subprocess.run([sys.executable, os.path.join(generated, "program.py"), servers.httpbin, servers.extras,
                        servers.pizza], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "ip 127.0.0.1 echo {'id': 25, 'test': 'yo'} {'query': ['hello']}",
        "gather 100",
        "status ServerFailure 500",
        "job done",
        "pages [['item-0', 'item-1'], ['item-2', 'item-3'], ['item-4']]",
        "items ['item-0', 'item-1', 'item-2']",
        "upload 5",
        "payload True True",
        "not found nowhere 404",
    ]
    with open(os.path.join(generated, "extras_api", "__init__.py")) as f:
        src = f.read()
    assert "    async def job_done(self, *, id: str, max_wait: float) -> GetJobOutput:" in src
    assert "-> smithycurl.aio.AsyncPaginator[ListItemsOutput]:" in src
    assert "    async def upload(self, *, name: str, body: typing.Optional[bytes] = None) -> UploadOutput:" in src


def test_without_async_no_async_client(tmp_path: str) -> None:
    out = os.path.join(str(tmp_path), "httpbin_sync")
    _gen(HTTPBIN_MODEL, "-o", out)
    with open(os.path.join(out, "__init__.py")) as f:
        src = f.read()
    assert "class HttpBinClient(" in src and "AsyncClient" not in src and "smithycurl.aio" not in src


def test_generated_async_client_passes_mypy_strict(generated: str, mypy_strict: list[str]) -> None:
    mypy = shutil.which("mypy")
    if mypy is None:
        if os.environ.get("CI"):
            pytest.fail("mypy is needed in CI (Debian package mypy)")
        pytest.skip("mypy not installed")
    env = dict(os.environ, MYPYPATH=os.pathsep.join([generated, PKG]))
    r = subprocess.run([mypy, *mypy_strict, os.path.join(generated, "program.py"),
                        os.path.join(PKG, "smithycurl")], capture_output=True, text=True, env=env, cwd=generated,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
