"""Unit tests for the beacon Kubernetes charm."""

import ops
import ops.testing
import pytest

from charm import BeaconK8sCharm


@pytest.fixture
def harness():
    harness = ops.testing.Harness(BeaconK8sCharm)
    harness.begin()
    yield harness
    harness.cleanup()


def test_pebble_ready_plans_beacond(harness):
    harness.update_config({"external-hostname": "beacon.example.org"})
    harness.container_pebble_ready("beacon")
    service = harness.get_container_pebble_plan("beacon").services["beacond"]
    assert service.environment["BEACON_HOSTNAME"] == "beacon.example.org"
    assert "--every 30s" in service.command


def test_long_message_blocks(harness):
    harness.set_can_connect("beacon", True)
    harness.update_config({"message": "x" * 200})
    assert isinstance(harness.model.unit.status, ops.BlockedStatus)


def test_ring_is_published_to_feed(harness):
    harness.update_config({"external-hostname": "b0.example.org"})
    harness.container_pebble_ready("beacon")
    peer_id = harness.add_relation("beacon-peers", "beacon-k8s")
    harness.add_relation_unit(peer_id, "beacon-k8s/1")
    harness.update_relation_data(peer_id, "beacon-k8s/1", {"address": "b1.example.org"})
    feed_id = harness.add_relation("status-feed", "dashboard")
    harness.add_relation_unit(feed_id, "dashboard/0")
    ring = harness.get_relation_data(feed_id, "beacon-k8s/0")["ring"]
    assert ring == "b1.example.org"
