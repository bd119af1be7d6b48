"""Reads options from the ConfigData the charm hands it, one under a wrong name."""

import ops


def read_settings(config: ops.ConfigData) -> dict:
    return {
        "interval": config["interval"],
        "region": config.get("region"),
        "zone": config.get("zone"),  # want check=undeclared-config
    }
