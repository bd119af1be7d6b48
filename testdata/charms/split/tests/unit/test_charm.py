"""Unit tests for the Ledger machine charm."""

from unittest import mock

import ops
import ops.testing
import pytest

from charm import LedgerCharm


@pytest.fixture
def harness():
    harness = ops.testing.Harness(LedgerCharm)
    harness.add_network("10.1.2.3", endpoint="replicas")
    with mock.patch("charm.LedgerService") as service_cls:
        service = service_cls.return_value
        service.is_running.return_value = True
        service.render_config.return_value = "[server]\n"
        service.version.return_value = "2.4.1"
        harness.begin()
        yield harness
    harness.cleanup()


def test_invalid_replication_mode_blocks(harness):
    harness.update_config({"replication-mode": "quorum"})
    assert harness.model.unit.status == ops.BlockedStatus("invalid replication-mode 'quorum'")


def test_config_change_opens_port(harness):
    harness.update_config({"port": 7500})
    assert {p.port for p in harness.model.unit.opened_ports()} == {7500}


def test_leader_records_primary_and_passwords(harness):
    rel_id = harness.add_relation("replicas", "ledger")
    harness.set_leader(True)
    data = harness.get_relation_data(rel_id, "ledger")
    assert data["primary"] == "10.1.2.3"
    assert data["operator-password"]
    assert data["backup-password"]


def test_rotate_password_refused_on_follower(harness):
    harness.add_relation("replicas", "ledger")
    with pytest.raises(ops.testing.ActionFailed):
        harness.run_action("rotate-password", {"username": "operator"})


def test_rotate_password_stores_new_value(harness):
    rel_id = harness.add_relation("replicas", "ledger")
    harness.set_leader(True)
    output = harness.run_action("rotate-password", {"username": "backup", "password": "s3cret"})
    assert output.results == {"username": "backup"}
    assert harness.get_relation_data(rel_id, "ledger")["backup-password"] == "s3cret"
    harness.charm.service.set_password.assert_called_once_with("backup", "s3cret")


def test_create_backup_needs_s3(harness):
    with pytest.raises(ops.testing.ActionFailed) as failure:
        harness.run_action("create-backup", {"label": "nightly"})
    assert "s3-integrator" in failure.value.message


def test_get_primary_falls_back_to_peer_data(harness):
    harness.charm.service.primary.return_value = None
    harness.add_relation("replicas", "ledger")
    harness.set_leader(True)
    assert harness.run_action("get-primary").results == {"primary": "10.1.2.3"}


def test_update_status_reports_stopped_daemon(harness):
    harness.charm.service.is_running.return_value = False
    harness.charm.on.update_status.emit()
    assert harness.model.unit.status == ops.WaitingStatus("daemon not running")
