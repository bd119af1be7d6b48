"""Unit tests for the relay charm.

Harness accepts the undeclared names the charm uses, which is exactly why the
seeded inconsistencies in src/ are not caught by these tests.
"""

import ops
import ops.testing
import pytest

from charm import RelayCharm


@pytest.fixture
def harness():
    harness = ops.testing.Harness(RelayCharm)
    harness.begin()
    yield harness
    harness.cleanup()


def test_layer_uses_port_and_depth(harness):
    harness.update_config({"listen-port": 6000, "queue-depth": 50})
    harness.container_pebble_ready("relay")
    command = harness.get_container_pebble_plan("relay").services["relayd"].command
    assert "--listen :6000" in command
    assert "--queue 50" in command


def test_upstream_address_is_added(harness):
    rel_id = harness.add_relation("upstream", "broker", app_data={"address": "10.0.0.9:4222"})
    harness.container_pebble_ready("relay")
    command = harness.get_container_pebble_plan("relay").services["relayd"].command
    assert "--upstream 10.0.0.9:4222" in command
    harness.remove_relation(rel_id)


def test_leader_publishes_port_downstream(harness):
    harness.set_leader(True)
    rel_id = harness.add_relation("downstream", "consumer")
    harness.add_relation_unit(rel_id, "consumer/0")
    assert harness.get_relation_data(rel_id, "relay")["port"] == "5555"


def test_inspect_unknown_endpoint_fails(harness):
    with pytest.raises(ops.testing.ActionFailed):
        harness.run_action("inspect", {"endpoint": "upstream"})


def test_stop_without_container_is_quiet(harness):
    harness.set_can_connect("relay", False)
    harness.charm.on.stop.emit()
    assert not harness.charm.service_running()
