"""Tests for the settings and Pebble layer built in workload.py."""

import pytest

from workload import InkwellSettings, WorkloadError

BASE = {
    "site-title": "Inkwell",
    "port": 8080,
    "enable-search": False,
    "cache-ratio": 0.25,
}


def test_settings_from_defaults():
    settings = InkwellSettings.from_config(BASE)
    assert settings.port == 8080
    assert settings.smtp_host is None
    assert settings.database_uri is None


@pytest.mark.parametrize("port", [0, 9102, 70000])
def test_reserved_ports_are_rejected(port):
    with pytest.raises(WorkloadError):
        InkwellSettings.from_config({**BASE, "port": port})


def test_cache_ratio_bounds():
    with pytest.raises(WorkloadError):
        InkwellSettings.from_config({**BASE, "cache-ratio": 0.0})
    assert InkwellSettings.from_config({**BASE, "cache-ratio": 0.9}).cache_ratio == 0.9


def test_render_includes_optional_sections():
    config = {**BASE, "smtp-host": "mail.internal:25", "enable-search": True}
    rendered = InkwellSettings.from_config(config, database_uri="docstore://db:7000/wiki").render()
    assert "[mail]" in rendered
    assert 'relay = "mail.internal:25"' in rendered
    assert 'uri = "docstore://db:7000/wiki"' in rendered
    assert "enabled = true" in rendered


def test_render_omits_unset_sections():
    rendered = InkwellSettings.from_config(BASE).render()
    assert "[mail]" not in rendered
    assert "[store]" not in rendered
