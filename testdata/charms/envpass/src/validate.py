"""Checks that the options a login method needs are set."""

REQUIRED = ["queue"]
REQUIRED_TOKEN = ["login-token"]
REQUIRED_KEYPAIR = ["login-key", "login-key-id"]


def require(config_data, names):
    """Raise ValueError naming the first of names that config_data leaves unset."""
    for name in names:
        if not config_data.get(name):
            raise ValueError(f"option {name} is required")
