"""Unit tests for the beacon machine charm."""

from unittest import mock

import ops
import ops.testing
import pytest

from charm import BeaconCharm


@pytest.fixture
def harness(tmp_path):
    harness = ops.testing.Harness(BeaconCharm)
    harness.add_network("192.0.2.10", endpoint="cluster")
    with mock.patch("charm.UNIT_FILE", tmp_path / "beacond.service"), mock.patch(
        "charm.subprocess.run"
    ) as run:
        run.return_value = mock.Mock(returncode=0, stdout="3\n", stderr="")
        harness.begin()
        yield harness
    harness.cleanup()


def test_short_interval_blocks(harness):
    harness.update_config({"interval": 1})
    assert isinstance(harness.model.unit.status, ops.BlockedStatus)


def test_unit_file_uses_bind_address(harness, tmp_path):
    harness.update_config({"bind-address": "198.51.100.7", "verbose": True})
    unit = (tmp_path / "beacond.service").read_text()
    assert "--bind 198.51.100.7" in unit
    assert unit.rstrip().endswith("WantedBy=multi-user.target")
    assert "-v" in unit


def test_status_feed_gets_ring(harness):
    peer_id = harness.add_relation("cluster", "beacon")
    harness.add_relation_unit(peer_id, "beacon/1")
    harness.update_relation_data(peer_id, "beacon/1", {"address": "192.0.2.11"})
    feed_id = harness.add_relation("status-feed", "dashboard")
    harness.add_relation_unit(feed_id, "dashboard/0")
    assert harness.get_relation_data(feed_id, "beacon/0")["ring"] == "192.0.2.11"


def test_ping_reports_answers(harness):
    output = harness.run_action("ping", {"count": 2})
    assert output.results["answered"] == "3"
