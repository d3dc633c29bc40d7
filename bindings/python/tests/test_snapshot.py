"""Model snapshots: a model's snapshot, saved to a file, loads alone and
calls like the model; a damaged one is a LoadError naming the file."""

from __future__ import annotations

import pathlib

import pytest

import smithycurl
from conftest import Servers


def test_snapshot_loads_and_calls(httpbin_model: smithycurl.Model, servers: Servers, tmp_path: pathlib.Path) -> None:
    data = httpbin_model.snapshot()
    assert isinstance(data, bytes) and len(data) > 24
    path = tmp_path / "httpbin.scmodel"
    path.write_bytes(data)
    model = smithycurl.load_model(path)
    assert [s.id for s in model.services] == [s.id for s in httpbin_model.services]
    assert model.ast() == httpbin_model.ast()
    with model.client(endpoint=servers.httpbin) as c:
        assert c.get_ip().origin == "127.0.0.1"


def test_damaged_snapshot(httpbin_model: smithycurl.Model, tmp_path: pathlib.Path) -> None:
    data = bytearray(httpbin_model.snapshot())
    data[len(data) // 2] ^= 1
    path = tmp_path / "damaged.scmodel"
    path.write_bytes(bytes(data))
    with pytest.raises(smithycurl.LoadError) as e:
        smithycurl.load_model(path)
    assert str(path) in str(e.value) and "checksum mismatch" in str(e.value)
    path.write_bytes(bytes(data[:40]))
    with pytest.raises(smithycurl.LoadError, match="truncated"):
        smithycurl.load_model(path)


def test_model_cache_options(tmp_path: pathlib.Path) -> None:
    """load_model(cache=, cache_dir=): "off" and "memory" write no snapshot,
    "on" writes one to cache_dir and loads the same model again; another
    mode is a UsageError."""
    text = '$version: "2"\nnamespace ex\nstructure CachePy {}\n'
    for mode in ("off", "memory"):
        smithycurl.load_model(text=text, cache=mode, cache_dir=tmp_path)
    assert list(tmp_path.glob("*.scmodel")) == []
    first = smithycurl.load_model(text=text.replace("CachePy", "CachePyOn"), cache="on", cache_dir=tmp_path)
    assert len(list(tmp_path.glob("*.scmodel"))) == 1
    again = smithycurl.load_model(text=text.replace("CachePy", "CachePyOn"), cache="on", cache_dir=tmp_path)
    assert again.ast() == first.ast()
    with pytest.raises(smithycurl.UsageError, match="model cache mode"):
        smithycurl.load_model(text=text, cache="sometimes")
