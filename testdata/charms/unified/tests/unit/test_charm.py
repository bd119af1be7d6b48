"""Unit tests for the Inkwell charm, using the ops testing harness."""

import ops
import ops.testing
import pytest

from charm import InkwellCharm


@pytest.fixture
def harness():
    harness = ops.testing.Harness(InkwellCharm)
    harness.set_model_name("wiki")
    harness.add_storage("pages", attach=True)
    harness.begin()
    yield harness
    harness.cleanup()


def _grant_admin_password(harness: ops.testing.Harness) -> None:
    secret_id = harness.add_user_secret({"password": "hunter22"})
    harness.grant_secret(secret_id, harness.charm.app)
    harness.update_config({"admin-password": secret_id})


def test_blocked_without_admin_password(harness):
    harness.container_pebble_ready("inkwell")
    harness.evaluate_status()
    assert isinstance(harness.model.unit.status, ops.BlockedStatus)


def test_pebble_ready_plans_service(harness):
    _grant_admin_password(harness)
    harness.container_pebble_ready("inkwell")
    plan = harness.get_container_pebble_plan("inkwell")
    assert "inkwell" in plan.services
    assert "--log-level info" in plan.services["inkwell"].command


def test_config_file_has_title_and_port(harness):
    _grant_admin_password(harness)
    harness.update_config({"site-title": "Team notes", "port": 9000})
    harness.container_pebble_ready("inkwell")
    root = harness.get_filesystem_root("inkwell")
    rendered = (root / "etc/inkwell/inkwell.toml").read_text()
    assert 'title = "Team notes"' in rendered
    assert "0.0.0.0:9000" in rendered


def test_bad_cache_ratio_keeps_old_config(harness):
    _grant_admin_password(harness)
    harness.container_pebble_ready("inkwell")
    harness.update_config({"cache-ratio": 1.5})
    root = harness.get_filesystem_root("inkwell")
    assert "cache_ratio = 0.25" in (root / "etc/inkwell/inkwell.toml").read_text()


def test_website_publishes_cluster_url_without_ingress(harness):
    rel_id = harness.add_relation("website", "frontend")
    harness.add_relation_unit(rel_id, "frontend/0")
    data = harness.get_relation_data(rel_id, harness.charm.unit.name)
    assert data["url"] == "http://inkwell-k8s.wiki.svc"
    assert data["port"] == "8080"


def test_leader_creates_session_key(harness):
    harness.set_leader(True)
    rel_id = harness.add_relation("inkwell-peers", "inkwell-k8s")
    harness.add_relation_unit(rel_id, "inkwell-k8s/1")
    harness.update_relation_data(rel_id, "inkwell-k8s/1", {"ready": "yes"})
    assert harness.get_relation_data(rel_id, "inkwell-k8s")["session-key"]


def test_export_rejects_unknown_format(harness):
    with pytest.raises(ops.testing.ActionFailed) as failure:
        harness.run_action("export-pages", {"destination": "all.tgz", "format": "pdf"})
    assert "unknown format" in failure.value.message
