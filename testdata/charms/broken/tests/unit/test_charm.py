"""Charm tests. They cannot run until the syntax error in src/charm.py is fixed."""

import ops
import ops.testing
import pytest

from charm import ShardCharm, ShardCompactor


@pytest.fixture
def harness():
    harness = ops.testing.Harness(ShardCharm)
    harness.begin()
    yield harness
    harness.cleanup()


def test_unknown_compression_blocks(harness):
    harness.update_config({"compression": "lz4"})
    assert harness.model.unit.status == ops.BlockedStatus("unknown compression 'lz4'")


def test_api_publishes_port(harness):
    rel_id = harness.add_relation("api", "frontend")
    harness.add_relation_unit(rel_id, "frontend/0")
    assert harness.get_relation_data(rel_id, "shard/0") == {"port": "8420"}


def test_compactor_dry_run_keeps_chunks():
    class FakeStore:
        def unreferenced(self):
            return ["aa", "bb"]

        def drop(self, ids):
            raise AssertionError("dry run must not drop")

    assert ShardCompactor(FakeStore()).run() == {"unreferenced": "2", "dropped": "0"}
