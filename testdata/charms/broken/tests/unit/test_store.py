"""Tests for the chunk store (the charm module itself does not import: see src/charm.py)."""

import pytest

from store import ChunkStore, StoreError, chunk_id


@pytest.fixture
def store(tmp_path):
    return ChunkStore(root=tmp_path / "chunks", index=tmp_path / "index.json")


def test_chunk_id_is_stable():
    assert chunk_id(b"abc") == chunk_id(b"abc")
    assert chunk_id(b"abc") != chunk_id(b"abd")
    assert len(chunk_id(b"")) == 40


def test_put_deduplicates(store):
    first = store.put("a.tar", [b"one", b"two"])
    second = store.put("b.tar", [b"two", b"three"])
    assert first[1] == second[0]
    assert len(list(store.root.glob("*/*"))) == 3


def test_unreferenced_and_drop(store):
    ids = store.put("a.tar", [b"one"])
    orphan = store.root / "ff" / ("ff" * 20)
    orphan.parent.mkdir(parents=True)
    orphan.write_bytes(b"orphan")
    assert store.unreferenced() == ["ff" * 20]
    assert store.drop(store.unreferenced()) == 1
    assert store.unreferenced() == []
    assert (store.root / ids[0][:2] / ids[0]).exists()


def test_corrupt_index_raises(store):
    store.index.write_text("{not json")
    with pytest.raises(StoreError):
        store.unreferenced()
